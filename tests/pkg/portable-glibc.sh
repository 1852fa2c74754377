#!/bin/sh
# make portable's tarball (compat/portable.mk): it matches its .sha256,
# its two binaries need glibc 2.28 at most and no library but glibc's,
# are stripped and small, and, unpacked alone into a fresh directory, run
# here: --version, doctor, explain, why, and verify finding its helper
# next to the binary.
. "$TESTS_SRCDIR/lib/tap.sh"

for t in objdump readelf; do
	command -v $t >/dev/null 2>&1 || skip_all "no $t (Debian package: binutils)"
done
command -v jq >/dev/null 2>&1 || skip_all "no jq (Debian package: jq)"
command -v sha256sum >/dev/null 2>&1 || skip_all "no sha256sum (Debian package: coreutils)"

: "${FX_TMP:=${TMPDIR:-/tmp}}"
: "${DIST_DIR:=$PWD/dist}"
version=$("$CUDAWIZ" --version | sed -n '1{s/ (.*//;s/^cudawiz //;p;}')
arch=$(uname -m)
name=cudawiz-$version-$arch-linux
tarball=$DIST_DIR/$name.tar.gz
# The most a binary may weigh, stripped, and the newest glibc it may need.
max_bytes=6291456
max_glibc=2.28

if ! [ -f "$tarball" ] || ! [ -f "$tarball.sha256" ]; then
	tap_result 1 "make portable made $name.tar.gz and its .sha256"
	tail -n 30 "$DIST_DIR/make-portable.log" 2>/dev/null | sed 's/^/#   /'
	done_testing
	exit 1
fi
ok "the tarball matches its .sha256" \
    sh -c 'cd "$1" && sha256sum -c --status "$2"' - "$DIST_DIR" "$name.tar.gz.sha256"

work=$(mktemp -d "$FX_TMP/portable-glibc.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
dir=$work/$name
is "$(cd "$dir" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" \
    "./README.md ./completions/_cudawiz ./completions/cudawiz ./completions/cudawiz.fish ./cudawiz ./cudawiz-verify ./cudawiz.1 ./locale/de/LC_MESSAGES/cudawiz.mo ./locale/zh_CN/LC_MESSAGES/cudawiz.mo " \
    "the tarball holds the layout of README's Install section"

# newest_glibc FILE: the highest GLIBC_x.y any dynamic symbol needs.
newest_glibc() {
	objdump -T "$1" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' |
	    sort -t. -k1,1n -k2,2n -k3,3n -u | tail -n 1
}
# version_le A B: A <= B for dotted versions.
version_le() {
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1)" = "$1" ]
}
for b in cudawiz cudawiz-verify; do
	f=$dir/$b
	v=$(newest_glibc "$f")
	ok "$b needs glibc $max_glibc at most (newest: GLIBC_$v)" version_le "$v" "$max_glibc"
	late=$(objdump -T "$f" | awk -v max="$max_glibc" '
	    /GLIBC_/ { v = $0; sub(/.*GLIBC_/, "", v); sub(/[ )].*/, "", v)
	      split(v, a, "."); split(max, m, ".")
	      if (a[1] > m[1] || (a[1] == m[1] && a[2] > m[2])) print $NF "@GLIBC_" v }')
	is "$late" "" "$b: no symbol newer than GLIBC_$max_glibc"
	needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
	    grep -Ev '^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|ld-linux[-a-z0-9_]*\.so\.[0-9]+)$')
	is "$needed" "" "$b needs no library but glibc's (no ncurses, jansson, elf, z, curl)"
	is "$(readelf -S "$f" | grep -c '\.symtab')" 0 "$b is stripped"
	size=$(wc -c <"$f")
	ok "$b weighs $size bytes, at most $max_bytes" [ "$size" -le "$max_bytes" ]
done

# Run from the unpacked directory, the helper and the environment the
# harness sets for the build tree's binaries left out.
run() {
	env -u CUDAWIZ_HELPER -u CUDAWIZ_ROOT "$dir/cudawiz" "$@"
}
out=$(run --version); rc=$?
is "$rc" 0 "the portable cudawiz --version runs"
like "$(printf '%s\n' "$out" | head -n 1)" "^cudawiz $version( |\$)" \
    "--version names $version"
run doctor --json >"$work/doctor.json" 2>"$work/doctor.err"; rc=$?
ok "doctor --json exits 0 or 1 (got $rc)" [ "$rc" -le 1 ]
is "$(jq -r .schema "$work/doctor.json")" cudawiz/doctor/1 \
    "doctor --json is valid JSON with its schema"
out=$(run explain --json 'CUDA driver version is insufficient for CUDA runtime version' 2>&1); rc=$?
ok "explain runs (exit $rc)" [ "$rc" -le 1 ]
is "$(printf '%s\n' "$out" | jq -r '.findings[].code' 2>/dev/null)" DRIVER_TOO_OLD \
    "explain recognises the message (DRIVER_TOO_OLD)"
out=$(run why libcudart.so.12 2>&1); rc=$?
ok "why libcudart.so.12 runs (exit $rc)" [ "$rc" -le 1 ]
like "$out" 'libcudart\.so\.12' "why names the library"
run verify --json >"$work/verify.json" 2>"$work/verify.err"
is "$(jq -r .verify.helper "$work/verify.json")" "$dir/cudawiz-verify" \
    "verify finds cudawiz-verify next to the binary"
unlike "$(cat "$work/verify.err" "$work/verify.json")" 'verification helper' \
    "verify does not say the helper is missing"

# The catalogs travel in locale/ beside the binary, wherever it was
# unpacked (the build's own locale directory is not there).
msg="write an activation script that fixes the environment"
for lang in de zh_CN; do
	want=$(LANGUAGE=$lang LC_ALL=C.UTF-8 \
	    TEXTDOMAINDIR="$dir/locale" gettext -d cudawiz "$msg" 2>/dev/null)
	got=$(env -u CUDAWIZ_HELPER -u CUDAWIZ_ROOT -u CUDAWIZ_LOCALEDIR \
	    LANGUAGE=$lang LC_ALL=C.UTF-8 "$dir/cudawiz" --help 2>&1)
	ok "$lang: the tarball's catalog translates (\"$want\")" \
	    test -n "$want" -a "$want" != "$msg"
	like "$got" "$(printf '%s' "$want" | sed 's/[][\\.*^$()+?{}|]/\\&/g')" \
	    "$lang: the unpacked cudawiz --help speaks it"
done

done_testing
