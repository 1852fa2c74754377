#!/bin/sh
# Writes data/terminfo.src: the terminal descriptions cudawiz carries for
# systems without a terminfo database (src/wizard/terminfo.c), as
# infocmp prints them from this machine's database, each whole (no use=).
# The build compiles them with tic; the output is committed, so builds
# are reproducible, and made again by hand:
#   sh data/mk-terminfo.sh > data/terminfo.src
# The names must match terminfo.c's table and wizard.mk's list.
set -e
echo "# Made by data/mk-terminfo.sh with $(infocmp -V); do not edit."
for t in xterm xterm-256color screen tmux linux vt100; do
	infocmp -x "$t"
done
