#!/bin/sh
# `cudawiz env --toolkit DIR` and `--cudnn DIR` (issue 18, point 6): any
# directory that holds a toolkit or a cuDNN is taken, found by doctor or
# not (unpacked in a home directory, under /opt/apps), named relatively,
# with spaces, through a symbolic link; a directory that holds none is
# refused with exit 2, saying what it lacks. The script written is sourced
# in sh to see the paths it sets.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

P=/usr/bin:/bin
j() { jq -r "$1" "$FX_OUT" 2>/dev/null; }

# home_toolkit DIR VERSION: a toolkit as NVIDIA's runfile unpacks it with
# --toolkitpath: bin/nvcc, lib64/ with the runtime (a real ELF with its
# soname), version.json; nothing under /usr/local.
home_toolkit() {
	fx_file "$1/version.json" "{ \"cuda\": { \"name\": \"CUDA SDK\", \"version\": \"$2\" } }"
	fx_cudart "$1/lib64" "$2"
	fx_file "$1/bin/nvcc" "#!/bin/sh"
	chmod +x "$FX$1/bin/nvcc"
}

# sourced FILE: the script in FILE sourced by sh from PATH=$P with
# LD_LIBRARY_PATH, CUDA_HOME unset; prints the three, one a line.
sourced() {
	env -i PATH=$P sh -c '. "$1" && printf "%s\n" "${CUDA_HOME-unset}" \
	    "$PATH" "${LD_LIBRARY_PATH-unset}"' sh "$1" 2>&1
}

fx_new
fx_healthy_gpu
fx_toolkit 11.8.0
HOME_TK=/home/u/cuda-12.4
home_toolkit $HOME_TK 12.4.1

# doctor does not find it: nothing names it.
fx_doctor_env PATH=$P HOME=/home/u
is "$(fx_jq '[.facts.toolkits[].root] | join(" ")')" "/usr/local/cuda-11.8" \
    "doctor finds only /usr/local/cuda-11.8, not the toolkit in the home"

# --toolkit naming it: probed as a toolkit all the same.
fx_cmd_env env PATH=/usr/local/cuda-11.8/bin:$P HOME=/home/u \
    LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 -- --json --toolkit $HOME_TK
is "$FX_RC" 0 "--toolkit $HOME_TK (not found by doctor): exit 0"
is "$(j .plan.name)" "cuda-12.4.1" "... the plan is named for its version.json"
is "$(j .plan.cuda_home.op):$(j .plan.cuda_home.value)" "set:$HOME_TK" \
    "... CUDA_HOME set to it"
is "$(j .plan.cuda_path.value)" "$HOME_TK" "... CUDA_PATH too"
is "$(j '.plan.path.prepend | join(" ")')" "$HOME_TK/bin" "... its bin/ first on PATH"
is "$(j '.plan.ld_library_path.prepend | join(" ")')" "$HOME_TK/lib64" \
    "... its lib64/ first on LD_LIBRARY_PATH"
is "$(j '.plan.path.remove | join(" ")')" "/usr/local/cuda-11.8/bin" \
    "... the other toolkit's bin/ taken out of PATH"
is "$(j '.plan.ld_library_path.remove | join(" ")')" "/usr/local/cuda-11.8/lib64" \
    "... and its lib64 out of LD_LIBRARY_PATH"

# The sh script sets those paths when sourced.
fx_cmd_env env PATH=$P HOME=/home/u -- --shell sh --toolkit $HOME_TK
is "$FX_RC" 0 "--shell sh --toolkit $HOME_TK: exit 0"
is "$(sourced "$FX_OUT")" "$HOME_TK
$HOME_TK/bin:$P
$HOME_TK/lib64" "... sourced in sh: CUDA_HOME, PATH and LD_LIBRARY_PATH"

# The targets/*/lib layout, under /opt/apps (a cluster's software tree).
fx_file /opt/apps/cuda-12.6/version.json '{ "cuda": { "version": "12.6.2" } }'
fx_cudart /opt/apps/cuda-12.6/targets/x86_64-linux/lib 12.6.77
fx_file /opt/apps/cuda-12.6/bin/nvcc "#!/bin/sh"
chmod +x "$FX/opt/apps/cuda-12.6/bin/nvcc"
fx_cmd_env env PATH=$P -- --json --toolkit /opt/apps/cuda-12.6/
is "$FX_RC" 0 "--toolkit /opt/apps/cuda-12.6/ (trailing slash): exit 0"
is "$(j .plan.cuda_home.value)" "/opt/apps/cuda-12.6" "... CUDA_HOME without the slash"
is "$(j '.plan.ld_library_path.prepend | join(" ")')" \
    "/opt/apps/cuda-12.6/targets/x86_64-linux/lib" \
    "... its targets/x86_64-linux/lib first on LD_LIBRARY_PATH"

