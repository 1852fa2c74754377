#!/bin/sh
# The GPU probe: NVIDIA display devices from /sys/bus/pci/devices, their
# bound driver, and their name from pci.ids, the driver's /proc file, or
# the raw id.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

UUID0=GPU-5b5a8f0e-3c2d-4b1a-9e8f-7d6c5b4a3f21
UUID1=GPU-0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5

# The healthy machine, with a pci.ids that knows its GPU.
fx_new
fx_healthy_gpu
fx_pci_ids
fx_doctor
is "$(fx_jq '.facts.gpus_probe.pci_bus')" "read" "the PCI bus was read"
is "$(fx_jq '.facts.gpus_probe.sources.pci_bus')" "/sys/bus/pci/devices" \
    "the bus's source is /sys/bus/pci/devices"
is "$(fx_jq '.facts.gpus | length')" 1 "one GPU"
is "$(fx_jq '.facts.gpus[0].pci_address')" "0000:01:00.0" "its PCI address"
is "$(fx_jq '.facts.gpus[0].vendor_id')" "0x10de" "vendor id"
is "$(fx_jq '.facts.gpus[0].device_id')" "0x2330" "device id"
is "$(fx_jq '.facts.gpus[0].subsystem')" "10de:16c1" "subsystem ids"
is "$(fx_jq '.facts.gpus[0].class')" "0x030200" "class (3D controller)"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "nvidia" "bound to nvidia"
is "$(fx_jq '.facts.gpus[0].name')" "GH100 [H100 SXM5 80GB]" \
    "the name from pci.ids (not the other vendor's line with the same id)"
is "$(fx_jq '.facts.gpus[0].sources.name')" "/usr/share/misc/pci.ids" \
    "the name's source is pci.ids"
is "$(fx_jq '.facts.gpus[0].uuid')" "null" \
    "no UUID without the driver's information file"
like "$(fx_jq '.facts.gpus[0].unknown.uuid')" 'information does not exist' \
    "the UUID's reason names the missing file"

# hwdata's location (Fedora), and a device only in the /proc file.
fx_new
fx_kernel 6.1.0-13-amd64
fx_pci_ids /usr/share/hwdata/pci.ids
fx_gpu 0000:01:00.0 2684 nvidia
fx_gpu 0000:02:00.0 2204 nvidia
fx_nv_info 0000:01:00.0 "NVIDIA GeForce RTX 4090" $UUID0
fx_nv_info 0000:02:00.0 "NVIDIA GeForce RTX 3090" $UUID1
fx_doctor
is "$(fx_jq '.facts.gpus | length')" 2 "two GPUs"
is "$(fx_jq '.facts.gpus[0].name')" "AD102 [GeForce RTX 4090]" \
    "pci.ids from /usr/share/hwdata"
is "$(fx_jq '.facts.gpus[0].sources.name')" "/usr/share/hwdata/pci.ids" \
    "source names the hwdata file"
is "$(fx_jq '.facts.gpus[0].uuid')" "$UUID0" "UUID from the information file"
is "$(fx_jq '.facts.gpus[1].name')" "NVIDIA GeForce RTX 3090" \
    "a device pci.ids lacks is named by the driver's information file"
is "$(fx_jq '.facts.gpus[1].sources.name')" \
    "/proc/driver/nvidia/gpus/0000:02:00.0/information" \
    "source names the information file"
is "$(fx_jq '.facts.gpus[1].uuid')" "$UUID1" "second GPU's UUID"

# No pci.ids, no driver, an id the built-in pci.ids table lacks: the raw id.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:65:00.0 2fff
fx_doctor
is "$(fx_jq '.facts.gpus[0].name')" "10de:2fff" "the raw id when nothing names it"
is "$(fx_jq '.facts.gpus[0].sources.name')" "raw" "source is raw"
is "$(fx_jq '.facts.gpus[0].kernel_driver')" "null" "no driver link: none bound"
is "$(fx_jq '.facts.gpus[0] | .unknown.kernel_driver // .unreadable.kernel_driver // "known"')" \
    "known" "none bound is known, not unknown"
is "$(fx_jq '.facts.gpus[0].class')" "0x030000" "VGA class"

# Other vendors and NVIDIA's non-display functions are not GPUs.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:00:02.0 a780 i915 030000 8086
fx_gpu 0000:01:00.0 2684 nvidia
fx_gpu 0000:01:00.1 22ba snd_hda_intel 040300
fx_gpu 0000:01:00.2 1ad8 xhci_hcd 0c0330
fx_gpu 0000:03:00.0 1b80 nouveau 038000
fx_doctor
is "$(fx_jq '[.facts.gpus[].pci_address] | join(" ")')" "0000:01:00.0 0000:03:00.0" \
    "only NVIDIA display-class functions (0x03xxxx) are GPUs"
is "$(fx_jq '.facts.gpus[1].kernel_driver')" "nouveau" "a GPU bound to nouveau"
is "$(fx_jq '.facts.gpus[1].class')" "0x038000" "class 0x0380 is a display class"
is "$(fx_jq '.facts.notes | length')" 0 "no notes on a sane tree"

# No /sys at all: unknown, not "no GPU".
fx_new
fx_kernel 6.1.0-13-amd64
rm -rf "$FX/sys"
fx_doctor
is "$(fx_jq '.facts.gpus_probe.pci_bus')" "null" "no bus reading without /sys"
like "$(fx_jq '.facts.gpus_probe.unknown.pci_bus')" '/sys/bus/pci/devices does not exist' \
    "the reason says the directory does not exist"
lacks_code NO_NVIDIA_GPU "no NO_NVIDIA_GPU when the bus was not there to read"

# /sys/bus/pci/devices that is not a directory: unreadable.
fx_new
fx_file /sys/bus/pci/devices "not a directory"
fx_doctor
like "$(fx_jq '.facts.gpus_probe.unreadable.pci_bus')" '/sys/bus/pci/devices: Not a directory' \
    "a bus that cannot be listed is unreadable, with the reason"
lacks_code NO_NVIDIA_GPU "no NO_NVIDIA_GPU when the bus could not be read"
out=$(env -i "$CUDAWIZ" doctor --root "$FX")
like "$out" 'PCI bus' "the text report shows the bus state"

# The text report names the GPU.
fx_new
fx_healthy_gpu
fx_pci_ids
out=$(env -i "$CUDAWIZ" doctor --root "$FX")
like "$out" '0000:01:00\.0 +GH100 \[H100 SXM5 80GB\] \[10de:2330\] +driver: nvidia' \
    "the text report shows address, name, ids and driver"

done_testing
