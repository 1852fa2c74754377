# Tests of doctor's library resolution and the loader findings.
