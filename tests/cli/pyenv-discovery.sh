#!/bin/sh
# Finding Python environments: every source (CONDA_PREFIX, VIRTUAL_ENV,
# the python3 on PATH, environments.txt, conda installs and their envs/,
# CONDA_ENVS_PATH, MAMBA_ROOT_PREFIX, CONDA_EXE, ~/.virtualenvs,
# WORKON_HOME, .venv, pyenv, the system and user sites), the way each was
# reached, dedupe by real directory, order, and what each environment is.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"

H=/home/u
fx_new
fx_conda_base $H/miniconda3 3.11
fx_conda_env $H/miniconda3/envs/torch 3.10
fx_conda_env /data/envs/other 3.9
fx_conda_base /opt/conda 3.12
fx_conda_env /opt/envs/ml 3.10
fx_file /opt/envs/README "not an environment"
fx_dir $H/mm/envs
fx_conda_env $H/mm/envs/jaxenv 3.11
fx_conda_base /tools/conda 3.10
fx_conda_env /tools/conda/envs/build 3.10
fx_file /tools/conda/bin/conda "#!/bin/sh"
printf '# conda environments:\r\n%s/miniconda3\r\n\r\n%s/miniconda3/envs/torch\r\n   /data/envs/other  \r\n/gone/env\r\n' \
    $H $H | fx_file $H/.conda/environments.txt
fx_system_python /usr 3.11
fx_dir /usr/lib/python3.11/site-packages
fx_dir /usr/local/lib/python3.11/dist-packages
fx_link usr/bin /bin
fx_dir $H/.local/lib/python3.11/site-packages
fx_venv /work/proj/.venv 3.11
fx_venv $H/.virtualenvs/web 3.11
fx_venv /srv/venvs/api 3.11
fx_file /srv/venvs/postactivate "# virtualenvwrapper hook"
fx_dir /srv/venvs/empty
P=$H/.pyenv/versions
fx_python_elf $P/3.12.1/bin/python3.12
fx_link python3.12 $P/3.12.1/bin/python3
fx_dir $P/3.12.1/lib/python3.12/site-packages
fx_venv $P/3.12.1/envs/tools 3.12 $H/.pyenv/versions/3.12.1
fx_link 3.12.1/envs/tools $P/tools

run_all() {
	fx_doctor_env HOME=$H PWD=/work/proj \
	    CONDA_PREFIX=$H/miniconda3/envs/torch \
	    VIRTUAL_ENV=/work/proj/.venv \
	    PATH=$H/miniconda3/envs/torch/bin:/usr/bin:/bin \
	    CONDA_ENVS_PATH=/opt/envs:/nonexistent \
	    MAMBA_ROOT_PREFIX=$H/mm CONDA_EXE=/tools/conda/bin/conda \
	    WORKON_HOME=/srv/venvs "$@"
}
run_all
fx_ran_ok
is "$(fx_jq '.facts.python_envs | type')" array "python_envs is an array"
is "$(fx_jq '[.facts.python_envs[].prefix] | join(" ")')" \
    "$H/miniconda3/envs/torch /work/proj/.venv $H/miniconda3 /data/envs/other /opt/conda /opt/envs/ml $H/mm/envs/jaxenv /tools/conda /tools/conda/envs/build $H/.virtualenvs/web /srv/venvs/api $P/3.12.1 $P/3.12.1/envs/tools /usr /usr/local $H/.local" \
    "every environment once, active first, then in discovery order"
first=$(fx_jq '.facts.python_envs | map(.prefix) | join(" ")')
run_all
is "$(fx_jq '.facts.python_envs | map(.prefix) | join(" ")')" "$first" \
    "the order is the same on a second run"

E=$H/miniconda3/envs/torch
is "$(fx_py_env $E '.found_via | join(",")')" \
    "CONDA_PREFIX,PATH,environments.txt,conda-envs" \
    "the active conda env: one env, every way it was reached"
is "$(fx_py_env $E '"\(.kind) \(.name) \(.active)"')" "conda torch true" \
    "it is conda, named torch, active"
is "$(fx_py_env $E .python)" "$E/bin/python3.10" "its python is bin/python3.10 as found"
is "$(fx_py_env $E .python_version)" 3.10 "its version comes from conda-meta"
is "$(fx_py_env $E '.site_packages | join(" ")')" \
    "$E/lib/python3.10/site-packages" "its site-packages"
