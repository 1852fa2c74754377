# Fixture helpers for Python environments. Source after fixture.sh.
# Paths are inside the tree, as for fx_file; PYVER is "3.10" (major.minor).
#
#   fx_python_elf PATH [RPATH]
#         a real ELF executable (with a PT_INTERP) at PATH, built once per
#         RPATH with $FIXTURE_CC and copied after that; RPATH becomes
#         DT_RPATH (--disable-new-dtags), written as given: '$ORIGIN/../lib'
#         as conda's python has it
#   fx_conda_env PREFIX PYVER
#         a conda environment: conda-meta/history and the python record
#         (python-PYVER.0-h12345_0_cpython.json), bin/pythonPYVER (ELF with
#         RPATH $ORIGIN/../lib) with python3 and python links to it, lib/
#         and lib/pythonPYVER/site-packages
#   fx_conda_base PREFIX PYVER
#         fx_conda_env plus condabin/ and envs/: a base install
#   fx_venv PREFIX PYVER [BASE]
#         a venv as `python3 -m venv` makes it: pyvenv.cfg (home = BASE/bin,
#         include-system-site-packages = false, version = PYVER.0),
#         bin/python -> BASE/bin/pythonPYVER, python3 and pythonPYVER ->
#         python, lib/pythonPYVER/site-packages, lib64 -> lib. BASE is /usr
#         when absent; its bin/pythonPYVER is made (an ELF) when missing
#   fx_system_python PREFIX PYVER
#         a distribution Python under PREFIX (/usr): bin/pythonPYVER (ELF),
#         bin/python3 -> pythonPYVER, lib/python3/dist-packages
#   fx_dist_info SITE NAME VERSION [LINE...]
#         SITE/NAME_-VERSION.dist-info (the name escaped as pip does: '-'
#         and '.' become '_') with METADATA: Metadata-Version, Name: NAME,
#         Version: VERSION, then each LINE ("Requires-Dist: nvidia-cudnn-cu12
#         ==9.1.0.70"); a single LINE "-" reads the lines from stdin
#   fx_conda_pkg PREFIX NAME VERSION BUILD CHANNEL [DEPENDS...]
#         PREFIX/conda-meta/NAME-VERSION-BUILD.json as conda writes it
#         (keys sorted, a files list); CHANNEL "conda-forge" is written as
#         https://conda.anaconda.org/conda-forge/linux-64, "pkgs/main" as
#         https://repo.anaconda.com/pkgs/main/linux-64, "" leaves it out;
#         each DEPENDS ("cuda-version >=12.0,<13") joins "libgcc-ng >=12"
#         in its depends array
#   fx_py_env PREFIX FILTER
#         jq -r FILTER on the python_envs entry with that prefix in the
#         last doctor run (empty when there is none)

fx_python_elf() {
	fx_pydir=${FX_SOCACHE:-$FX_TMP/cudawiz-so-cache.$(id -u)}
	mkdir -p "$fx_pydir" "$(dirname "$FX$1")"
	fx_pykey=$(printf '%s' "${2:-}" | cksum | cut -d' ' -f1)
	fx_pyexe=$fx_pydir/python-elf.$fx_pykey
	if [ ! -s "$fx_pyexe" ]; then
		if [ -n "${2:-}" ]; then
			printf 'int main(void) { return 0; }\n' |
			    $FIXTURE_CC -x c -o "$fx_pyexe.tmp.$$" - \
			    -Wl,--disable-new-dtags -Wl,-rpath,"$2" || return 1
		else
			printf 'int main(void) { return 0; }\n' |
			    $FIXTURE_CC -x c -o "$fx_pyexe.tmp.$$" - || return 1
		fi
		mv -f "$fx_pyexe.tmp.$$" "$fx_pyexe"
	fi
	cp "$fx_pyexe" "$FX$1"
	chmod 755 "$FX$1"
}

fx_conda_env() {
	fx_file "$1/conda-meta/history" "==> 2024-01-01 00:00:00 <=="
	fx_conda_pkg "$1" python "$2.0" h12345_0_cpython conda-forge
	fx_python_elf "$1/bin/python$2" '$ORIGIN/../lib'
	fx_link "python$2" "$1/bin/python3"
	fx_link "python$2" "$1/bin/python"
	fx_dir "$1/lib/python$2/site-packages"
}

fx_conda_base() {
	fx_conda_env "$1" "$2"
	fx_dir "$1/condabin"
	fx_dir "$1/envs"
}

fx_venv() {
	fx_vbase=${3:-/usr}
	[ -e "$FX$fx_vbase/bin/python$2" ] ||
	    fx_python_elf "$fx_vbase/bin/python$2"
	fx_file "$1/pyvenv.cfg" "home = $fx_vbase/bin
include-system-site-packages = false
version = $2.0
executable = $fx_vbase/bin/python$2
command = $fx_vbase/bin/python$2 -m venv $1"
	fx_link "$fx_vbase/bin/python$2" "$1/bin/python"
	fx_link python "$1/bin/python3"
	fx_link python "$1/bin/python$2"
	fx_dir "$1/lib/python$2/site-packages"
	fx_link lib "$1/lib64"
}

fx_system_python() {
	fx_python_elf "$1/bin/python$2"
	fx_link "python$2" "$1/bin/python3"
	fx_dir "$1/lib/python3/dist-packages"
}

fx_dist_info() {
	fx_dsite=$1
	fx_dname=$2
	fx_dver=$3
	shift 3
	fx_ddir=$fx_dsite/$(printf '%s' "$fx_dname" | tr -- '-.' '__')-$fx_dver.dist-info
	{
		printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' \
		    "$fx_dname" "$fx_dver"
		if [ $# = 1 ] && [ "$1" = - ]; then
			cat
		else
			for fx_dl in "$@"; do
				printf '%s\n' "$fx_dl"
			done
		fi
		printf '\nThe description, which is never read.\n'
	} | fx_file "$fx_ddir/METADATA"
	fx_file "$fx_ddir/RECORD" ""
}

fx_conda_pkg() {
	case $5 in
	"") fx_cch= ;;
	pkgs/*) fx_cch="https://repo.anaconda.com/$5/linux-64" ;;
	*) fx_cch="https://conda.anaconda.org/$5/linux-64" ;;
	esac
	fx_cpath="$1/conda-meta/$2-$3-$4.json"
	fx_cname=$2
	fx_cver=$3
	fx_cbuild=$4
	shift 5
	{
		printf '{\n  "build": "%s",\n  "build_number": 0,\n' "$fx_cbuild"
		[ -n "$fx_cch" ] && printf '  "channel": "%s",\n' "$fx_cch"
		printf '  "depends": [\n    "libgcc-ng >=12"'
		for fx_cdep in "$@"; do
			printf ',\n    "%s"' "$fx_cdep"
		done
		printf '\n  ],\n'
		printf '  "files": [\n    "lib/lib%s.so"\n  ],\n' "$fx_cname"
		printf '  "name": "%s",\n' "$fx_cname"
		printf '  "paths_data": {\n    "paths": [\n      {\n        "_path": "lib/lib%s.so",\n        "path_type": "hardlink"\n      }\n    ],\n    "paths_version": 1\n  },\n' "$fx_cname"
		printf '  "version": "%s"\n}\n' "$fx_cver"
	} | fx_file "$fx_cpath"
}

fx_py_env() {
	jq -r --arg p "$1" "[.facts.python_envs[]? | select(.prefix == \$p)][0] // empty | $2" \
	    "$FX_OUT" 2>/dev/null
}
