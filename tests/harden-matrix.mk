# Issue 16 (hardening, round two): the matrix regression tests.
