#!/bin/sh
# Damaged pci.ids and supported-gpus.json: binary data, a 1 MB line, no
# newline at the end, a file cut inside NVIDIA's block, one over the 16
# MiB cap, a FIFO; a list that is cut, binary, over its 8 MiB cap, a FIFO.
# Each gives a note naming the file, never a wait or a crash, and what
# could still be read stands.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

IDS=/usr/share/misc/pci.ids
SG=/usr/share/doc/NVIDIA_GLX-1.0/supported-gpus/supported-gpus.json

# note_for PATH PATTERN DESCRIPTION: a note on PATH whose text matches.
note_for() {
	like "$(jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' "$FX_OUT")" \
	    "$2" "$3"
}

valid_json() {	# DESCRIPTION
	ok "$1: the run goes on with valid JSON" jq -e '.facts.gpus' "$FX_OUT"
	ok "$1: exit status 0 or 1, not a crash" test "$FX_RC" -le 1
}

tree() {	# a Fermi laptop GPU and a GH100
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 1140
	fx_gpu 0000:02:00.0 2330
}

cc_of() {	# DEVICE
	fx_jq ".facts.gpus[] | select(.device_id == \"0x$1\") | .compute_capability"
}

# ---- pci.ids: binary data (a NUL) before the NVIDIA block
tree
{ printf '# pci.ids\n\000\377\376junk\n'; cat "$TESTS_SRCDIR/lib/pci.ids.nvidia"; } |
    fx_file $IDS
fx_doctor
valid_json "binary pci.ids"
note_for $IDS 'binary data' "binary data in pci.ids is noted"
is "$(fx_jq '.facts.gpus[] | select(.device_id == "0x1140") | .sources.chip')" \
    "built-in pci.ids" "and nothing is read from it: the built-in table answers"

# ---- a 1 MB line before the block: skipped, the rest still read
tree
{ printf '# '; head -c 1048576 /dev/zero | tr '\0' x; printf '\n'
  cat "$TESTS_SRCDIR/lib/pci.ids.nvidia"; } | fx_file $IDS
fx_doctor
valid_json "pci.ids with a 1 MB line"
note_for $IDS 'longer than 1024 bytes' "the overlong line is noted"
is "$(cc_of 1140)" "2.1" "the lines after it are still read"
is "$(cc_of 2330)" "9.0" "all of them"

# ---- no newline at the end: the last line still counts
tree
printf '10de  NVIDIA Corporation\n\t1140  GF117M [GeForce 610M]\n\t2330  GH100 [H100 SXM5 80GB]' |
    fx_file $IDS
fx_doctor
is "$(cc_of 2330)" "9.0" "a last line without a newline is read"
is "$(fx_jq '[.facts.notes[] | select(.path == "'$IDS'")] | length')" 0 \
    "and a file whose ids were all found gives no note"

# ---- cut inside NVIDIA's block: what is there stands, the cut is noted
tree
sed '/^\t2330 /,$d' "$TESTS_SRCDIR/lib/pci.ids.nvidia" | fx_file $IDS
fx_doctor
valid_json "pci.ids cut inside the block"
note_for $IDS 'ends inside NVIDIA' "the cut is noted"
is "$(cc_of 1140)" "2.1" "the GPU before the cut is identified"
is "$(fx_jq '.facts.gpus[] | select(.device_id == "0x2330") | .chip')" "null" \
    "the one after it is not"

# ---- over the 16 MiB cap (text, so the cap and not the NUL check stops it)
tree
yes '# padding line of a pci.ids grown far past any real one' | head -c 17000000 |
    fx_file $IDS
cat "$TESTS_SRCDIR/lib/pci.ids.nvidia" >> "$FX$IDS"
fx_doctor
valid_json "a 17 MB pci.ids"
note_for $IDS 'larger than' "the cap is noted"

# ---- a FIFO: refused without being opened (no wait for a writer)
tree
mkdir -p "$FX/usr/share/misc"
mkfifo "$FX$IDS"
fx_pci_ids_real /usr/share/hwdata/pci.ids
fx_doctor
valid_json "a FIFO in pci.ids' place"
note_for $IDS 'cannot read' "the FIFO is noted"
is "$(cc_of 1140)" "2.1" "and the next place's pci.ids is read"

# ---- supported-gpus.json: cut short
tree
fx_pci_ids_real
head -c 300 "$TESTS_SRCDIR/lib/supported-gpus.sample.json" | fx_file $SG
fx_doctor
valid_json "a cut supported-gpus.json"
note_for $SG 'not the form' "the damaged list is noted"
is "$(fx_jq '.facts.gpus[0].legacy_branch')" "null" "and gives no branch"
like "$(fx_jq '.facts.gpus[0].unknown.legacy_branch')" 'damaged' "the reason says why"
is "$(cc_of 1140)" "2.1" "pci.ids still identifies the GPU"

# ---- binary
tree
printf '{"chips":[{"devid":"0x1140",\000"legacybranch":"390.xx"}]}' | fx_file $SG
fx_doctor
valid_json "a binary supported-gpus.json"
note_for $SG 'binary data' "binary data in the list is noted"

# ---- wrong shapes: chips not a list, a number for a name, deep nesting
for doc in '{"chips":{}}' '[]' '{"chips":[{"devid":"0x1140","name":7,"legacybranch":"390.xx"}]}' \
    "{\"chips\":[{\"devid\":\"0x1140\",\"x\":$(printf '%.0s[' $(seq 40))1$(printf '%.0s]' $(seq 40))}]}"; do
	tree
	printf '%s' "$doc" | fx_file $SG
	fx_doctor
	ok "shape $(printf '%.30s' "$doc"): valid JSON, no crash" test "$FX_RC" -le 1
done
is "$(fx_jq '.facts.gpus[0].legacy_branch')" "null" "nesting past the limit gives no branch"
note_for $SG 'not the form' "and is noted"

# ---- escapes: an escaped quote and backslash do not end the string,
# \u is read as '?'; a raw control character keeps the name out
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2b85
fx_gpu 0000:02:00.0 1180
printf '%s' '{"chips":[{"devid":"0x2B85","name":"RTX \"5090\" \\ \u00e9","legacybranch":"470.xx"},' \
    '{"devid":"0x1180","name":"GTX' "$(printf '\t')" '680","legacybranch":"390.xx"}]}' | fx_file $SG
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" 'RTX "5090" \ ?' "escapes inside a name are read"
is "$(fx_jq '.facts.gpus[0].legacy_branch')" "470" "and the row's other fields after it"
is "$(fx_jq '.facts.gpus[1].sources.name')" "built-in pci.ids" \
    "a name holding a tab is not taken (the built-in pci.ids table names it)"
is "$(fx_jq '.facts.gpus[1].legacy_branch')" "390" "the row's branch still is"

# ---- over the 8 MiB cap, and a FIFO
tree
truncate -s 9M "$FX/x" && mkdir -p "$(dirname "$FX$SG")" && mv "$FX/x" "$FX$SG"
fx_doctor
valid_json "a 9 MiB supported-gpus.json"
note_for $SG 'cannot read' "the oversized list is noted"
tree
mkdir -p "$(dirname "$FX$SG")"
mkfifo "$FX$SG"
fx_doctor
valid_json "a FIFO in the list's place"
note_for $SG 'cannot read' "the FIFO is noted"

done_testing
