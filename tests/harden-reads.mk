# Issue 16 (hardening, round two): the reads regression tests.
