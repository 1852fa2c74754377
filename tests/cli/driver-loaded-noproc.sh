#!/bin/sh
# One fact, one answer (issue 16, point 11): a module present in
# /sys/module/nvidia without /proc/driver/nvidia/version (a container that
# mounts /sys but not /proc/driver, a module still starting) is loaded.
# The Driver section, the JSON facts and every finding must say so; none
# may call it "not loaded". Its version is unknown with why, or taken from
# /sys/module/nvidia/version when that exists.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

# A GPU bound to nothing (the module loaded but not yet bound), the module
# directory in /sys, nothing in /proc/driver.
noproc_tree() {
	fx_new
	fx_kernel 6.1.0-13-amd64
	fx_gpu 0000:01:00.0 2330
	fx_dir /sys/module/nvidia
}

# The nvidia module's line of the Driver section, and every line of the
# text that calls the module not loaded.
module_line() {
	sed -n '/^Driver$/,/^$/p' "$FX_OUT" | grep 'nvidia module'
}

noproc_tree
fx_doctor
is "$(fx_jq '.facts.driver.nvidia_loaded')" true "JSON: the module is loaded"
is "$(fx_jq '.facts.driver.module_version')" null "JSON: no module version"
like "$(fx_jq '.facts.driver.unknown.module_version')" \
    'loaded \(/sys/module/nvidia\).*/proc/driver/nvidia/version does not exist' \
    "JSON: the version is unknown, and why"
lacks_code DRIVER_NOT_LOADED
is "$(jq -r '[.findings[] | .detail, .title, .evidence[]] | map(select(test("not loaded"))) | length' "$FX_OUT")" \
    0 "no finding calls the module not loaded"

fx_cmd_env "doctor --no-color"
like "$(module_line)" 'nvidia module +loaded, version unknown' \
    "text: the Driver section says loaded, version unknown"
is "$(grep -c 'not loaded' "$FX_OUT")" 0 "text: nothing says 'not loaded'"
like "$(cat "$FX_OUT")" '/sys/module/nvidia: the nvidia module is loaded' \
    "text: the finding's evidence says loaded too"

# The version from /sys when /proc lacks it.
noproc_tree
fx_file /sys/module/nvidia/version 580.65.06
fx_cmd_env "doctor --no-color"
like "$(module_line)" 'nvidia module +loaded, version 580\.65\.06 +\(/sys/module/nvidia/version\)' \
    "text: the version /sys gives"
is "$(grep -c 'not loaded' "$FX_OUT")" 0 "text: nothing says 'not loaded'"

# Neither /sys/module/nvidia nor /proc/driver/nvidia: not loaded, and the
# finding says the same.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2330
fx_cmd_env "doctor --no-color"
like "$(module_line)" 'nvidia module +not loaded' "text: not loaded"
like "$(cat "$FX_OUT")" 'DRIVER_NOT_LOADED' "... and DRIVER_NOT_LOADED says so"

done_testing
