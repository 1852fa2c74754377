# A Debian root made by debootstrap, for the package tests: the portable
# binaries must run on an older distribution than the one they were built
# on, with only its base system. Source it, then:
#
#   debroot_get SUITE      DEBROOT is the root (0), or DEBROOT_WHY says
#                          why there is none: 1 the test should skip (no
#                          debootstrap, not root, no mirror), 2 the build
#                          failed (DEBROOT_LOG is its log)
#   debroot_run CMD...     CMD run inside DEBROOT (chroot), in a mount
#                          namespace of its own: see below
#
# The root is built once and kept in the cache OUTSIDE the tree
# ($CUDAWIZ_TEST_CACHE/debian-SUITE-ARCH-minbase/root): debootstrap is
# the packages gate's biggest cost, so every later run and every test
# reuses it. It is built into a temporary directory and renamed when
# complete (an interrupted build is never used), under a lock (two tests
# or two gates never build it at once), and a stamp beside it says when
# and from which mirror. The cached directory is used as it is, never
# copied or unpacked: debroot_run mounts it read-only in a private mount
# namespace, so a test cannot change what the next one sees, and what a
# test adds (the binaries, a writable /tmp) is bound in over it.
#
# The mirror is the one apt uses on this machine (its deb822 sources or
# sources.list; DEBROOT_MIRROR overrides), as the issue asks: no other
# network is needed, and where it cannot be reached the test skips.

debroot_cache=${CUDAWIZ_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudawiz-tests}

# The first Debian archive URI in apt's own sources (not -security, not
# a deb-src line): what debootstrap should fetch from.
debroot_mirror() {
	if [ -n "${DEBROOT_MIRROR:-}" ]; then
		printf '%s\n' "$DEBROOT_MIRROR"
		return 0
	fi
	{
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			# deb822: a stanza's Types and URIs fields.
			awk 'BEGIN { RS = ""; FS = "\n" }
			{
				deb = 0; uri = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^Types:/ && (" " $i " ") ~ /[ \t]deb[ \t]/) deb = 1
					if ($i ~ /^URIs:/) { uri = $i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
				}
				if (deb && uri != "") print uri
			}' "$f"
		done
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			# deb [options] URI SUITE COMPONENTS...
			sed -n 's/^[ \t]*deb[ \t]\{1,\}\(\[[^]]*\][ \t]\{1,\}\)\{0,1\}\([^ \t]\{1,\}\).*/\2/p' "$f"
		done
	} | grep -v -e '-security' -e '^cdrom:' -e '^file:' | head -n 1
}

# Is DIR's Release file there? (one try; debootstrap needs wget anyway)
debroot_reachable() {	# MIRROR SUITE
	wget -q -T 15 -t 1 -O /dev/null "$1/dists/$2/Release" 2>/dev/null
}

