# Fleets of doctor reports for the fleet tests. Source after tap.sh and
# fixture.sh.
#
#   fleet_base                  make $FLEET_BASE: a real `doctor --json`
#                               report of a healthy fixture machine
#   fleet_report FILE NAME AGE [ITEMS [FINDINGS]]
#                               write FILE: the base report as host NAME,
#                               made AGE seconds ago ("none": no time),
#                               its spec items changed by the jq filter
#                               ITEMS (on .spec.items), with FINDINGS (a
#                               JSON array of [code, severity]) added and
#                               the summary counted again
#
# The report's "host" and "spec" (doctor's since issue 22) are kept where
# the base report has them, and made where it does not, so these tests
# mean the same before and after doctor carries them: only name, time and
# machine id are set, and only the items ITEMS names change.

fleet_base() {
	fx_new
	fx_cuda13_machine
	FX_ENV="PATH=/usr/local/cuda/bin:/usr/bin CUDA_HOME=/usr/local/cuda"
	fx_doctor
	[ "$FX_RC" = 0 ] || skip_all "the healthy fixture is not healthy (exit $FX_RC)"
	# The valgrind gate's preload would be one more spec item in a
	# watched run only: the base is every host's, so it goes.
	FLEET_BASE=$FX.base.json
	fx_dirs="$fx_dirs $FLEET_BASE"
	fx_json_comparable "$FX_OUT" > "$FLEET_BASE" || exit 99
	FLEET_NOW=$(date +%s)
}

fleet_report() {
	if [ "$3" = none ]; then
		fr_time=null
	else
		fr_time=$((FLEET_NOW - $3))
	fi
	jq --arg name "$2" --argjson t "$fr_time" \
	    --argjson f "${5:-[]}" '
	  .host = ((.host // {kernel: "6.1.0-13-amd64", os: "Debian GNU/Linux 12 (bookworm)"})
	    + {name: $name,
	       machine_id: ($name | explode | map(. % 16 | tostring) | join("") + "0000000000000000")[0:16],
	       time: (if $t == null then null else ($t | todate) end),
	       time_unix: $t}
	    | if $t == null then del(.time, .time_unix) else . end)
	  | .spec = (.spec // {schema: "cudawiz/spec/1",
	      items: {"driver.branch": "580", "driver.version": "580.65.06",
	              "gpu.count": "1", "toolkit.default": "13.0.0",
	              "toolkit.versions": "13.0.0"}})
	  | .spec.items |= ('"${4:-.}"')
	  | .findings += [$f[] | {code: .[0], severity: .[1], title: .[0],
	      subject: ("on " + $name), detail: "", evidence: [], fix: []}]
	  | .summary = {errors: ([.findings[] | select(.severity == "error")] | length),
	      warnings: ([.findings[] | select(.severity == "warning")] | length),
	      info: ([.findings[] | select(.severity == "info")] | length)}
	' "$FLEET_BASE" > "$1"
}
