#!/bin/sh
# Writes data/pci-nvidia.ids from a pci.ids: the file's header (its
# version, date and licence), NVIDIA's vendor line and its device lines;
# no subsystems, no comments inside the block, no other vendor. cudawiz
# compiles the result in (src/probe/pciids.c) for systems without a
# pci.ids; the output is committed, so builds are reproducible, and made
# again by hand when a newer pci.ids is wanted:
#   sh data/mk-pci-nvidia.sh /usr/share/misc/pci.ids > data/pci-nvidia.ids
in=${1:-/usr/share/misc/pci.ids}
[ -r "$in" ] || {
	echo "mk-pci-nvidia.sh: cannot read $in" >&2
	exit 2
}
LC_ALL=C awk 'BEGIN { head = 1 }

	head && /^#/ { print; next }
	{ head = 0 }
	!seen && /^10de  / {
		seen = 1
		print "#"
		print "#\tNVIDIA only: made from the file above by data/mk-pci-nvidia.sh."
		print
		next
	}
	seen && /^\t[0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / { print; n++; next }
	seen && /^[^\t#]/ { exit }
	END { if (!seen || n == 0) exit 1 }
' "$in"
