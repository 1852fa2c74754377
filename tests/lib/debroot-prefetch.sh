#!/bin/sh
# debroot-prefetch.sh SUITE: build the cached Debian root the packages
# gate's tests use (tests/lib/debroot.sh), ahead of them. .ci/run starts
# it in the background after its first step: debootstrap mostly waits on
# the network (about 95 s of CPU in a build of several minutes), so the
# suites run meanwhile and the gate finds the root ready; a test that
# comes first waits on the root's lock. It says what it did and never
# fails the run: the test itself says why a root is missing.
TESTS_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$TESTS_SRCDIR/lib/debroot.sh"
t0=$(date +%s)
if debroot_get "${1:-bullseye}"; then
	echo "debroot-prefetch: $DEBROOT ready ($(($(date +%s) - t0)) s)"
else
	echo "debroot-prefetch: no root: $DEBROOT_WHY"
fi
exit 0
