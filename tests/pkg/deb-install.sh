#!/bin/sh
# The Debian package (make deb, debian/): its contents, lintian with no
# error, then a real install with dpkg, the installed cudawiz run (its
# version, doctor --json, and verify, which must find its helper in
# /usr/libexec/cudawiz), and a purge that leaves none of its files.
# It installs into this machine's /usr, so it runs as root only, and
# never over a cudawiz that is already there.
. "$TESTS_SRCDIR/lib/tap.sh"

command -v dpkg >/dev/null 2>&1 || skip_all "dpkg is missing (not a Debian system)"
command -v dpkg-deb >/dev/null 2>&1 || skip_all "dpkg-deb is missing (Debian package: dpkg)"
command -v jq >/dev/null 2>&1 || skip_all "jq is missing (Debian package: jq)"
command -v dpkg-buildpackage >/dev/null 2>&1 ||
	skip_all "dpkg-buildpackage is missing (Debian package: dpkg-dev)"
command -v dh >/dev/null 2>&1 || skip_all "dh is missing (Debian package: debhelper)"
command -v lintian >/dev/null 2>&1 || skip_all "lintian is missing (Debian package: lintian)"
[ "$(id -u)" = 0 ] || skip_all "not root: the test installs the package with dpkg -i"

arch=$(dpkg --print-architecture)
version=$("$CUDAWIZ" --version | sed -n '1{s/^cudawiz //;s/ (.*//;p;}')
name=cudawiz_${version}-1_$arch
deb=$DIST_DIR/$name.deb
log=$DIST_DIR/make-deb.log

# Never replace or purge a cudawiz this test did not install.
if dpkg-query -W -f='${Status}' cudawiz 2>/dev/null | grep -q 'installed'; then
	skip_all "a cudawiz package is already installed: this test would replace and purge it"
fi
for f in /usr/bin/cudawiz /usr/libexec/cudawiz; do
	[ -e "$f" ] && skip_all "$f exists outside any package: dpkg -i would overwrite it"
done

if [ ! -f "$deb" ]; then
	tap_result 1 "make deb made $name.deb"
	diag "no $deb; the end of $log:"
	tail -n 40 "$log" 2>/dev/null | sed 's/^/#   /'
	done_testing
	exit 1
fi
tap_result 0 "make deb made $name.deb"

