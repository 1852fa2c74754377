#!/bin/sh
. "$TESTS_SRCDIR/lib/tap.sh"
skip_all "wip"
