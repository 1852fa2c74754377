# Sourced by the spec tests (spec-export.sh, doctor-baseline.sh): the TAP
# and fixture helpers, and the machine they start from.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_framework.sh"

# spec_machine: a new tree, a working CUDA 13 machine named gpu01 (a
# Debian 12 with a machine-id).
spec_machine() {
	fx_new
	fx_cuda13_machine
	fx_host gpu01 0123456789abcdef0123456789abcdef "Debian GNU/Linux 12 (bookworm)"
}

# Under the valgrind gate a watched run's LD_PRELOAD starts with
# memcheck's own libraries, and one run of a pair may be watched, the
# other native (tests/gates.mk): the spec's env.LD_PRELOAD is compared
# without them. SPEC_NOVG is a jq filter on an items object.
SPEC_NOVG='(.["env.LD_PRELOAD"] // "" | split(":") |
    map(select(test("/valgrind/") | not)) | join(":")) as $p |
    if $p == "" then del(.["env.LD_PRELOAD"]) else .["env.LD_PRELOAD"] = $p end'

# spec_drift: the DRIFT_* findings of the last doctor run, one
# "CODE|subject" a line, memcheck's preload taken out likewise.
spec_drift() {
	jq -r '.findings[] | select(.code | startswith("DRIFT_")) |
	    "\(.code)|\(.subject)" |
	    if startswith("DRIFT_ENV|env.LD_PRELOAD:") then
	        gsub("[^ :]*/valgrind/[^ :]*:?"; "") |
	        sub(":  here"; ": absent here") | sub(",  on"; ", absent on")
	    else . end |
	    select(test("^DRIFT_ENV\\|env.LD_PRELOAD: absent here, absent on") | not)' \
	    "$FX_OUT"
}