is "$(fx_py_env $E .lib_dir)" "$E/lib" "a conda env's lib_dir is PREFIX/lib"
is "$(fx_py_env $E .base_prefix)" null "a conda env has no base prefix"

is "$(fx_py_env $H/miniconda3 '"\(.kind) \(.name) \(.active)"')" "conda base false" \
    "a conda install is the env named base"
is "$(fx_py_env $H/miniconda3 '.found_via | join(",")')" "environments.txt,conda-base" \
    "... reached through environments.txt and as a known install"
is "$(fx_py_env /data/envs/other '"\(.name) \(.found_via | join(","))"')" \
    "other environments.txt" "an env listed with blanks and CRLF is found"
like "$(fx_jq '.facts.notes[] | select(.path == "/gone/env") | .problem')" \
    'environments.txt.*No such file' "a missing listed env is a note"
is "$(fx_py_env /gone/env .prefix)" "" "... and no environment"
is "$(fx_py_env /opt/conda '"\(.name) \(.found_via | join(","))"')" \
    "base conda-base" "/opt/conda is found"
is "$(fx_py_env /opt/envs/ml '.found_via | join(",")')" CONDA_ENVS_PATH \
    "CONDA_ENVS_PATH's children are environments"
like "$(fx_jq '.facts.notes[] | select(.path == "/nonexistent") | .problem')" \
    'CONDA_ENVS_PATH.*No such file' "a missing CONDA_ENVS_PATH entry is a note"
is "$(fx_py_env $H/mm/envs/jaxenv '"\(.name) \(.found_via | join(","))"')" \
    "jaxenv MAMBA_ROOT_PREFIX" "MAMBA_ROOT_PREFIX's envs are found"
is "$(fx_py_env $H/mm .prefix)" "" "a micromamba root without conda-meta is no env"
is "$(fx_py_env /tools/conda/envs/build '.found_via | join(",")')" CONDA_EXE \
    "the install CONDA_EXE belongs to, and its envs, are found"

V=/work/proj/.venv
is "$(fx_py_env $V '"\(.kind) \(.name) \(.active) \(.found_via | join(","))"')" \
    "venv .venv true VIRTUAL_ENV,.venv" "VIRTUAL_ENV and .venv in PWD: one venv"
is "$(fx_py_env $V .base_prefix)" /usr "a venv's base prefix is its home's parent"
is "$(fx_py_env $V .system_site_packages)" false "include-system-site-packages = false"
is "$(fx_py_env $V .python_version)" 3.11 "the version comes from pyvenv.cfg"
is "$(fx_py_env $V .python)" "$V/bin/python3.11" "bin/python3.11, not followed"
is "$(fx_py_env $V '.site_packages | join(" ")')" "$V/lib/python3.11/site-packages" \
    "lib64 -> lib is not a second site"
is "$(fx_py_env $V .lib_dir)" null "a venv has no lib_dir"
is "$(fx_py_env $H/.virtualenvs/web '"\(.kind) \(.name) \(.found_via | join(","))"')" \
    "venv web virtualenvs" "~/.virtualenvs/* are venvs"
is "$(fx_py_env /srv/venvs/api '.found_via | join(",")')" WORKON_HOME \
    "WORKON_HOME/* are venvs"
is "$(fx_py_env /srv/venvs/empty .prefix)" "" "an empty directory there is no venv"
is "$(fx_jq '[.facts.notes[] | select(.path | startswith("/srv/venvs"))] | length')" 0 \
    "... and neither it nor a hook file there is noted"

is "$(fx_py_env $P/3.12.1 '"\(.kind) \(.name) \(.python_version) \(.python)"')" \
    "pyenv 3.12.1 3.12 $P/3.12.1/bin/python3.12" "a pyenv version"
is "$(fx_py_env $P/3.12.1/envs/tools '"\(.kind) \(.name) \(.found_via | join(","))"')" \
    "pyenv tools pyenv" "a pyenv-virtualenv env, once though linked as versions/tools"
is "$(fx_py_env $P/3.12.1/envs/tools .base_prefix)" "$P/3.12.1" \
    "... based on its version"

is "$(fx_py_env /usr '"\(.kind) \(.name) \(.active) \(.found_via | join(","))"')" \
    "system null false system" "the distribution's Python"
