# Tests of the env probes and rules.
