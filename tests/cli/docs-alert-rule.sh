#!/bin/sh
# README's example alert (section "Fleets"): the rule file it shows,
# contrib/prometheus/cudawiz-alerts.yml, is what README prints, passes
# `promtool check rules`, and fires as README says under `promtool test
# rules`: a host with an error finding fires after 15 minutes, not
# before, and a host without one never. No cudawiz run; under a second.
. "$TESTS_SRCDIR/lib/tap.sh"

command -v promtool >/dev/null 2>&1 || skip_all "no promtool (Debian package: prometheus)"
top=$TESTS_SRCDIR/..
rules=$top/contrib/prometheus/cudawiz-alerts.yml
: "${FX_TMP:=${TMPDIR:-/tmp}}"
work=$(mktemp -d "$FX_TMP/docs-alert-rule.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

# The fenced block after README's marker line.
awk '/^<!-- contrib\/prometheus\/cudawiz-alerts.yml, verbatim -->$/ { m = 1; next }
    m == 1 && /^```yaml$/ { m = 2; next }
    m == 2 && /^```$/ { exit }
    m == 2 { print }' "$top/README.md" > "$work/readme.yml"
ok "README shows a rule file after its marker" test -s "$work/readme.yml"
ok "README shows contrib/prometheus/cudawiz-alerts.yml as it is" \
    cmp -s "$work/readme.yml" "$rules"
[ -s "$work/readme.yml" ] && ! cmp -s "$work/readme.yml" "$rules" &&
	diff -u "$rules" "$work/readme.yml" | head -n 20 | sed 's/^/#   /'

out=$(promtool check rules "$rules" 2>&1); rc=$?
is "$rc" 0 "promtool check rules accepts it"
[ "$rc" = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
like "$out" 'SUCCESS: [0-9]+ rules found' "promtool finds its rules"
grep -q 'expr: cudawiz_findings{severity="error"} > 0' "$rules" &&
    grep -A1 'expr: cudawiz_findings{severity="error"} > 0' "$rules" | grep -q 'for: 15m'
is "$?" 0 'the rule README names: cudawiz_findings{severity="error"} > 0 for 15m'

# The rule in action: gpu07 has one error finding from minute 0, gpu08
# none; the alert is pending at 10 minutes and firing at 16.
cp "$rules" "$work/rules.yml"
cat > "$work/test.yml" <<'YAML'
rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'cudawiz_findings{severity="error",instance="gpu07"}'
        values: '1x30'
      - series: 'cudawiz_findings{severity="error",instance="gpu08"}'
        values: '0x30'
      - series: 'cudawiz_last_run_timestamp_seconds{instance="gpu07"}'
        values: '0+60x30'
      - series: 'cudawiz_last_run_timestamp_seconds{instance="gpu08"}'
        values: '0+60x30'
    alert_rule_test:
      - eval_time: 10m
        alertname: CudawizErrorFinding
        exp_alerts: []
      - eval_time: 16m
        alertname: CudawizErrorFinding
        exp_alerts:
          - exp_labels: {severity: warning, instance: gpu07}
            exp_annotations:
              summary: "gpu07: cudawiz finds 1 error(s) in the CUDA setup"
              description: >-
                cudawiz doctor on gpu07 has reported an error finding for
                15 minutes; cudawiz_finding{severity="error"} names the
                codes. Run `cudawiz doctor` there for the evidence and the fix.
      - eval_time: 30m
        alertname: CudawizReportStale
        exp_alerts: []
YAML
out=$(cd "$work" && promtool test rules test.yml 2>&1); rc=$?
is "$rc" 0 "promtool test rules: the alert fires after 15 minutes for gpu07 alone"
[ "$rc" = 0 ] || printf '%s\n' "$out" | head -n 30 | sed 's/^/#   /'

done_testing
