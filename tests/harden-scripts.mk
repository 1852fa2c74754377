# Issue 16 (hardening, round two): the scripts regression tests.
