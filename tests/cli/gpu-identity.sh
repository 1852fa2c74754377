#!/bin/sh
# GPU identity without the driver: the chip in the pci.ids name gives the
# architecture and compute capability of a GPU no name table knows, for a
# desktop, mobile and data-center device of every architecture from Fermi
# to Blackwell (real pci.ids lines, tests/lib/pci.ids.nvidia); the
# driver's supported-gpus.json gives the legacy branch (real rows,
# tests/lib/supported-gpus.sample.json); `sources` names where each came
# from.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

# id  chip  arch  cc: one row a GPU; the PCI address is made from the row.
GPUS='06d1 GF100GL Fermi 2.0
0dc4 GF106 Fermi 2.1
1140 GF117M Fermi 2.1
1180 GK104 Kepler 3.0
1292 GK208M Kepler 3.5
1023 GK110BGL Kepler 3.5
102d GK210GL Kepler 3.7
139b GM107M Maxwell 5.0
13c2 GM204 Maxwell 5.2
17fd GM200GL Maxwell 5.2
1b80 GP104 Pascal 6.1
1c8d GP107M Pascal 6.1
15f8 GP100GL Pascal 6.0
1d81 GV100 Volta 7.0
1db4 GV100GL Volta 7.0
1e04 TU102 Turing 7.5
1f99 TU117M Turing 7.5
1eb8 TU104GL Turing 7.5
2204 GA102 Ampere 8.6
2520 GA106M Ampere 8.6
20b0 GA100 Ampere 8.0
2684 AD102 Ada 8.9
2757 AD103M Ada 8.9
27b8 AD104GL Ada 8.9
2330 GH100 Hopper 9.0
2b85 GB202 Blackwell 12.0
2c18 GB203M Blackwell 12.0
2901 GB100 Blackwell 10.0
3182 GB110 Blackwell_Ultra 10.3
2e12 GB20B Blackwell 12.1'

fx_new
fx_kernel 6.1.0-13-amd64
fx_pci_ids_real
n=0
while read -r id chip arch cc; do
	n=$((n + 1))
	fx_gpu "$(printf '0000:%02x:00.0' "$n")" "$id"
done <<END
$GPUS
END
# A chip the table does not hold (Rubin, not yet described by NVIDIA).
fx_gpu 0000:f0:00.0 3000
fx_doctor
is "$(fx_jq '.facts.gpus | length')" 31 "31 GPUs on the bus"
# (a here-document, not a pipe: the checks must count in this shell)
while read -r id chip arch cc; do
	arch=$(echo "$arch" | tr _ ' ')
	sel=".facts.gpus[] | select(.device_id == \"0x$id\")"
	is "$(fx_jq "$sel | [.chip, .arch, .compute_capability] | join(\" \")")" \
	    "$chip $arch $cc" "10de:$id: chip $chip, $arch, compute capability $cc"
	like "$(fx_jq "$sel | .sources.compute_capability")" \
	    "^pci.ids $chip \\+ chip table" "10de:$id: the source names pci.ids and the chip table"
	is "$(fx_jq "$sel | .sources.chip")" "/usr/share/misc/pci.ids" \
	    "10de:$id: the chip's source is the pci.ids file"
done <<END
$GPUS
END
sel='.facts.gpus[] | select(.device_id == "0x3000")'
is "$(fx_jq "$sel | .chip")" "GR100" "an unknown chip is still named"
is "$(fx_jq "$sel | .compute_capability")" "null" \
    "but gets no compute capability: unknown, not a guess"
like "$(fx_jq "$sel | .unknown.compute_capability")" "neither the chip table nor the matrix" \
    "and the reason says so"
is "$(fx_jq "$sel | .arch")" "null" "nor an architecture"
# The text report shows the architecture beside the compute capability.
fx_cmd_env doctor
like "$(cat "$FX_OUT")" "Fermi, compute capability 2.1" "the text report shows the architecture and CC"
like "$(cat "$FX_OUT")" "compute capability unknown" "and says unknown for the unknown chip"

# The driver's supported-gpus.json: the exact legacy branch.
fx_new
fx_kernel 6.1.0-13-amd64
fx_pci_ids_real
fx_supported_gpus
fx_gpu 0000:01:00.0 1140 nvidia
fx_subsys 0000:01:00.0 17aa 3901
fx_gpu 0000:02:00.0 1140
fx_subsys 0000:02:00.0 1025 0000
fx_gpu 0000:03:00.0 1180
fx_gpu 0000:04:00.0 2b85
fx_gpu 0000:05:00.0 2330
fx_doctor
SG=/usr/share/doc/NVIDIA_GLX-1.0/supported-gpus/supported-gpus.json
is "$(fx_jq '.facts.gpus[0].legacy_branch')" "390" "GF117M on a Lenovo board: branch 390"
is "$(fx_jq '.facts.gpus[0].sources.legacy_branch')" "$SG" "its source is supported-gpus.json"
is "$(fx_jq '.facts.gpus[1].legacy_branch')" "390" \
    "a board the list lacks: the chip's other boards all say 390"
is "$(fx_jq '.facts.gpus[2].legacy_branch')" "470" "GK104: branch 470"
is "$(fx_jq '.facts.gpus[3].legacy_branch')" "null" "GB202: on no legacy branch"
is "$(fx_jq '.facts.gpus[3].sources.legacy_branch')" "$SG" "known absent, from the list"
is "$(fx_jq '.facts.gpus[3] | has("unknown") and (.unknown | has("legacy_branch"))')" "false" \
    "absent is known, not unknown"
is "$(fx_jq '.facts.gpus[4].legacy_branch')" "null" "a GPU the list lacks: no branch"
like "$(fx_jq '.facts.gpus[4].unknown.legacy_branch')" "does not list PCI id 10de:2330" \
    "and the reason says the list lacks it"
fx_cmd_env doctor
like "$(cat "$FX_OUT")" "last driver branch for it: 390" "the text report shows the legacy branch"

# Without pci.ids the GPU is named by the driver's list, and the matrix's
# name table gives the compute capability; sources say so.
fx_new
fx_kernel 6.1.0-13-amd64
fx_supported_gpus
fx_gpu 0000:01:00.0 2b85
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "NVIDIA GeForce RTX 5090" "named by supported-gpus.json"
is "$(fx_jq '.facts.gpus[0].sources.name')" "$SG" "the name's source is the list"
is "$(fx_jq '.facts.gpus[0].compute_capability')" "12.0" "the name table gives 12.0"
like "$(fx_jq '.facts.gpus[0].sources.compute_capability')" \
    "^matrix name table: the name \\(from $SG\\)" "the source names the name table and the list"
is "$(fx_jq '.facts.gpus[0].arch')" "Blackwell (RTX 50 / RTX PRO)" \
    "the architecture follows from the matrix's row for 12.0"
is "$(fx_jq '.facts.gpus[0].chip')" "null" "no chip without pci.ids"

# No GPU: neither file is read (nothing to note even when both are bad).
fx_new
fx_kernel 6.1.0-13-amd64
fx_dir /sys/bus/pci/devices
mkfifo "$FX/usr/share/pci.ids" 2>/dev/null || { mkdir -p "$FX/usr/share"; mkfifo "$FX/usr/share/pci.ids"; }
fx_doctor
is "$(fx_jq '[.facts.notes[] | select(.path == "/usr/share/pci.ids")] | length')" 0 \
    "without a GPU pci.ids is not opened"

done_testing
