#!/bin/sh
# doctor -o FILE replaces the file in one step, as node_exporter's
# textfile collector needs: a reader copies the textfile over and over
# (at most READS times) while doctor rewrites it RUNS times (20), alternating
# between two machines' reports; every copy must be one whole report,
# byte for byte (the timestamp line aside), never a part; a sample of
# them goes through promtool. No temporary file is left behind, and a
# run that cannot write (an unwritable directory, -o naming a directory)
# exits 2 naming the file and leaves the old file as it was. The other
# formats go through the same -o.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

command -v promtool >/dev/null 2>&1 ||
    skip_all "promtool is not installed (Debian package: prometheus)"

# Under valgrind (make check-valgrind) a run is 20-50 times slower and
# only the first few are watched; the race is the same with fewer.
RUNS=${PROM_ATOMIC_RUNS:-20}
[ "${CUDAWIZ_UNDER_VALGRIND:-}" = 1 ] && RUNS=${PROM_ATOMIC_RUNS:-6}
READS=${PROM_ATOMIC_READS:-5000}
TS=cudawiz_last_run_timestamp_seconds

fx_new
fx_toolkit 13.0.0
fx_toolkit 12.4.1
fx_link cuda-13.0 /usr/local/cuda
# A name that retitles a terminal: the text report written with -o must
# escape it as it does on a terminal.
ESC=$(printf '\033')
fx_file "/usr/local/cuda-${ESC}]0;owned$(printf '\007')/version.json" \
    '{ "cuda": { "version": "11.8.0" } }'
T=$FX_TMP/cudawiz-prom-atomic.$$
fx_dirs="${fx_dirs:-} $T"
mkdir -p "$T/out" "$T/reads"
OUT=$T/out/cudawiz.prom

# Two machines: the same tree, a clean environment (A) and a broken one
# (B: more findings, a longer file).
set_a() { ENV1=PATH=/usr/bin; ENV2=HOME=/; }
set_b() { ENV1="LD_LIBRARY_PATH=/gone::/usr/local/cuda/lib64/stubs"; ENV2=CUDA_HOME=/missing; }

# The reference of each: stdout without the timestamp line.
set_a
fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2"
grep -v "^$TS " "$FX_OUT" > "$T/a.ref"
set_b
fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2"
grep -v "^$TS " "$FX_OUT" > "$T/b.ref"
b_rc=$FX_RC
ok "the two reports differ" sh -c '! cmp -s "$1" "$2"' sh "$T/a.ref" "$T/b.ref"

# The old file, then the reader and the rewrites.
fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2" -- -o "$OUT"
is "$FX_RC" "$b_rc" "-o: doctor's exit status"
is "$(cat "$FX_OUT")" "" "-o: nothing on stdout"
(
	i=0
	while [ "$i" -lt "$READS" ] && [ ! -e "$T/writer.done" ]; do
		cat "$OUT" > "$T/reads/$i"
		i=$((i + 1))
	done
) &
reader=$!
bad_rc=0
j=0
while [ "$j" -lt "$RUNS" ]; do
	if [ $((j % 2)) = 0 ]; then set_a; else set_b; fi
	fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2" -- -o "$OUT"
	case $FX_RC in
	0|1) ;;
	*) bad_rc=$((bad_rc + 1)); diag "run $j exited $FX_RC: $(cat "$FX.stderr")" ;;
	esac
	j=$((j + 1))
done
: > "$T/writer.done"
wait "$reader"
is "$bad_rc" 0 "$RUNS rewrites, each with doctor's exit status"

