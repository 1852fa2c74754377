# Tests of the toolkit probes and rules.
