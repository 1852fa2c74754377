# Issue 16 (hardening, round two): the sysroot regression tests.
