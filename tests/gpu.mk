# Tests of the gpu probes and rules: the PCI and driver probes through
# fixture trees, the rules through facts built by hand.

check_PROGRAMS += tests/unit/test_rules_gpu
tests_unit_test_rules_gpu_SOURCES = tests/unit/test_rules_gpu.c
tests_unit_test_rules_gpu_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_rules_gpu_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/test_gpuarch
tests_unit_test_gpuarch_SOURCES = tests/unit/test_gpuarch.c
tests_unit_test_gpuarch_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_gpuarch_LDADD = $(UNIT_LDADD)

GPU_CLI_TESTS = \
	tests/cli/gpu-probe.sh \
	tests/cli/gpu-rules.sh \
	tests/cli/gpu-visible.sh \
	tests/cli/gpu-badinput.sh \
	tests/cli/gpu-identity.sh \
	tests/cli/gpu-pciids-bad.sh \
	tests/cli/driver-probe.sh \
	tests/cli/driver-advice.sh \
	tests/cli/driver-modules.sh \
	tests/cli/gpu-hw.sh \
	tests/cli/ldconfig-advice.sh

TESTS += tests/unit/test_rules_gpu tests/unit/test_gpuarch $(GPU_CLI_TESTS)
EXTRA_DIST += $(GPU_CLI_TESTS) tests/lib/fx_gpu.sh tests/lib/pci.ids.nvidia \
	tests/lib/supported-gpus.sample.json

# Built, never run, by make check: bench/README.md.
check_PROGRAMS += bench/pciids-read
bench_pciids_read_SOURCES = bench/pciids-read.c
bench_pciids_read_LDADD = $(UNIT_LDADD)
