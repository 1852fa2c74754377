# Tests of the gpu probes and rules.