# Relative names: from the current directory, which under --root is $PWD.
for rel in cuda-12.4 ./cuda-12.4 ../u/cuda-12.4 cuda-12.4/; do
	fx_cmd_env env PATH=$P PWD=/home/u -- --json --toolkit "$rel"
	is "$FX_RC:$(j .plan.cuda_home.value)" "0:$HOME_TK" \
	    "--toolkit $rel from PWD=/home/u: $HOME_TK"
done
fx_cmd_env env PATH=$P -- --json --toolkit cuda-12.4
is "$FX_RC" 2 "--toolkit cuda-12.4 under --root without PWD: exit 2"
like "$(cat "$FX.stderr")" "relative directory under --root is taken from \\\$PWD" \
    "... saying where a relative directory is taken from"
# A version is a version, even with a directory of that name there.
fx_dir /home/u/12.4
fx_cmd_env env PATH=$P PWD=/home/u -- --json --toolkit 12.4
is "$FX_RC" 2 "--toolkit 12.4 (no such version found): a version, exit 2"
like "$(cat "$FX.stderr")" "no CUDA toolkit matches '12\\.4'" "... looked up as a version"

# On the host, a relative name is taken from the working directory.
host_out=$(cd "$FX/home/u" && env -i PATH=$P LC_ALL=C \
    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
    "$CUDAWIZ" env --json ${FX_MATRIX:+--matrix "$FX_MATRIX"} --toolkit ./cuda-12.4 \
    2> "$FX.stderr")
is "$?:$(printf '%s' "$host_out" | jq -r .plan.cuda_home.value 2>/dev/null)" \
    "0:$(cd "$FX/home/u/cuda-12.4" && pwd -P)" \
    "on the host, --toolkit ./cuda-12.4 is the one in the working directory"

# Spaces in the name: quoted in the script.
SP="/home/u/my tools/cuda 12.4"
home_toolkit "$SP" 12.4.1
fx_cmd_env env PATH=$P -- --shell sh --toolkit "$SP"
is "$FX_RC" 0 "--toolkit '$SP': exit 0"
is "$(sourced "$FX_OUT")" "$SP
$SP/bin:$P
$SP/lib64" "... sourced in sh: the paths whole"

# A symbolic link to a toolkit: the toolkit it leads to, by its real name
# (the script keeps to what was looked at, even if the link is moved).
fx_link cuda-12.4 /home/u/cuda
fx_cmd_env env PATH=$P -- --json --toolkit /home/u/cuda
is "$FX_RC:$(j .plan.cuda_home.value)" "0:$HOME_TK" \
    "--toolkit /home/u/cuda (a link to cuda-12.4): $HOME_TK"
# A link that leads nowhere.
fx_link cuda-99 /home/u/gone
fx_cmd_env env PATH=$P -- --json --toolkit /home/u/gone
is "$FX_RC" 2 "--toolkit naming a dangling link: exit 2"
like "$(cat "$FX.stderr")" "--toolkit /home/u/gone: no such directory" "... no such directory"

# What is not a toolkit.
fx_cmd_env env PATH=$P -- --json --toolkit $HOME_TK/version.json
is "$FX_RC" 2 "--toolkit naming a file: exit 2"
like "$(cat "$FX.stderr")" "--toolkit $HOME_TK/version\\.json: not a directory" \
    "... not a directory"
is "$(wc -c < "$FX_OUT")" 0 "... and no script on stdout"
fx_dir /home/u/empty
fx_cmd_env env PATH=$P -- --json --toolkit /home/u/empty
is "$FX_RC" 2 "--toolkit naming an empty directory: exit 2"
like "$(cat "$FX.stderr")" \
    "/home/u/empty has no version\\.json or version\\.txt, no lib64/libcudart\\.so\\.N .*no bin/nvcc: it holds no CUDA toolkit" \
    "... saying what it lacks"
