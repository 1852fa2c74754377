#!/bin/sh
# A hostile tree: 100,000 files in one site-packages directory. A tenth
# are dist-info names of no interest, a tenth claim to be NVIDIA wheels
# (files, not directories), a tenth are dist-info names without a version
# and the rest are modules. doctor must stay fast and small: the packages
# are counted from the listing, only 256 of one kind are read and listed,
# ten odd names are noted and the rest counted, and the real torch and
# cuDNN wheel among them are still read.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_python.sh"
. "$TESTS_SRCDIR/lib/fx_hostile.sh"

command -v python3 >/dev/null 2>&1 ||
    skip_all "python3 is not installed (Debian package: python3)"

hostile_baseline

fx_new
V=/v
S=$V/lib/python3.11/site-packages
fx_venv $V 3.11
fx_dist_info $S torch 2.4.0 "Requires-Dist: nvidia-cudnn-cu12 ==9.1.0.70"
fx_dist_info $S nvidia-cudnn-cu12 9.1.0.70
python3 "$TESTS_SRCDIR/lib/manyfiles.py" "$FX$S" 100000 \
    'mod_%06d.py' 'mod_%06d.so' 'pkg%06d-1.0.dist-info' \
    'nvidia_fake%06d_cu12-12.1.0.dist-info' 'noversion%06d.dist-info' \
    'mod_%06d.pyc' 'mod_%06d.txt' 'mod_%06d.pth' 'mod_%06d.egg-link' \
    'mod_%06d' || skip_all "cannot make 100,000 files in $FX_TMP"
is "$(ls -f "$FX$S" | wc -l)" 100004 "the site-packages holds 100,002 entries (and . ..)"

hostile_run "doctor --json" "doctor --json" VIRTUAL_ENV=$V PATH=$V/bin
count=$(fx_py_env $V '.package_count')
is "$count" 30002 "every dist-info name is counted (30,002)"
listed=$(fx_py_env $V '.packages | length')
ok "at most 256 fake NVIDIA wheels and the real ones are listed ($listed)" \
    [ "${listed:-0}" -ge 3 ] && [ "${listed:-0}" -le 258 ]
is "$(fx_py_env $V '[.packages[] | select(.name | startswith("nvidia_fake"))] | length')" 255 \
    "255 of the fakes were read (the real cuDNN wheel is the 256th nvidia-*)"
like "$(fx_py_env $V '[.packages[] | select(.name | startswith("nvidia_fake"))][0].metadata_error')" \
    'METADATA: Not a directory' "a fake (a file) has a metadata_error, not a crash"
is "$(fx_py_env $V '.packages[] | select(.name == "torch") | .requires | join(" ")')" \
    "nvidia-cudnn-cu12 ==9.1.0.70" "torch's METADATA is still read past 10,000 fakes"
is "$(fx_py_env $V '.packages[] | select(.name == "nvidia-cudnn-cu12") | .version')" \
    9.1.0.70 "the real cuDNN wheel is still read"
like "$(hostile_note $V)" 'more packages of one kind .* 256 of each kind were read, 9745 more are only counted' \
    "the cap is noted with what it left out"
like "$(hostile_note $S | head -n 1)" 'noversion0000..\.dist-info: no version in the name' \
    "a dist-info name without a version is noted"
like "$(hostile_note $S)" '^9990 more dist-info or egg-info names without a version$' \
    "past ten, they are counted in one note"
ok "the notes stay few ($(fx_jq '.facts.notes | length'))" \
    [ "$(fx_jq '.facts.notes | length')" -le 20 ]
size=$(wc -c < "$FX_OUT")
ok "the JSON stays small ($size bytes, at most 2 MB)" [ "$size" -le 2097152 ]

hostile_run "doctor (text)" doctor VIRTUAL_ENV=$V PATH=$V/bin
lines=$(wc -l < "$FX_OUT")
ok "the text report stays short ($lines lines, at most 150)" [ "$lines" -le 150 ]
like "$(cat "$FX_OUT")" '9990 more dist-info' "the text carries the counting note"

hostile_run "env --shell sh" "env --shell sh" VIRTUAL_ENV=$V PATH=$V/bin
ok "the script is valid sh" sh -n "$FX_OUT"

# The tree is big: remove it now, not at exit.
rm -rf "${FX:?}$S"

done_testing
