#!/bin/sh
# The differential test of `cudawiz why NAME [--from FILE] --json` against
# what dlopen() really does (tests/tools/dlopen-probe) on seeded random
# trees; the variables and the rest are those of loader-differential.sh.
diff_modes=dlopen,dlopen-from
diff_first=100001
. "$TESTS_SRCDIR/cli/loader-differential.sh"
