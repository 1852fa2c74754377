# Issue 16 (hardening, round two): the children regression tests.
