#!/bin/sh
# contrib/ansible's playbook, run by Debian's ansible-core against this
# machine (-c local) as two inventory hosts: "localhost" (this machine,
# the portable tarball of DIST_DIR unpacked into a private directory) and
# "gpu-broken" (an "installed" cudawiz, this build's, on a --root tree
# with a GPU whose driver is not loaded). Check mode first, for localhost
# (it changes nothing); then the real run: every report fetched as
# <inventory_hostname>.json, valid doctor JSON, and the fleet report on
# the controller lists gpu-broken under DRIVER_NOT_LOADED and this
# machine not, in text, fleet.json and fleet.html; then a second run, for
# localhost and without the fleet step (--skip-tags cudawiz-fleet), which
# unpacks nothing again. Each host's run of the play is about 15 s of CPU
# (a process per task), hence two hosts and the short extra runs. No
# collection but ansible.builtin is reachable (an empty
# ANSIBLE_COLLECTIONS_PATH).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

command -v ansible-playbook >/dev/null 2>&1 ||
	skip_all "no ansible-playbook (Debian package: ansible-core)"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 (Debian package: python3)"

: "${DIST_DIR:=$PWD/dist}"
version=$("$CUDAWIZ" --version | sed -n '1{s/ (.*//;s/^cudawiz //;p;}')
name=cudawiz-$version-$(uname -m)-linux
if ! [ -f "$DIST_DIR/$name.tar.gz" ]; then
	tap_result 1 "make portable made $name.tar.gz"
	tail -n 30 "$DIST_DIR/make-portable.log" 2>/dev/null | sed 's/^/#   /'
	done_testing
	exit 1
fi
playbook=$TESTS_SRCDIR/../contrib/ansible/cudawiz-fleet.yml

# The broken tree: its hostname file names it as the inventory does.
fx_new
fx_kernel 6.1.0-13-amd64
fx_gpu 0000:01:00.0 2330
fx_kmod 6.1.0-13-amd64
fx_file /proc/sys/kernel/hostname gpu-broken
broken=$FX

work=$(mktemp -d "$FX_TMP/ansible-fleet.XXXXXX") || exit 99
fx_dirs="$fx_dirs $work"
mkdir -p "$work/collections" "$work/tmp"
: > "$work/ansible.cfg"
out=$work/out
cat > "$work/inventory.yml" <<YAML
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    cudawiz_portable_dir: '$DIST_DIR'
    cudawiz_output_dir: '$out'
    cudawiz_fleet_command: '$CUDAWIZ'
  hosts:
    localhost:
      cudawiz_installed_path: ''
      cudawiz_work_dir: '$work/host-localhost'
    gpu-broken:
      cudawiz_installed_path: '$CUDAWIZ'
      cudawiz_work_dir: '$work/host-broken'
      cudawiz_root: '$broken'
      cudawiz_doctor_args: [--matrix, '$FX_MATRIX']
YAML

# play LOG [OPTION...]: the playbook with the inventory above, nothing
# read from or written to ~/.ansible or an ansible.cfg; the exit status in
# play_rc.
play() {
	play_log=$work/$1
	shift
	env -u CUDAWIZ_HELPER -u CUDAWIZ_ROOT ANSIBLE_CONFIG="$work/ansible.cfg" \
	    ANSIBLE_COLLECTIONS_PATH="$work/collections" ANSIBLE_LOCAL_TEMP="$work/tmp" \
	    ANSIBLE_REMOTE_TEMP="$work/tmp" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 \
	    ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_PIPELINING=1 \
	    ansible-playbook -i "$work/inventory.yml" "$playbook" "$@" > "$play_log" 2>&1
	play_rc=$?
}
# show: the last lines of the last play's log.
show() {
	tail -n 40 "$play_log" | sed 's/^/#   /'
}
# task_changed TASK: the hosts a task reported as changed in the last log.
task_changed() {
	awk -v t="$1" '/^TASK \[/ { on = index($0, t) > 0; next }
	    on && /^changed: \[/ { sub(/^changed: \[/, ""); sub(/\].*/, ""); print }' "$play_log" |
	    LC_ALL=C sort | tr '\n' ' '
}

play check.log --check --limit localhost
is "$play_rc" 0 "check mode runs through"
[ "$play_rc" = 0 ] || show
ok "check mode unpacks nothing" test ! -e "$work/host-localhost"
ok "check mode fetches nothing" test ! -e "$out/hosts"

play run1.log
run1_rc=$play_rc run1_log=$play_log
[ -s "$out/hosts/localhost.json" ] || show
for h in localhost gpu-broken; do
	f=$out/hosts/$h.json
	ok "$h: its report was fetched as $h.json" test -s "$f"
	is "$(jq -r .schema "$f" 2>/dev/null)" cudawiz/doctor/1 "$h: the report is doctor JSON"
done
ok "localhost ran the unpacked portable $name" \
    test -x "$work/host-localhost/$name/cudawiz"
ok "gpu-broken ran the installed cudawiz (nothing unpacked)" \
    test ! -e "$work/host-broken/$name"
is "$(stat -c %a "$work/host-localhost")" 700 "the work directory is private (0700)"
is "$(jq -r '.root' "$out/hosts/gpu-broken.json")" "$broken" "gpu-broken read its --root tree"
is "$(jq -r '[.findings[] | select(.severity == "error") | .code] | join(" ")' \
    "$out/hosts/gpu-broken.json")" DRIVER_NOT_LOADED "gpu-broken's report has its error"
is "$(jq -r '.facts.verify.why' "$out/hosts/localhost.json")" --no-verify \
    "doctor ran with --no-verify by default"

play run2.log --limit localhost --skip-tags cudawiz-fleet
is "$(task_changed 'Unpack the tarball into the work directory')" "" \
    "a second run unpacks nothing again"
is "$(task_changed 'Make the private work directory')" "" \
    "a second run changes no directory"

# The fleet step (contract 5 of issue 22), in the first real run: on the
# controller, over the two reports.
is "$run1_rc" 0 "the playbook runs through, fleet included (exit 0 or 1 are results)"
[ "$run1_rc" = 0 ] || { play_log=$run1_log; show; }
like "$(cat "$run1_log")" 'DRIVER_NOT_LOADED.*gpu-broken' \
    "the play prints the fleet report: gpu-broken on DRIVER_NOT_LOADED's line"
ok "fleet.json was written" test -s "$out/fleet.json"
ok "fleet.html was written" test -s "$out/fleet.html"
is "$(jq -r .schema "$out/fleet.json" 2>/dev/null)" cudawiz/fleet/1 "fleet.json is cudawiz/fleet/1"
# Whatever the document's shape: some object holding the code holds gpu-broken.
grouped() {	# CODE HOST: an object with CODE as a value names HOST
	jq -e --arg c "$1" --arg h "$2" '[.. | objects |
	    select(any(.[]?; . == $c)) | tostring | contains($h)] | any' \
	    "$out/fleet.json" >/dev/null 2>&1
}
ok "fleet.json lists gpu-broken under DRIVER_NOT_LOADED" grouped DRIVER_NOT_LOADED gpu-broken
# This machine's name in fleet: its report's host name (else the file's).
me=$(jq -r '.host.name // "localhost"' "$out/hosts/localhost.json" 2>/dev/null)
ok "and not this machine ($me)" eval '! grouped DRIVER_NOT_LOADED "$me"'
like "$(cat "$out/fleet.html" 2>/dev/null)" 'DRIVER_NOT_LOADED' "fleet.html names the finding"

done_testing