debroot_get() {	# SUITE
	DEBROOT=
	DEBROOT_WHY=
	DEBROOT_LOG=
	arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
	name=debian-$1-$arch-minbase
	dir=$debroot_cache/$name
	if [ -f "$dir/stamp" ] && [ -x "$dir/root/bin/sh" ]; then
		DEBROOT=$dir/root
		return 0
	fi
	if ! command -v debootstrap >/dev/null 2>&1 &&
	    ! [ -x /usr/sbin/debootstrap ]; then
		DEBROOT_WHY="debootstrap is not installed (Debian package: debootstrap)"
		return 1
	fi
	if [ "$(id -u)" != 0 ]; then
		DEBROOT_WHY="building the $1 root needs root (debootstrap), and $dir is not built yet"
		return 1
	fi
	if ! command -v wget >/dev/null 2>&1; then
		DEBROOT_WHY="wget is not installed (Debian package: wget; debootstrap needs it)"
		return 1
	fi
	mirror=$(debroot_mirror)
	if [ -z "$mirror" ]; then
		DEBROOT_WHY="no Debian mirror in apt's sources (/etc/apt/sources.list*) to build the $1 root from"
		return 1
	fi
	if ! debroot_reachable "$mirror" "$1"; then
		DEBROOT_WHY="cannot reach $mirror/dists/$1/Release (the mirror of apt's sources, or DEBROOT_MIRROR): cannot build the $1 root"
		return 1
	fi
	mkdir -p "$debroot_cache" || {
		DEBROOT_WHY="cannot make the cache $debroot_cache"
		return 2
	}
	DEBROOT_LOG=$debroot_cache/$name.log
	# One build at a time: a second test waits for the first and then
	# finds the root done.
	(
		flock 9 || exit 2
		[ -f "$dir/stamp" ] && exit 0
		tmp=$(mktemp -d "$debroot_cache/.$name.XXXXXX") || exit 2
		chmod 755 "$tmp"
		t0=$(date +%s)
		echo "debootstrap --variant=minbase --arch=$arch $1 $tmp/root $mirror"
		if /usr/sbin/debootstrap --variant=minbase --arch="$arch" \
		    "$1" "$tmp/root" "$mirror"; then
			t1=$(date +%s)
			# Nothing the tests do needs the downloaded .debs.
			rm -f "$tmp"/root/var/cache/apt/archives/*.deb
			mkdir -p "$tmp/root/opt"
			size=$(du -sk "$tmp/root" | cut -f 1)
			{
				echo "suite=$1"
				echo "arch=$arch"
				echo "variant=minbase"
				echo "mirror=$mirror"
				echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
				echo "debootstrap_seconds=$((t1 - t0))"
				echo "size_kib=$size"
			} > "$tmp/stamp"
			mv "$tmp" "$dir" && exit 0
		fi
		rm -rf "$tmp"
		exit 2
	) 9> "$debroot_cache/$name.lock" >> "$DEBROOT_LOG" 2>&1
	if [ -f "$dir/stamp" ]; then
		DEBROOT=$dir/root
		return 0
	fi
	DEBROOT_WHY="debootstrap of $1 failed (log: $DEBROOT_LOG)"
	return 2
}

# debroot_stamp KEY: a value from the stamp of the root in DEBROOT.
debroot_stamp() {
	sed -n "s/^$1=//p" "${DEBROOT%/root}/stamp" 2>/dev/null
}

# Can this user enter a root? As root: chroot in a mount namespace
# (unshare -m); else in a user namespace (unshare -r -m), where the
# kernel allows it. DEBROOT_WHY says why not.
debroot_can_enter() {
	if [ "$(id -u)" = 0 ]; then
		debroot_unshare="unshare -m"
	else
		debroot_unshare="unshare -r -m"
	fi
	if ! command -v unshare >/dev/null 2>&1; then
		DEBROOT_WHY="unshare is not installed (Debian package: util-linux)"
		return 1
	fi
	if ! $debroot_unshare sh -c 'mount -t tmpfs none /mnt' 2>/dev/null; then
		DEBROOT_WHY="cannot make a mount namespace here ($debroot_unshare refused: not root, and user namespaces are off)"
		return 1
	fi
	return 0
}

# debroot_run CMD...: CMD inside DEBROOT, which is mounted read-only in
# a private mount namespace that ends with CMD. Besides it:
#   DEBROOT_BIND  "HOSTDIR:/path ..." bound in (writable), e.g. the
#                 binaries onto /opt and a scratch directory onto /tmp
#   DEBROOT_HIDE  "/path ..." covered by an empty directory where the
#                 root has them (a machine without its terminfo)
# /dev, /proc and /sys are the host's, as on a machine booted from it.
debroot_run() {
	$debroot_unshare sh -c '
	set -e
	r=$1
	binds=$2
	hide=$3
	shift 3
	mount --bind "$r" "$r"
	for d in dev proc sys; do mount --rbind "/$d" "$r/$d"; done
	for b in $binds; do mount --bind "${b%%:*}" "$r${b#*:}"; done
	for h in $hide; do
		if [ -d "$r$h" ]; then
			mount -t tmpfs -o size=16k,mode=755 none "$r$h"
		fi
	done
	mount -o remount,bind,ro "$r"
	exec chroot "$r" "$@"' debroot-run \
	    "$DEBROOT" "${DEBROOT_BIND:-}" "${DEBROOT_HIDE:-}" "$@"
}