is "$(fx_py_env /usr '.site_packages | join(" ")')" \
    "/usr/lib/python3/dist-packages /usr/lib/python3.11/site-packages" \
    "its dist-packages and site-packages"
is "$(fx_py_env /usr '"\(.python) \(.python_version)"')" "/usr/bin/python3.11 3.11" \
    "its python and version from bin/python3's target"
is "$(fx_py_env /usr/local '.site_packages | join(" ")')" \
    "/usr/local/lib/python3.11/dist-packages" "/usr/local's dist-packages"
is "$(fx_py_env $H/.local '"\(.kind) \(.python) \(.site_packages | join(" "))"')" \
    "user null $H/.local/lib/python3.11/site-packages" "the user site"
is "$(fx_jq '[.facts.python_envs[] | select(.active)] | length')" 2 \
    "two environments are active"

# --- the python3 on PATH decides, through links and pyvenv.cfg
fx_doctor_env HOME=$H PATH=/nowhere:/bin
is "$(fx_py_env /usr '"\(.active) \(.found_via | join(","))"')" "true PATH,system" \
    "python3 on PATH through /bin -> usr/bin: /usr is active"
is "$(fx_jq '.facts.python_envs[0].prefix')" /usr "... and first"
fx_doctor_env HOME=$H PATH=$V/bin:/usr/bin
is "$(fx_py_env $V '"\(.kind) \(.active) \(.found_via | join(","))"')" \
    "venv true PATH" "a venv's python on PATH makes it active (pyvenv.cfg, links not followed)"
is "$(fx_py_env /usr .active)" false "... not its base"
fx_doctor_env HOME=$H PATH=/data/envs/other/bin
is "$(fx_py_env /data/envs/other '"\(.active) \(.found_via | join(","))"')" \
    "true PATH,environments.txt" "a conda env's python on PATH"

# python only when there is no python3
fx_new
fx_python_elf /opt/py2/bin/python
fx_dir /opt/py2/lib/python3.8/site-packages
fx_python_elf /opt/py3/bin/python3.9
fx_link python3.9 /opt/py3/bin/python3
fx_file /opt/noexec/bin/python3 "not executable"
fx_doctor_env PATH=/opt/noexec/bin:/opt/py2/bin:/opt/py3/bin
is "$(fx_jq '[.facts.python_envs[] | select(.active) | .prefix] | join(" ")')" /opt/py3 \
    "python3 anywhere on PATH wins over an earlier python; a file that is not executable is passed over"
fx_doctor_env PATH=/opt/py2/bin
is "$(fx_jq '[.facts.python_envs[] | select(.active) | "\(.prefix) \(.kind) \(.python) \(.python_version)"] | join(" ")')" \
    "/opt/py2 system /opt/py2/bin/python 3.8" \
    "python when there is no python3; the version from lib/python3.8"

# --- pyenv shims: the version pyenv would run
fx_new
R=/home/p/.pyenv
fx_file $R/shims/python3 '#!/usr/bin/env bash
exec pyenv exec "$0" "$@"'
chmod 755 "$FX$R/shims/python3"
fx_python_elf $R/versions/3.11.7/bin/python3.11
fx_dir $R/versions/3.11.7/lib/python3.11/site-packages
fx_python_elf $R/versions/3.10.13/bin/python3.10
fx_file $R/version "3.10.13"
fx_system_python /usr 3.11
fx_file /work/app/.python-version "3.11.7"
fx_dir /work/app/src
fx_doctor_env HOME=/home/p PATH=$R/shims:/usr/bin PYENV_VERSION=3.11.7
is "$(fx_jq '[.facts.python_envs[] | select(.active) | "\(.prefix) \(.kind)"] | join(" ")')" \
    "$R/versions/3.11.7 pyenv" "a shim with PYENV_VERSION: that version is active"
fx_doctor_env HOME=/home/p PATH=$R/shims:/usr/bin PWD=/work/app/src
is "$(fx_jq '[.facts.python_envs[] | select(.active) | .prefix] | join(" ")')" \
    "$R/versions/3.11.7" "... from a .python-version above PWD"
fx_doctor_env HOME=/home/p PATH=$R/shims:/usr/bin
is "$(fx_jq '[.facts.python_envs[] | select(.active) | .prefix] | join(" ")')" \
    "$R/versions/3.10.13" "... from pyenv's global version file"