fx_cmd_env env PATH=$P -- --json --toolkit /home/u/nowhere
is "$FX_RC" 2 "--toolkit naming nothing: exit 2"
like "$(cat "$FX.stderr")" "--toolkit /home/u/nowhere: no such directory" "... no such directory"
fx_file /home/u/half/version.json '{ "cuda": { "version": "12.2.0" } }'
fx_cmd_env env PATH=$P -- --json --toolkit /home/u/half
is "$FX_RC" 2 "--toolkit naming a directory with only version.json: exit 2"
like "$(cat "$FX.stderr")" "says CUDA 12\\.2\\.0, but there is no lib64/libcudart\\.so\\.N .*nothing to put on PATH" \
    "... nothing to put on a path"

# A directory that cannot be read (run as nobody: root reads anything).
fx_dir /home/u/locked/bin
chmod 000 "$FX/home/u/locked"
if fx_drop_privileges; then
	fx_cmd_env env PATH=$P -- --json --toolkit /home/u/locked
	is "$FX_RC" 2 "--toolkit naming an unreadable directory: exit 2"
	like "$(cat "$FX.stderr")" "--toolkit /home/u/locked: cannot look at it: Permission denied" \
	    "... saying so"
	fx_keep_privileges
else
	skip "an unreadable --toolkit directory" "$FX_DROP_WHY"
	skip "... saying so" "$FX_DROP_WHY"
fi
chmod 755 "$FX/home/u/locked"

# ------------------------------------------------------------ --cudnn
# The library directory itself.
fx_cudnn /home/u/cudnn-lib 9.1.0
fx_cmd_env env PATH=$P -- --json --cudnn /home/u/cudnn-lib
is "$FX_RC" 0 "--cudnn naming a directory with libcudnn.so.9: exit 0"
is "$(j '.plan.ld_library_path.prepend | join(" ")')" "/home/u/cudnn-lib" \
    "... it goes on LD_LIBRARY_PATH"
# NVIDIA's archive unpacked: lib/ and include/cudnn_version.h.
A="/opt/apps/cudnn 9.1"
fx_cudnn "$A/lib" 9.1.0 split
fx_cudnn_header "$A/include/cudnn_version.h" 9.1.0
fx_cmd_env env PATH=$P -- --json --toolkit $HOME_TK --cudnn "$A"
is "$FX_RC" 0 "--cudnn naming an unpacked archive (lib/, include/): exit 0"
is "$(j '.plan.ld_library_path.prepend | join("|")')" "$A/lib|$HOME_TK/lib64" \
    "... its lib/ on LD_LIBRARY_PATH, before the toolkit's"
like "$(j '.plan.notes | join("\n")')" "put cuDNN 9\\.1\\.0 \\(libcudnn\\.so\\.9\\) in $A/lib on LD_LIBRARY_PATH" \
    "... a note names its version, from the header"
fx_cmd_env env PATH=$P -- --shell sh --cudnn "$A"
is "$(sourced "$FX_OUT" | sed -n 3p)" "$A/lib" "... sourced in sh: LD_LIBRARY_PATH is its lib/"
fx_cmd_env env PATH=$P PWD=/opt/apps -- --json --cudnn "cudnn 9.1"
is "$FX_RC:$(j '.plan.ld_library_path.prepend | join(" ")')" "0:$A/lib" \
    "--cudnn 'cudnn 9.1' from PWD=/opt/apps: relative, with a space"
fx_cmd_env env PATH=$P -- --json --cudnn /home/u/empty
is "$FX_RC" 2 "--cudnn naming an empty directory: exit 2"
like "$(cat "$FX.stderr")" "/home/u/empty has no libcudnn\\.so\\.N, in it or in its lib/ or lib64/: it holds no cuDNN" \
    "... saying what it lacks"
fx_cmd_env env PATH=$P -- --json --cudnn $HOME_TK
is "$FX_RC" 2 "--cudnn naming a toolkit without cuDNN: exit 2"
fx_cmd_env env PATH=$P -- --json --cudnn "$A/include/cudnn_version.h"
is "$FX_RC" 2 "--cudnn naming a file: exit 2"
like "$(cat "$FX.stderr")" "not a directory" "... not a directory"
fx_cmd_env env PATH=$P -- --json --cudnn /opt/none
is "$FX_RC" 2 "--cudnn naming nothing: exit 2"
like "$(cat "$FX.stderr")" "--cudnn /opt/none: no such directory" "... no such directory"

done_testing
