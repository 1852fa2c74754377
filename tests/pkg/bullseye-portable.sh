#!/bin/sh
# The issue's first "Done when": the portable build (make portable) runs
# in a Debian 11 root (bullseye, glibc 2.31) made with debootstrap from
# the mirror apt uses here, holding only the base system (minbase: no
# libncursesw6, no libjansson, no libelf, no libcurl). The root is built
# once and cached outside the tree (tests/lib/debroot.sh); each run binds
# a fresh copy of dist/cudawiz-VERSION-x86_64-linux/ onto its /opt and
# runs, inside it with a clean environment: doctor (text and JSON),
# explain, why, env -o, verify (the helper found beside the binary),
# matrix update without libcurl (the install hint, exit 2), and the
# wizard in tmux: once as the root is, once with its terminal database
# hidden (the built-in fallback must carry it).
#
# BULLSEYE_PORTABLE_DIR names another directory holding cudawiz and
# cudawiz-verify to try instead (a dynamic build fails here: that is the
# point of the portable one).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/debroot.sh"

debroot_can_enter || skip_all "$DEBROOT_WHY"

version=$("$CUDAWIZ" --version | head -n 1 | sed 's/ (.*//; s/^cudawiz //')
pdir=${BULLSEYE_PORTABLE_DIR:-$DIST_DIR/cudawiz-$version-x86_64-linux}
if ! [ -x "$pdir/cudawiz" ] || ! [ -x "$pdir/cudawiz-verify" ]; then
	tap_result 1 "the portable build is there ($pdir)"
	diag "make portable did not make it; the end of dist/make-portable.log:"
	tail -n 20 "$DIST_DIR/make-portable.log" 2>/dev/null | sed 's/^/#   /' ||
	    diag "(there is none: make check-packages runs make portable first)"
	done_testing
	exit 1
fi

debroot_get bullseye
case $? in
0) ;;
1) skip_all "$DEBROOT_WHY" ;;
*)
	tap_result 1 "the bullseye root is built"
	diag "$DEBROOT_WHY"
	tail -n 20 "$DEBROOT_LOG" 2>/dev/null | sed 's/^/#   /'
	done_testing
	exit 1
	;;
esac
diag "root: $DEBROOT (from $(debroot_stamp mirror), built $(debroot_stamp built)" \
    "in $(debroot_stamp debootstrap_seconds) s, $(debroot_stamp size_kib) KiB)"

