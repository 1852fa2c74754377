#!/bin/sh
# The wheel (make wheel, dist/cudawiz-VERSION-py3-none-manylinux_2_28_ARCH.whl)
# installed offline into a fresh venv of Debian's Python: the console
# script and `python -m cudawiz` run the bundled binary, which finds its
# bundled helper; the API's reports on a broken fixture root hold the
# findings the CLI's --json holds, their HTML shows each finding and fix
# and fetches nothing; errors are CudawizError; pip uninstall leaves
# nothing behind (the RECORD is right).
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/pkg/wheel-common.sh"

py=${WHEEL_TEST_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || skip_all "$py is missing (Debian package: python3)"
"$py" -c 'import venv, ensurepip' 2>/dev/null ||
    skip_all "$py has no venv/ensurepip (Debian package: python3-venv)"

wheel_find "$(uname -m)" portable wheel

work=$(mktemp -d "$FX_TMP/wheel-install.XXXXXX") || exit 99
fx_dirs="${fx_dirs:-} $work"

# The archive itself: every RECORD line's hash and size, the tag, and the
# binaries' mode (pip keeps the zip's mode bits).
check=$("$py" - "$whl" <<'EOF'
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
rec = [n for n in names if n.endswith(".dist-info/RECORD")]
bad = []
for line in z.read(rec[0]).decode().splitlines():
    path, h, size = line.rsplit(",", 2)
    if path == rec[0]:
        continue
    data = z.read(path)
    d = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if d != h or int(size) != len(data):
        bad.append("RECORD wrong for " + path)
if sorted(l.rsplit(",", 2)[0] for l in z.read(rec[0]).decode().splitlines()) != sorted(names):
    bad.append("RECORD does not list exactly the archive's files")
for b in ("cudawiz/_bin/cudawiz", "cudawiz/_bin/cudawiz-verify"):
    mode = (z.getinfo(b).external_attr >> 16) & 0o777
    if mode != 0o755:
        bad.append("%s has mode %o" % (b, mode))
wheel = z.read([n for n in names if n.endswith(".dist-info/WHEEL")][0]).decode()
for want in ("Root-Is-Purelib: false", "Tag: py3-none-manylinux_2_28_"):
    if want not in wheel:
        bad.append("WHEEL lacks " + want)
print("\n".join(bad) or "good")
EOF
)
is "$check" good "the wheel's RECORD, tag and binary modes are right"

# A fresh venv, offline: --no-index never reaches an index, and no pip
# configuration of this machine's user applies.
wheel_pip_env
venv=$work/venv
if ! "$py" -m venv "$venv" > "$work/venv.log" 2>&1; then
	sed 's/^/#   /' "$work/venv.log" | tail -n 20
	tap_result 1 "python3 -m venv makes a venv"
	done_testing
	exit 1
fi
"$venv/bin/pip" install --no-index --no-deps --quiet "$whl" > "$work/pip.log" 2>&1
rc=$?
is "$rc" 0 "pip install --no-index installs the wheel into a fresh venv"
[ "$rc" = 0 ] || sed 's/^/#   /' "$work/pip.log" | tail -n 20

site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
bundled=$site/cudawiz/_bin/cudawiz
ok "the binary is installed executable" test -x "$bundled"
ok "its helper beside it" test -x "$site/cudawiz/_bin/cudawiz-verify"

# Both entry points run the bundled binary: the same version line as it,
# whose version is the build's. No CUDAWIZ_BINARY or CUDAWIZ_HELPER from
# make check may leak in.
unset CUDAWIZ_BINARY CUDAWIZ_HELPER
want=$("$bundled" --version | head -n 1)
like "$want" "^cudawiz $version( |\$)" "the bundled binary is version $version"
is "$("$venv/bin/cudawiz" --version | head -n 1)" "$want" \
    "the cudawiz console script runs it"
is "$("$venv/bin/python" -m cudawiz --version | head -n 1)" "$want" \
    "python -m cudawiz runs it"
"$venv/bin/cudawiz" doctor --no-such-option > /dev/null 2>&1
is "$?" 2 "the script passes the binary's exit status through"

"$venv/bin/cudawiz" doctor --json > "$work/host.json" 2> "$work/host.err"
rc=$?
ok "cudawiz doctor --json on this machine exits 0 or 1 (got $rc)" test "$rc" -le 1
is "$(jq -r .schema "$work/host.json" 2>&1)" cudawiz/doctor/1 \
    "and prints its JSON document"
# The helper is found beside the binary (/proc/self/exe): verify says
# nothing about a missing helper.
"$venv/bin/cudawiz" verify --quick --json > "$work/verify.json" 2>&1
is "$(jq -r .verify.helper "$work/verify.json" | xargs realpath 2>&1)" \
    "$(realpath "$site/cudawiz/_bin/cudawiz-verify")" \
    "cudawiz verify runs the bundled helper"

# ------------------------------------------------------ the API on a fixture
# A broken machine: a GPU and driver, CUDA 13, but every GPU hidden and a
# missing CUDA 11.8 directory first on LD_LIBRARY_PATH.
fx_new
fx_cuda13_machine
set -- PATH=/usr/local/cuda/bin:/usr/bin:/bin CUDA_HOME=/usr/local/cuda \
    LD_LIBRARY_PATH=/opt/cuda-11.8/lib64 CUDA_VISIBLE_DEVICES=-1

# The CLI, through the console script (fx_cmd_env runs $CUDAWIZ).
CUDAWIZ=$venv/bin/cudawiz
fx_doctor_env "$@"
cli_rc=$FX_RC
cli_codes=$(fx_jq '[.findings[].code] | join(" ")')
ok "the fixture is broken (exit 1, findings: $cli_codes)" test "$cli_rc" = 1
msg='ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory'
fx_cmd_env "explain --json" "$@" -- "$msg"
explain_codes=$(fx_jq '[.findings[].code] | join(" ")')
fx_cmd_env "why --json" "$@" -- libcudart.so.12
why_cli="$(fx_jq .resolved) $FX_RC"

# The API, in the same clean environment, the JSON of each report and its
# HTML minus the JSON block (what a notebook shows).
env -i LC_ALL=C "$@" "$venv/bin/python" - "$FX" "$FX_MATRIX" "$msg" "$work" \
    > "$work/api.out" 2>&1 <<'EOF'
import json, re, sys
import cudawiz
root, matrix, msg, work = sys.argv[1:]
d = cudawiz.doctor(root=root, matrix=matrix)
e = cudawiz.explain(msg, root=root, matrix=matrix)
w = cudawiz.why("libcudart.so.12", root=root)
print("doctor", d.exit_status, d.ok, " ".join(d.codes()))
print("explain", " ".join(e.codes()))
print("why", w.json.get("soname"), w.json.get("resolved") or "null", w.exit_status)
print("repr", repr(d).splitlines()[0])
json.dump(d.findings, open(work + "/findings.json", "w"))
open(work + "/report.html", "w").write(d._repr_html_())
open(work + "/shown.html", "w").write(
    re.sub(r"<script\b[^>]*>.*?</script>", "", d._repr_html_(), flags=re.S))
EOF
api=$(cat "$work/api.out")
like "$api" "^doctor 1 False $cli_codes\$" \
    "cudawiz.doctor(root=FIXTURE): the CLI's findings, exit 1, .ok False"
like "$api" "^explain $explain_codes\$" "cudawiz.explain(): the CLI's findings"
like "$explain_codes" "SONAME_NOT_FOUND" "explain finds the missing libcudart.so.11.0"
like "$api" "^why libcudart.so.12 $why_cli\$" \
    "cudawiz.why('libcudart.so.12'): the CLI's answer ($why_cli: CUDA 13 only here)"
like "$api" "^repr cudawiz doctor: [0-9]+ error" "repr() is the text summary"

# What a notebook shows: each finding's code, title and fix commands, and
# nothing it would fetch.
missing=$("$py" - "$work" 2>&1 <<'EOF'
import html, json, sys
work = sys.argv[1]
shown = html.unescape(open(work + "/shown.html").read())
for f in json.load(open(work + "/findings.json")):
    for s in [f["code"], f["title"]] + f["fix"]:
        if s not in shown:
            print(f["code"] + ": " + s)
EOF
)
is "$missing" "" "_repr_html_() shows every finding's code, title and fix"
like "$(cat "$work/shown.html")" 'class="cudawiz-report"' "inside the report's own div"
ok "_repr_html_() gave a report" test -s "$work/report.html"
unlike "$(cat "$work/report.html")" \
    '<script[^>]+src|<link|<img|<iframe|@import|url\(|src="https?:|srcset' \
    "_repr_html_() loads no script, style sheet, font or image"

# The errors: a clear CudawizError, and a one-line message from the script.
err=$(env -i LC_ALL=C CUDAWIZ_BINARY=/nonexistent "$venv/bin/python" -c '
import cudawiz
try:
    cudawiz.doctor()
except cudawiz.CudawizError as e:
    print("CudawizError:", e)' 2>&1)
like "$err" "^CudawizError: the cudawiz binary /nonexistent .* does not exist" \
    "CUDAWIZ_BINARY=/nonexistent: CudawizError names it"
err=$(env -i LC_ALL=C CUDAWIZ_BINARY=/nonexistent "$venv/bin/cudawiz" --version 2>&1)
rc=$?
is "$rc:$err" "2:cudawiz: the cudawiz binary /nonexistent (set by CUDAWIZ_BINARY) does not exist" \
    "and the script says it in one line, exit 2"

# Uninstalling removes exactly what the RECORD lists: nothing is left.
"$venv/bin/pip" uninstall --yes --quiet cudawiz > "$work/pip-un.log" 2>&1
is "$?" 0 "pip uninstall cudawiz"
left=$(ls -d "$site/cudawiz" "$site"/cudawiz-*.dist-info "$venv/bin/cudawiz" 2>/dev/null)
is "$left" "" "and leaves nothing of it"

done_testing