: "${FX_TMP:=${TMPDIR:-/tmp}}"
work=$(mktemp -d "$FX_TMP/deb-install.XXXXXX") || exit 99
installed=0
cleanup() {
	[ "$installed" = 1 ] && dpkg --purge cudawiz >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# ---------------------------------------------------------------- contents
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$work/contents"
for f in /usr/bin/cudawiz /usr/libexec/cudawiz/cudawiz-verify \
    /usr/share/man/man1/cudawiz.1.gz \
    /usr/share/bash-completion/completions/cudawiz \
    /usr/share/zsh/vendor-completions/_cudawiz \
    /usr/share/fish/vendor_completions.d/cudawiz.fish \
    /usr/share/locale/de/LC_MESSAGES/cudawiz.mo \
    /usr/share/locale/zh_CN/LC_MESSAGES/cudawiz.mo \
    /usr/share/doc/cudawiz/copyright; do
	ok "the package holds $f" grep -qx "$f" "$work/contents"
done
unlike "$(cat "$work/contents")" '^/usr/(local|lib/cudawiz)/' \
    "nothing under /usr/local or /usr/lib/cudawiz"
# The man page names the helper where the package puts it.
# (Its break points \: and escaped hyphens \- removed first.)
dpkg-deb --fsys-tarfile "$deb" | tar xOf - ./usr/share/man/man1/cudawiz.1.gz |
    gzip -dc | sed 's/\\://g; s/\\-/-/g' > "$work/cudawiz.1"
like "$(grep libexec "$work/cudawiz.1")" '^\.I /usr/libexec/cudawiz/cudawiz-verify$' \
    "the man page names /usr/libexec/cudawiz/cudawiz-verify"
deps=$(dpkg-deb -f "$deb" Depends)
like "$deps" 'libc6' "Depends comes from shlibs (libc6 in it)"
unlike "$deps" 'libcurl' "libcurl is no dependency (it is dlopen()ed)"
like "$(dpkg-deb -f "$deb" Recommends)" 'libcurl4' "libcurl4 is recommended"

# ---------------------------------------------------------------- lintian
lint=$DIST_DIR/$name.lintian
if [ -f "$lint" ]; then
	errors=$(grep -c '^E: ' "$lint")
	is "$errors" 0 "lintian: no error ($lint)"
	[ "$errors" = 0 ] || grep '^E: ' "$lint" | sed 's/^/#   /'
	grep '^W: ' "$lint" | sed 's/^/# lintian warning: /'
else
	tap_result 1 "lintian's output is in dist/ ($lint)"
	tail -n 40 "$log" 2>/dev/null | sed 's/^/#   /'
fi

# ---------------------------------------------------------------- install
if dpkg -i "$deb" > "$work/install" 2>&1; then
	installed=1
	tap_result 0 "dpkg -i $name.deb"
else
	installed=1
	tap_result 1 "dpkg -i $name.deb"
	sed 's/^/#   /' "$work/install"
fi
dpkg -L cudawiz > "$work/files" 2>/dev/null
like "$(dpkg-query -W -f='${Status}' cudawiz 2>/dev/null)" 'install ok installed' \
    "dpkg -s: cudawiz is installed"

# The installed binary alone: no build tree's helper, no test's settings.
run_installed() {
	env -u CUDAWIZ_HELPER -u LD_LIBRARY_PATH -u LD_PRELOAD \
	    LC_ALL=C HOME="$work/home" /usr/bin/cudawiz "$@"
}
mkdir -p "$work/home"
out=$(run_installed --version 2>&1)
like "$out" "^cudawiz $version( |\$)" "/usr/bin/cudawiz --version names $version"

valid_json() { jq -e . "$1" > /dev/null; }
run_installed doctor --json > "$work/doctor.json" 2> "$work/doctor.err"
ok "cudawiz doctor --json prints valid JSON" valid_json "$work/doctor.json"
run_installed verify --json > "$work/verify.json" 2> "$work/verify.err"
ok "cudawiz verify --json prints valid JSON" valid_json "$work/verify.json"
# The helper is found in /usr/libexec/cudawiz and runs: whatever the
# verdict on this machine (on a host without a GPU, that libcuda.so.1
# does not load), it is not "helper not found" (state "skipped").
is "$(jq -r '.verify.state' "$work/verify.json")" ran "cudawiz verify ran (not skipped: $(jq -r '.verify.why' "$work/verify.json"))"
is "$(jq -r '.verify.helper' "$work/verify.json")" /usr/libexec/cudawiz/cudawiz-verify \
    "verify's helper is /usr/libexec/cudawiz/cudawiz-verify"
is "$(jq -r '[.verify.runs[].records[]? | select(.check == "begin")] | length > 0' "$work/verify.json")" \
    true "the helper ran and spoke (a begin record)"
diag "verify's verdict here: $(jq -c '[.verify.runs[].records[]? | select(.check == "load") | {lib, ok, error}]' "$work/verify.json")"

# ---------------------------------------------------------------- purge
if dpkg --purge cudawiz > "$work/purge" 2>&1; then
	installed=0
	tap_result 0 "dpkg --purge cudawiz"
else
	tap_result 1 "dpkg --purge cudawiz"
	sed 's/^/#   /' "$work/purge"
fi
n=$(wc -l < "$work/files")
ok "dpkg -L listed the package's files ($n)" test "$n" -gt 10
left=
while IFS= read -r f; do
	case $f in /. | /usr | /usr/bin | /usr/share | /usr/share/* ) [ -d "$f" ] && continue ;; esac
	{ [ -e "$f" ] || [ -L "$f" ]; } && [ ! -d "$f" ] && left="$left $f"
done < "$work/files"
while IFS= read -r f; do
	[ -d "$f" ] || continue
	case $f in /usr/libexec/cudawiz | /usr/share/doc/cudawiz) left="$left $f" ;; esac
done < "$work/files"
is "${left# }" "" "after the purge no file of the package is left"
unlike "$(dpkg-query -W -f='${Status}' cudawiz 2>&1)" 'installed' \
    "dpkg -s: cudawiz is not installed"

done_testing