# What this run adds to the root: the binaries on /opt, a /tmp and a
# /root of its own (the root itself stays read-only). Paths without
# spaces: debroot_run splits DEBROOT_BIND on them.
work=$(mktemp -d "$FX_TMP/bullseye.XXXXXX") || exit 99
# A tmux server per wizard run: one told to exit may still hold its
# socket for a while, and a session started there meanwhile dies with it.
runs=0
sock=cwbullseye-$$-$runs
T() { tmux -f /dev/null -L "$sock" "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$work"' EXIT
mkdir "$work/opt" "$work/tmp" "$work/home"
chmod 1777 "$work/tmp"
cp -R "$pdir" "$work/opt/cudawiz" || exit 99
DEBROOT_BIND="$work/opt:/opt $work/tmp:/tmp $work/home:/root"
DEBROOT_HIDE=
export DEBROOT DEBROOT_BIND DEBROOT_HIDE

# CMD... inside the root, with nothing of this environment.
in_root() {
	debroot_run env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root \
	    LANG=C.UTF-8 TERM=dumb "$@"
}
cw=/opt/cudawiz/cudawiz

# ------------------------------------------------------ the old system

out=$(in_root ldd --version 2>&1 | head -n 1)
like "$out" ' 2\.31$' "the root's glibc is 2.31 (ldd --version: $out)"
out=$(in_root sh -c 'ls /usr/lib/*/libcurl* /lib/*/libcurl* /usr/lib/*/libncursesw* /lib/*/libncursesw* /usr/lib/*/libjansson* 2>/dev/null')
is "$out" "" "... with no libcurl, libncursesw or libjansson in it"

# ------------------------------------------------------ the commands

out=$(in_root "$cw" --version 2>&1); rc=$?
is "$rc" 0 "cudawiz --version runs"
like "$out" "^cudawiz $version( |\$)" "... and names the version of this build ($version)"
unlike "$out" 'error while loading|not found|GLIBC_' "... no loader error"

out=$(in_root "$cw" doctor 2>&1); doctor_rc=$?
ok "doctor exits 0 or 1 (no error found, or an error finding; here $doctor_rc)" \
    test "$doctor_rc" = 0 -o "$doctor_rc" = 1
unlike "$out" 'error while loading|GLIBC_[0-9.]+. not found' "... no loader error"
like "$out" "^cudawiz $version doctor" "... and its report ($(printf '%s\n' "$out" | wc -l) lines)"

in_root "$cw" doctor --json > "$work/doctor.json" 2> "$work/doctor.err"; rc=$?
is "$rc" "$doctor_rc" "doctor --json exits as doctor does"
if command -v jq >/dev/null 2>&1; then
	# jq 1.6 says yes to an empty file: the schema must be read.
	is "$(jq -r 'if .findings | type == "array" then .schema else "no findings" end' \
	    < "$work/doctor.json" 2>&1)" cudawiz/doctor/1 \
	    "... valid JSON, with its findings (jq on the host)"
else
	skip "doctor --json is valid JSON" "jq is not installed (Debian package: jq)"
fi

msg='libcudart.so.11.0: cannot open shared object file'
out=$(in_root "$cw" explain "$msg" 2>&1); rc=$?
ok "explain '$msg' exits 0 or 1 (here $rc)" test "$rc" = 0 -o "$rc" = 1
like "$out" 'libcudart\.so\.11\.0 is the cudart library of CUDA 11' \
    "... and explains it (the library's release, from the matrix)"

out=$(in_root "$cw" why libcudart.so.12 2>&1); rc=$?
ok "why libcudart.so.12 exits 0 or 1 (here $rc)" test "$rc" = 0 -o "$rc" = 1
like "$out" 'libcudart\.so\.12' "... and talks of it"

out=$(in_root "$cw" env -o /tmp/cudawiz-env.sh 2>&1); rc=$?
ok "env -o /tmp/cudawiz-env.sh exits 0 or 1 (here $rc)" test "$rc" = 0 -o "$rc" = 1
is "$(head -n 1 "$work/tmp/cudawiz-env.sh" 2>/dev/null)" "# cudawiz-format: sh" \
    "... the script is in the root's /tmp, a sh script"
ok "... which the root's sh reads" in_root sh -n /tmp/cudawiz-env.sh

in_root "$cw" verify --json > "$work/verify.json" 2>&1; rc=$?
ok "verify --json exits 0 or 1 (here $rc)" test "$rc" = 0 -o "$rc" = 1
if command -v jq >/dev/null 2>&1; then
	is "$(jq -r '.verify | "\(.state) \(.helper)"' < "$work/verify.json" 2>&1)" \
	    "ran /opt/cudawiz/cudawiz-verify" \
	    "... it ran cudawiz-verify from beside the binary"
	like "$(jq -r '.verify.runs[] | "\(.kind) \(.outcome)"' < "$work/verify.json" 2>&1)" \
	    '^driver ' "... and checked the driver (none here: $(jq -r '.verify.runs[0].outcome' < "$work/verify.json" 2>&1))"
else
	skip "verify --json names the helper" "jq is not installed (Debian package: jq)"
fi

out=$(in_root "$cw" matrix update 2>&1); rc=$?
is "$rc" 2 "matrix update without libcurl exits 2"
like "$out" 'libcurl4' "... and names the package to install"

# ------------------------------------------------------ the wizard

screen() { T capture-pane -p -t cw 2>/dev/null; }
wait_for() {	# PATTERN: the pane shows it (300 looks, 0.1 s apart)
	i=0
	while [ "$i" -lt 300 ]; do
		screen | grep -Eq -- "$1" && return 0
		[ -s "$work/rc" ] && break	# it ended: no point waiting
		sleep 0.1
		i=$((i + 1))
	done
	screen | sed -e '/^ *$/d' -e 's/^/#   /'
	return 1
}
wait_rc() {	# the pane's command has written its status (300 looks)
	i=0
	while [ "$i" -lt 300 ] && ! [ -s "$work/rc" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$work/rc" ]
}

# The pane enters the root as the tests above do, with TERM=screen (what
# tmux's terminal is), and keeps the wizard's status in $work/rc.
cat > "$work/pane.sh" <<'EOF'
. "$TESTS_SRCDIR/lib/debroot.sh"
debroot_can_enter
debroot_run env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root \
    LANG=C.UTF-8 TERM=screen /opt/cudawiz/cudawiz
echo $? > "$WORK/rc"
sleep 60
EOF

wizard() {	# LABEL: start, see page 1, q, doctor's status
	rm -f "$work/rc"
	T kill-server >/dev/null 2>&1
	runs=$((runs + 1))
	sock=cwbullseye-$$-$runs
	env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME="$work/home" \
	    TESTS_SRCDIR="$TESTS_SRCDIR" WORK="$work" DEBROOT="$DEBROOT" \
	    DEBROOT_BIND="$DEBROOT_BIND" DEBROOT_HIDE="$DEBROOT_HIDE" \
	    tmux -f /dev/null -L "$sock" new-session -d -s cw -x 80 -y 24 \
	    "sh $work/pane.sh"
	ok "$1: the wizard draws its first screen" wait_for "page 1 of"
	T send-keys -t cw q
	ok "$1: q quits" wait_rc
	is "$(cat "$work/rc" 2>/dev/null)" "$doctor_rc" "$1: ... with doctor's status"
	ok "$1: ... 0 or 1" test "$doctor_rc" = 0 -o "$doctor_rc" = 1
}

if command -v tmux >/dev/null 2>&1; then
	wizard "in tmux"
	# The same root without its terminal database: nothing under the
	# three directories ncurses looks in.
	DEBROOT_HIDE="/usr/share/terminfo /lib/terminfo /etc/terminfo"
	export DEBROOT_HIDE
	out=$(in_root sh -c 'ls -A /usr/share/terminfo /lib/terminfo /etc/terminfo; tput -T screen cols' 2>&1); rc=$?
	ok "terminfo hidden: the root's own tput cannot find screen (exit $rc)" \
	    test "$rc" != 0
	wizard "no terminfo"
	DEBROOT_HIDE=
else
	skip "the wizard in tmux" "tmux is not installed (Debian package: tmux)"
fi

done_testing
