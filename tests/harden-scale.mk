# Issue 16 (hardening, round two): the scale regression tests.
