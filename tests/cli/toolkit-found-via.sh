#!/bin/sh
# Toolkit probe: CUDA_HOME, CUDA_PATH and the nvcc on PATH, reached
# through absolute and relative symlinks and wrapper scripts, merge into
# one fact per real directory.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

tk=/usr/local/cuda-12.4

# --- CUDA_HOME through a relative link outside the standard places
fx_new
fx_toolkit 12.4.1
fx_link ../usr/local/cuda-12.4 /srv/cuda
FX_ENV="CUDA_HOME=/srv/cuda"
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 1 "CUDA_HOME to the same toolkit: one fact"
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,CUDA_HOME" "found via CUDA_HOME too"
is "$(fx_tk_json '.aliases | join(",")')" /srv/cuda "the CUDA_HOME link is an alias"

# --- CUDA_PATH with a trailing slash through the /usr/local/cuda link
fx_link cuda-12.4 /usr/local/cuda
FX_ENV="CUDA_HOME=/srv/cuda CUDA_PATH=/usr/local/cuda/"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,CUDA_HOME,CUDA_PATH" \
    "found via CUDA_PATH (trailing slash)"
is "$(fx_tk_json '.aliases | sort | join(",")')" "/srv/cuda,/usr/local/cuda" \
    "each alias once, without the slash"

# --- nvcc on PATH through a relative link
fx_new
fx_toolkit 12.4.1
fx_link ../local/cuda-12.4/bin/nvcc /usr/bin/nvcc
FX_ENV="PATH=/usr/bin:/bin"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,PATH" "PATH nvcc through a relative link"
is "$(fx_jq '[.facts.toolkits[].root] | join(",")')" "$tk" "no toolkit invented at /usr"

# --- nvcc on PATH through an absolute link to a link
fx_new
fx_toolkit 12.4.1
fx_link /usr/local/cuda-12.4 /usr/local/cuda
fx_link /usr/local/cuda/bin/nvcc /usr/local/bin/nvcc
FX_ENV="PATH=/nonexistent::/usr/local/bin:/usr/bin"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,PATH" "PATH nvcc through absolute links"
is "$(fx_tk_json '.aliases | join(",")')" /usr/local/cuda "the PATH entry adds no alias"

# --- a wrapper script that execs the real nvcc (as this build machine
# and Debian have)
fx_new
fx_toolkit 12.4.1
fx_file /usr/local/bin/nvcc '#!/bin/sh
exec /usr/local/cuda-12.4/bin/nvcc "$@"'
chmod +x "$FX/usr/local/bin/nvcc"
FX_ENV="PATH=/usr/local/bin:/usr/bin"
fx_doctor
is "$(fx_jq '[.facts.toolkits[].root] | join(",")')" "$tk" "the wrapper leads to the toolkit, not to /usr/local"
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,PATH" "found via PATH"

# --- the first nvcc on PATH wins; a non-executable one is skipped
fx_new
fx_toolkit 12.4.1
fx_toolkit 13.0.1
chmod -x "$FX/usr/local/cuda-13.0/bin/nvcc"
fx_file /opt/tools/bin/nvcc "#!/bin/sh"
chmod -x "$FX/opt/tools/bin/nvcc"
FX_ENV="PATH=/opt/tools/bin:/usr/local/cuda-13.0/bin:/usr/local/cuda-12.4/bin:/usr/bin"
fx_doctor
is "$(fx_jq '[.facts.toolkits[] | select(.found_via | index("PATH")) | .version] | join(",")')" \
    12.4.1 "only the first executable nvcc on PATH counts"
chmod +x "$FX/usr/local/cuda-13.0/bin/nvcc"
fx_doctor
is "$(fx_jq '[.facts.toolkits[] | select(.found_via | index("PATH")) | .version] | join(",")')" \
    13.0.1 "earlier PATH entry wins once executable"

# --- every way at once, in the documented order
fx_new
fx_toolkit 12.4.1
fx_link cuda-12.4 /usr/local/cuda
FX_ENV="CUDA_HOME=/usr/local/cuda CUDA_PATH=$tk PATH=/usr/local/cuda/bin"
fx_doctor
is "$(fx_tk_json '.found_via | join(",")')" "/usr/local/cuda*,CUDA_HOME,CUDA_PATH,PATH" \
    "found_via lists every way once, in order"

# --- CUDA_HOME outside every standard place
fx_new
t=/home/u/sdk/cuda
fx_file $t/version.json '{"cuda": {"version": "12.1.105"}}'
fx_cudart $t/lib64 12.1.105
FX_ENV="CUDA_HOME=$t"
fx_doctor
is "$(fx_tk_json .root)" "$t" "a CUDA_HOME toolkit anywhere is found"
is "$(fx_tk_json '.found_via | join(",")')" CUDA_HOME "found only via CUDA_HOME"

# --- CUDA_HOME that is no toolkit, or missing: nothing invented
fx_new
fx_dir /home/u/empty
FX_ENV="CUDA_HOME=/home/u/empty CUDA_PATH=/nonexistent"
fx_doctor
is "$(fx_jq '.facts.toolkits | length')" 0 "an empty CUDA_HOME is not a toolkit"
is "$(fx_jq '[.facts.notes[] | select(.path == "/nonexistent")] | length')" 0 \
    "a missing CUDA_PATH is left to the environment rules"

done_testing
