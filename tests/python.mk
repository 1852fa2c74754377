# The wheel's Python package (python/cudawiz/, built by make wheel from
# python/wheel.mk): its unit tests are cheap (a second), so they are in
# the plain suite; the wheel itself is tried by the packages gate
# (tests/pkg/wheel-install.sh in tests/packages.mk).
TESTS += tests/python/unittest.sh
EXTRA_DIST += tests/python/unittest.sh tests/python/test_cudawiz.py
EXTRA_DIST += tests/pkg/wheel-common.sh