nreads=$(ls "$T/reads" | wc -l)
diag "$nreads reads during $RUNS rewrites"
ok "the reader read while doctor rewrote ($nreads reads)" test "$nreads" -ge "$RUNS"
# Every read is a whole report: one awk compares each (its timestamp line
# left out) with both references, and says what it saw.
verdicts=$(awk -v ts="$TS" '
	function judge() {
		if (name == "") return
		if (body == a) seen["a"]++
		else if (body == b) seen["b"]++
		else { seen["torn"]++; if (!shown++) print "torn: " name }
	}
	FILENAME == ARGV[1] { a = a $0 "\n"; next }
	FILENAME == ARGV[2] { b = b $0 "\n"; next }
	FNR == 1 { judge(); name = FILENAME; body = "" }
	index($0, ts " ") != 1 { body = body $0 "\n" }
	END { judge(); printf "a=%d b=%d torn=%d\n", seen["a"], seen["b"], seen["torn"] }
	' "$T/a.ref" "$T/b.ref" "$T/reads"/*)
diag "reads: $verdicts"
like "$verdicts" 'torn=0$' "every read is one whole report, never a part"
# An empty read gives awk no line to judge: the counts must cover them all.
whole=$(printf '%s\n' "$verdicts" | sed -n 's/^a=\([0-9]*\) b=\([0-9]*\) .*/\1 + \2/p')
is "$((${whole:-0}))" "$nreads" "every read was judged whole (none empty)"
like "$verdicts" 'a=[1-9][0-9]* b=[1-9]' "the reads saw both reports (they spanned the rewrites)"
# awk cannot see a missing last newline: every read's size is a whole
# file's (the timestamp line has one length).
ts_len=$(grep "^$TS " "$OUT" | wc -c)
sizes=$(( $(wc -c < "$T/a.ref") + ts_len ))\ $(( $(wc -c < "$T/b.ref") + ts_len ))
odd=$(wc -c "$T/reads"/* | awk -v s="$sizes" '$2 != "total" {
	split(s, w, " "); if ($1 != w[1] && $1 != w[2]) n++ } END { print n + 0 }')
is "$odd" 0 "every read has a whole report's size (it ends with its newline)"
sampled=0
failed=0
k=0
while [ "$k" -lt "$nreads" ]; do
	sampled=$((sampled + 1))
	promtool check metrics < "$T/reads/$k" > /dev/null 2>&1 || failed=$((failed + 1))
	k=$((k + nreads / 5 + 1))
done
is "$failed" 0 "promtool accepts the $sampled sampled reads"
is "$(ls -A "$T/out")" cudawiz.prom "no temporary file is left behind"

# -- Failures leave the old file.
cp "$OUT" "$T/old"
mkdir "$T/out/dir.prom"
fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2" -- -o "$T/out/dir.prom"
is "$FX_RC" 2 "-o naming a directory: exit 2"
like "$(cat "$FX.stderr")" "cannot write $T/out/dir\\.prom: it is a directory" \
    "-o naming a directory: the message names it and says why"
is "$(ls -A "$T/out/dir.prom")" "" "-o naming a directory: the directory is left empty"
rmdir "$T/out/dir.prom"

fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2" -- -o "$T/none/x.prom"
is "$FX_RC" 2 "-o in a directory that does not exist: exit 2"
like "$(cat "$FX.stderr")" "cannot write $T/none/x\\.prom" "and the message names the file"

chmod 755 "$T" "$T/out"
if [ "$(id -u)" = 0 ]; then
	fx_drop_privileges || skip_unwritable=$FX_DROP_WHY
else
	chmod 555 "$T/out"
fi
if [ -n "${skip_unwritable:-}" ]; then
	skip "an unwritable directory: exit 2, the old file kept" "$skip_unwritable"
else
	set_b
	fx_cmd_env "doctor --format prometheus" "$ENV1" "$ENV2" -- -o "$OUT"
	fx_keep_privileges
	chmod 755 "$T/out"
	is "$FX_RC" 2 "an unwritable directory: exit 2"
	like "$(cat "$FX.stderr")" "cannot write $OUT: cannot create a file in $T/out: Permission denied" \
	    "an unwritable directory: the message names the file and why"
	ok "an unwritable directory: the old file is left as it was" cmp -s "$OUT" "$T/old"
fi
is "$(ls -A "$T/out")" cudawiz.prom "no temporary file after the failures"

# -- The other formats through -o.
set_b
fx_cmd_env "doctor --json" "$ENV1" "$ENV2"
cp "$FX_OUT" "$T/stdout.json"
fx_cmd_env "doctor --json" "$ENV1" "$ENV2" -- -o "$T/out/r.json"
is "$FX_RC" "$b_rc" "--json -o: doctor's exit status"
is "$(fx_json_comparable "$T/out/r.json")" "$(fx_json_comparable "$T/stdout.json")" \
    "--json -o writes the JSON report"
fx_cmd_env "doctor" "$ENV1" "$ENV2"
cp "$FX_OUT" "$T/stdout.txt"
fx_cmd_env "doctor" "$ENV1" "$ENV2" -- -o "$T/out/r.txt"
is "$(grep '^Summary:' "$T/out/r.txt")" "$(grep '^Summary:' "$T/stdout.txt")" \
    "text -o writes the text report"
like "$(cat "$T/out/r.txt")" 'cuda-\\x1b\]0;owned' "text -o names the odd toolkit..."
is "$(grep -c "$ESC" "$T/out/r.txt")" 0 "... with its escape made visible, as on a terminal"
fx_cmd_env "doctor --format html" "$ENV1" "$ENV2" -- -o "$T/out/r.html"
like "$(tail -n 1 "$T/out/r.html")" '</html>' "--format html -o writes the whole page"
is "$(ls -A "$T/out" | sort | tr '\n' ' ')" "cudawiz.prom r.html r.json r.txt " \
    "each format leaves its file and nothing else"

done_testing
