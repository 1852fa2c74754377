# Issue 16 (hardening, round two): the trust regression tests.
