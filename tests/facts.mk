# The facts model (src/facts/) and the include walls around it.
TESTS += tests/unit/include-walls.sh
EXTRA_DIST += tests/unit/include-walls.sh
