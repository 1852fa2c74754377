#!/bin/sh
# The comparison in tests/lib/gentree.py must catch a wrong answer: on
# trees of several kinds it checks glibc's own answer against itself
# (agrees), then spoilt copies of it (a wrong path, a wrong search step,
# a missing, missed or extra object, a wrong exit status), each of which
# must be reported.
diff_selftest=yes
. "$TESTS_SRCDIR/cli/loader-differential.sh"
