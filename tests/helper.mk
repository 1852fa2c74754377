# Tests of the verification helper itself (issue 6): cudawiz-verify run
# directly against test-built fake vendor libraries and this machine's
# real CUDA toolkit and cuDNN.

# The JSON Lines writer, linked alone (the helper links nothing of
# cudawiz; jansson here only reads its output back).
check_PROGRAMS += tests/unit/test_helper_jsonl
tests_unit_test_helper_jsonl_SOURCES = tests/unit/test_helper_jsonl.c \
	src/helper/jsonl.c src/helper/jsonl.h
tests_unit_test_helper_jsonl_CPPFLAGS = $(UNIT_CPPFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_helper_jsonl_LDADD = $(JANSSON_LIBS) -lm
TESTS += tests/unit/test_helper_jsonl

# Shell tests. fake_libcuda.c and test_helper_cudecl.c are compiled by
# the scripts that need them (with $FIXTURE_CC), never by make: the build
# must not need CUDA headers, and each fake is one library per mode.
HELPER_CLI_TESTS = tests/cli/helper-fake.sh tests/cli/helper-real.sh \
	tests/cli/helper-ptx.sh tests/cli/helper-cudecl.sh
TESTS += $(HELPER_CLI_TESTS)
EXTRA_DIST += $(HELPER_CLI_TESTS) tests/tools/fake_libcuda.c \
	tests/unit/test_helper_cudecl.c