fx_doctor_env HOME=/home/p PATH=$R/shims:/usr/bin PYENV_VERSION=system
is "$(fx_jq '[.facts.python_envs[] | select(.active) | .prefix] | join(" ")')" /usr \
    "... 'system': the next python3 on PATH"
fx_doctor_env PYENV_ROOT=$R PATH=/usr/bin
is "$(fx_jq '[.facts.python_envs[] | select(.kind == "pyenv") | .prefix] | join(" ")')" \
    "$R/versions/3.10.13 $R/versions/3.11.7" "PYENV_ROOT without HOME"

# --- where the version comes from
fx_new
fx_dir /e/vv/lib/python3.9/site-packages
printf 'home = /usr/bin\ninclude-system-site-packages = true\nversion_info = 3.9.18.final.0\n' |
    fx_file /e/vv/pyvenv.cfg
fx_file /e/c1/conda-meta/history ""
fx_python_elf /e/c1/bin/python3.8
fx_link python3.8 /e/c1/bin/python3
fx_dir /e/c1/lib/python3.8/site-packages
fx_file /e/c2/conda-meta/history ""
fx_dir /e/c2/lib/python3.7/site-packages
fx_dir /e/c2/lib/python3.12/site-packages
fx_file /e/c3/conda-meta/history ""
fx_file /e/c3/conda-meta/cudatoolkit-11.8.0-h0_0.json '{}'
fx_file /e/envs.txt ""
fx_file /h/.conda/environments.txt "/e/c1
/e/c2
/e/c3"
fx_doctor_env HOME=/h WORKON_HOME=/e
is "$(fx_py_env /e/vv '"\(.python_version) \(.system_site_packages) \(.base_prefix)"')" \
    "3.9 true /usr" "virtualenv's version_info; include-system-site-packages = true"
is "$(fx_py_env /e/c1 '"\(.python_version) \(.python)"')" "3.8 /e/c1/bin/python3.8" \
    "a conda env without a python record: the version from bin/python3's target"
is "$(fx_py_env /e/c2 '"\(.python_version) \(.python) \(.site_packages | length)"')" \
    "3.12 null 2" "from lib/python3.X, the newest; no interpreter"
is "$(fx_py_env /e/c3 '"\(.python_version) \(.python) \(.site_packages | length) \(.lib_dir)"')" \
    "null null 0 null" "a conda env without Python is still an environment"

# --- HOME
fx_new
fx_conda_base /home/z/miniconda3 3.10
fx_system_python /usr 3.11
fx_doctor_env PATH=/usr/bin
fx_ran_ok "doctor runs without HOME"
is "$(fx_jq '.facts.notes[] | select(.path == "HOME") | .problem')" \
    'not set: the environments under /home/z were not looked for' \
    "no HOME, with environments in a home directory, is a note naming it"
is "$(fx_jq '[.facts.python_envs[].prefix] | join(" ")')" /usr \
    "... and the home-based sources are skipped"
fx_doctor_env HOME=/home/z PATH=/usr/bin
is "$(fx_jq '[.facts.python_envs[].prefix] | join(" ")')" "/usr /home/z/miniconda3" \
    "with HOME, ~/miniconda3 is found"
is "$(fx_jq '.facts.notes | length')" 0 "... and nothing is noted"
fx_doctor_env HOME=home/z PATH=/usr/bin
like "$(fx_jq '.facts.notes[] | select(.path == "HOME") | .problem')" 'not an absolute path \(home/z\)' \
    "a relative HOME is a note"
rm -rf "$FX/home/z/miniconda3"
fx_dir /root/.pyenv/versions
fx_doctor_env PATH=/usr/bin
is "$(fx_jq '.facts.notes[] | select(.path == "HOME") | .problem')" \
    'not set: the environments under /root were not looked for' "... /root too"
rm -rf "$FX/root/.pyenv"
fx_doctor_env PATH=/usr/bin
is "$(fx_jq '.facts.notes | length')" 0 "no HOME and nothing in home directories: no note"

# --- an empty tree: an empty list, not null
fx_new
fx_doctor_env
is "$(fx_jq '.facts.python_envs | "\(type) \(length)"')" "array 0" \
    "no environment: an empty array"

done_testing
