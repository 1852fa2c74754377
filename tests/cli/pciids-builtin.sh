#!/bin/sh
# The built-in pci.ids table (data/pci-nvidia.ids, compiled in): a root
# with no pci.ids (a minimal container, Debian's base system) still
# names the GPU and its chip, and says the name came from the built-in
# table; a pci.ids in the root wins over it (the system's is newer);
# one in the root without NVIDIA's block leaves the built-in to answer;
# the driver's own name for the GPU is newer, and wins over the table's.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (Debian package: jq)"

# A GeForce RTX 4090 (10de:2684), no pci.ids anywhere in the root, no driver.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2684
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "AD102 [GeForce RTX 4090]" \
    "no pci.ids: the built-in table names the GPU"
is "$(fx_jq '.facts.gpus[0].sources.name')" "built-in pci.ids" \
    "the source says the built-in table"
is "$(fx_jq '.facts.gpus[0].chip')" "AD102" "the chip comes from its name"
is "$(fx_jq '.facts.gpus[0].sources.chip')" "built-in pci.ids" \
    "the chip's source is the built-in table"
is "$(fx_jq '.facts.gpus[0].compute_capability')" "8.9" \
    "and the chip table gives the compute capability"
is "$(fx_jq '[.facts.notes[] | select(.path | test("pci.ids"))] | length')" 0 \
    "no note about a missing pci.ids"
out=$("$CUDAWIZ" doctor --root "$FX" --matrix "$FX_MATRIX" 2>&1)
like "$out" 'AD102 \[GeForce RTX 4090\]' "the text report names it too"

# The root's own pci.ids, naming the same id otherwise: the file wins.
fx_file /usr/share/misc/pci.ids "$(printf '%s\n' '# test' \
    '10de  NVIDIA Corporation' '	2684  AD102 [Named By The File]' \
    '10df  Emulex Corporation')"
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "AD102 [Named By The File]" \
    "a pci.ids in the root wins over the built-in table"
is "$(fx_jq '.facts.gpus[0].sources.name')" "/usr/share/misc/pci.ids" \
    "and is named as the source"

# A pci.ids without NVIDIA's block: the built-in table answers.
fx_file /usr/share/misc/pci.ids "$(printf '%s\n' '# test' \
    '10df  Emulex Corporation' '	1ae5  LP6000 Fibre Channel Host Adapter')"
fx_doctor
is "$(fx_jq '.facts.gpus[0].sources.name')" "built-in pci.ids" \
    "a pci.ids with no NVIDIA block leaves it to the built-in table"

# The driver's information file names it: that name stands (the
# driver is newer than the table), the chip still comes from the table.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2684 nvidia
fx_nv_info 0000:01:00.0 "NVIDIA GeForce RTX 4090" GPU-11111111-2222-3333-4444-555555555555
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "NVIDIA GeForce RTX 4090" \
    "the driver's name wins over the built-in table's"
is "$(fx_jq '.facts.gpus[0].chip')" "AD102" "the chip still comes from the table"

# An id the built-in table does not have: the raw id, as before.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 fff0
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "10de:fff0" "an id no table names stays raw"
done_testing
