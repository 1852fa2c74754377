# The map from code to tests (tests/README.md) and the check that keeps
# it true: every file under src/ has a row, every test a row names runs.
MAP_TESTS = tests/unit/test-map.sh
TESTS += $(MAP_TESTS)
EXTRA_DIST += $(MAP_TESTS) tests/README.md
