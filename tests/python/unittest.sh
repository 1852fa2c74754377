#!/bin/sh
# The Python package of the wheel (python/cudawiz/), without a wheel:
# tests/python/test_cudawiz.py against a stand-in binary (what the
# package passes, each way a run can fail, the console script's exec)
# and against this build's cudawiz where it writes --format html. TAP
# comes from the test file's own runner, one line a test.
. "$TESTS_SRCDIR/lib/tap.sh"

py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 ||
    skip_all "$py is not installed (Debian package: python3)"
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 8))' ||
    skip_all "$py is older than 3.8, the package's oldest Python"
# No __pycache__ in the source tree (read-only under distcheck).
PYTHONDONTWRITEBYTECODE=1 exec "$py" "$TESTS_SRCDIR/python/test_cudawiz.py"
