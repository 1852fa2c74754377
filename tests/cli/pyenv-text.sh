#!/bin/sh
# The "Python environments" section of the text doctor report: one line
# per environment (kind, name, prefix, active, Python version, package
# count), its place in the report, 80 columns, and the cut after many.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"

H=/home/u
fx_new
fx_conda_base $H/miniconda3 3.11
fx_conda_env $H/miniconda3/envs/torch 3.10
fx_dist_info $H/miniconda3/envs/torch/lib/python3.10/site-packages requests 2.31.0
fx_dist_info $H/miniconda3/envs/torch/lib/python3.10/site-packages numpy 1.26.0
fx_venv $H/.virtualenvs/web 3.11
fx_system_python /usr 3.11

# text [VAR=VALUE...]: the text report with exactly these variables.
text() {
	env -i LC_ALL=C "$@" "$CUDAWIZ" doctor --no-color --root "$FX" \
	    --matrix "$FX_MATRIX" 2> "$FX.stderr"
}

out=$(text HOME=$H CONDA_PREFIX=$H/miniconda3/envs/torch PATH=$H/miniconda3/envs/torch/bin)
section=$(printf '%s\n' "$out" | sed -n '/^Python environments$/,/^$/p')
like "$section" '^Python environments$' "the report has the section"
like "$section" "^  conda torch  $H/miniconda3/envs/torch  active  Python 3\.10  3 packages\$" \
    "the active conda env: kind, name, prefix, active, version, count"
like "$section" "^  conda base  $H/miniconda3  Python 3\.11  1 package\$" "the base, one package"
like "$section" "^  venv web  $H/\.virtualenvs/web  Python 3\.11  0 packages\$" "a venv"
like "$section" '^  system  /usr  Python 3\.11  0 packages$' "the system Python"
is "$(printf '%s\n' "$section" | grep -c '^  [a-z]')" 4 "one line per environment"
is "$(printf '%s\n' "$out" | grep -E '^(Python environments|Environment|Findings)$' | tr '\n' ,)" \
    "Python environments,Environment,Findings," "it comes before the environment section"
wide=$(printf '%s\n' "$out" | grep -vF "$FX_TMP" | awk 'length($0) > 80')
is "$wide" "" "the report fits 80 columns"

fx_new
out=$(text)
like "$(printf '%s\n' "$out" | sed -n '/^Python environments$/,/^$/p')" '^  none found$' \
    "no environment: none found"

# Many environments: the active ones and the first 16 others are shown.
fx_new
fx_conda_base $H/miniconda3 3.11
fx_conda_env $H/miniconda3/envs/torch 3.10
fx_system_python /usr 3.11
i=0
while [ $i -lt 40 ]; do
	fx_venv "$H/.virtualenvs/a-long-name-for-a-virtual-environment-number-$i" 3.11
	i=$((i + 1))
done
out=$(text HOME=$H CONDA_PREFIX=$H/miniconda3/envs/torch)
section=$(printf '%s\n' "$out" | sed -n '/^Python environments$/,/^$/p')
like "$section" '^  … and 26 more \(see --json\)$' \
    "past 16 plain environments the rest are counted (43 found, the active one and 16 shown)"
like "$section" "^  conda torch  $H/miniconda3/envs/torch  active" "the active one is shown"
wide=$(printf '%s\n' "$section" | awk 'length($0) > 80')
is "$wide" "" "long prefixes wrap within 80 columns"
like "$section" "^      $H/\.virtualenvs/a-long-name-for-a-virtual-environment-number-0\$" \
    "a prefix too long for the line goes below, indented"

done_testing
