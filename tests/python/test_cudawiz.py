"""The Python package (python/cudawiz/) without a wheel.

A stand-in binary (a small Python script, CUDAWIZ_BINARY) shows what the
package passes and how it takes each way a run can go wrong; the real
binary (CUDAWIZ, as make check sets it) shows that the page it writes is
one the package reads, with the same findings as its --json. Run by
tests/python/unittest.sh (TAP), or by hand:

    CUDAWIZ=b/cudawiz python3 -m unittest discover -s tests/python -v
"""

import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PYDIR)

import cudawiz  # noqa: E402
from cudawiz import _report  # noqa: E402

# What the HTML presenter frames (README, "--format html"): a made-up
# report whose JSON holds a "</" the page must escape.
FINDINGS = [
    {"code": "SONAME_NOT_FOUND", "severity": "error",
     "title": "A needed library cannot be found by the dynamic loader",
     "subject": "torch 2.3.1 needs libcudart.so.12", "detail": "d",
     "evidence": ["e </script> e"], "fix": ["pip install nvidia-cuda-runtime-cu12"]},
    {"code": "OPTIONAL_LIB_MISSING", "severity": "info", "title": "t2",
     "subject": None, "detail": "d2", "evidence": [], "fix": []},
]


def page(doc, before="<!doctype html><html><body>", after="</body></html>"):
    js = json.dumps(doc).replace("</", "<\\/")
    return (before + _report.BEGIN +
            '<div class="cudawiz-report"><style>.cudawiz-report{}</style>'
            '<p>the report</p><script type="application/json" '
            'class="cudawiz-json">' + js + "</script></div>" +
            _report.END + after)


# The stand-in: FAKE_MODE says what it does; it writes what it was given
# (argv, stdin, its pid and parent's) into its report's JSON.
FAKE = r'''#!%s
import json, os, sys, time
mode = os.environ.get("FAKE_MODE", "page")
got = {"argv": sys.argv[1:], "stdin": sys.stdin.read() if mode != "pid" else "",
       "pid": os.getpid(), "ppid": os.getppid()}
if mode == "kill":
    os.kill(os.getpid(), 9)
if mode == "usage":
    sys.stderr.write("cudawiz: --bogus: no such option\n"); sys.exit(2)
if mode == "text":
    print("cudawiz 0.1.0: no html here"); sys.exit(0)
if mode in ("pid", "status"):
    print(json.dumps(got)); sys.exit(int(os.environ.get("FAKE_RC", "0")))
doc = {"schema": "cudawiz/doctor/1", "findings": json.loads(os.environ["FAKE_FINDINGS"]),
       "got": got}
sys.stdout.write(os.environ["FAKE_PAGE_HEAD"] + json.dumps(doc).replace("</", "<\\/")
                 + os.environ["FAKE_PAGE_TAIL"])
sys.exit(int(os.environ.get("FAKE_RC", "0")))
'''


class PageTest(unittest.TestCase):
    def test_split_reads_the_frame_and_unescapes(self):
        doc = {"findings": FINDINGS}
        frag, got = _report.split_page(page(doc))
        self.assertEqual(got, doc)
        self.assertTrue(frag.startswith('<div class="cudawiz-report">'), frag[:40])
        self.assertTrue(frag.endswith("</div>"))
        self.assertNotIn("<html", frag)
        self.assertEqual(got["findings"][0]["evidence"], ["e </script> e"])

    def test_split_refuses_pages_without_frame_or_json(self):
        with self.assertRaisesRegex(ValueError, "frame"):
            _report.split_page("<html>no report</html>")
        with self.assertRaisesRegex(ValueError, "cudawiz-json"):
            _report.split_page(_report.BEGIN + "<div></div>" + _report.END)
        bad = (_report.BEGIN + '<script type="application/json" '
               'class="cudawiz-json">{oops</script>' + _report.END)
        with self.assertRaisesRegex(ValueError, "does not parse"):
            _report.split_page(bad)


class FakeBase(unittest.TestCase):
    """CUDAWIZ_BINARY is the stand-in for each test."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudawiz-py.")
        self.fake = os.path.join(self.tmp, "cudawiz")
        with open(self.fake, "w") as f:
            f.write(FAKE % sys.executable)
        os.chmod(self.fake, 0o755)
        head, tail = page("@@").split(json.dumps("@@"))
        self.env = {"CUDAWIZ_BINARY": self.fake, "FAKE_MODE": "page",
                    "FAKE_RC": "0", "FAKE_FINDINGS": json.dumps(FINDINGS),
                    "FAKE_PAGE_HEAD": head, "FAKE_PAGE_TAIL": tail}
        self.saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)

    def tearDown(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.tmp)


class FakeBinaryTest(FakeBase):
    def test_doctor_passes_its_options_and_reads_the_report(self):
        os.environ["FAKE_RC"] = "1"
        r = cudawiz.doctor(root="/some root", verify=False, matrix="m.json")
        self.assertEqual(r.json["got"]["argv"],
                         ["doctor", "--format", "html", "--root", "/some root",
                          "--matrix", "m.json", "--no-verify"])
        self.assertEqual(r.exit_status, 1)
        self.assertFalse(r.ok)
        self.assertEqual(r.codes(), ["SONAME_NOT_FOUND", "OPTIONAL_LIB_MISSING"])
        self.assertEqual(r.findings, FINDINGS)
        self.assertEqual(cudawiz.doctor().json["got"]["argv"],
                         ["doctor", "--format", "html"])

    def test_repr_is_a_text_summary_and_html_the_frame(self):
        r = cudawiz.doctor()
        self.assertTrue(r.ok)
        text = repr(r)
        self.assertIn("cudawiz doctor: 1 error, 1 note", text)
        self.assertIn("x SONAME_NOT_FOUND: A needed library", text)
        self.assertIn("(torch 2.3.1 needs libcudart.so.12)", text)
        self.assertIn("$ pip install nvidia-cuda-runtime-cu12", text)
        self.assertNotIn("<", text)
        frag = r._repr_html_()
        self.assertTrue(frag.startswith('<div class="cudawiz-report">'))
        self.assertNotIn("cudawiz-report begin", frag)

    def test_explain_sends_the_text_on_stdin(self):
        msg = "-x ImportError: libcudart.so.11.0: cannot open shared object file\n"
        r = cudawiz.explain(msg)
        self.assertEqual(r.json["got"]["argv"], ["explain", "--format", "html", "-"])
        self.assertEqual(r.json["got"]["stdin"], msg)
        with self.assertRaises(TypeError):
            cudawiz.explain(b"bytes")

    def test_why_passes_name_and_from(self):
        r = cudawiz.why("libcudart.so.12", from_="/x/libtorch.so")
        self.assertEqual(r.json["got"]["argv"],
                         ["why", "--format", "html", "--from", "/x/libtorch.so",
                          "libcudart.so.12"])
        self.assertEqual(cudawiz.why(from_="/x/a.so").json["got"]["argv"][-2:],
                         ["--from", "/x/a.so"])
        with self.assertRaises(TypeError):
            cudawiz.why()

    def test_errors_say_what_went_wrong(self):
        os.environ["CUDAWIZ_BINARY"] = os.path.join(self.tmp, "nonexistent")
        with self.assertRaisesRegex(cudawiz.CudawizError,
                                    "nonexistent .set by CUDAWIZ_BINARY. does not exist"):
            cudawiz.doctor()
        os.environ["CUDAWIZ_BINARY"] = self.tmp
        with self.assertRaisesRegex(cudawiz.CudawizError, "not an executable"):
            cudawiz.doctor()
        plain = os.path.join(self.tmp, "plain")
        open(plain, "w").close()
        os.environ["CUDAWIZ_BINARY"] = plain
        with self.assertRaisesRegex(cudawiz.CudawizError, "not an executable"):
            cudawiz.doctor()
        os.environ["CUDAWIZ_BINARY"] = self.fake

        os.environ["FAKE_MODE"] = "kill"
        with self.assertRaisesRegex(cudawiz.CudawizError, "killed by SIGKILL") as e:
            cudawiz.doctor()
        self.assertEqual(e.exception.exit_status, -9)

        os.environ["FAKE_MODE"] = "usage"
        with self.assertRaisesRegex(cudawiz.CudawizError,
                                    "exit status 2.*\n.*--bogus: no such option") as e:
            cudawiz.doctor()
        self.assertIn("no such option", e.exception.stderr)

        os.environ["FAKE_MODE"] = "text"
        with self.assertRaisesRegex(cudawiz.CudawizError, "gave no report"):
            cudawiz.doctor()


class MainTest(FakeBase):
    """python -m cudawiz (and the console script, the same main())."""

    def run_main(self, *args, **env):
        e = dict(os.environ, **env)
        return subprocess.run([sys.executable, "-m", "cudawiz"] + list(args),
                              env=dict(e, PYTHONPATH=PYDIR), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def test_argv_and_status_pass_through(self):
        p = self.run_main("doctor", "--json", "a b", FAKE_MODE="status", FAKE_RC="3")
        self.assertEqual(p.returncode, 3)
        self.assertEqual(json.loads(p.stdout)["argv"], ["doctor", "--json", "a b"])

    def test_the_process_becomes_the_binary(self):
        # exec, not a child: signals (Ctrl-C) and the terminal are the
        # binary's, and no Python is left to print a traceback.
        p = subprocess.Popen([sys.executable, "-m", "cudawiz"],
                             env=dict(os.environ, PYTHONPATH=PYDIR, FAKE_MODE="pid"),
                             stdout=subprocess.PIPE)
        out, _ = p.communicate()
        self.assertEqual(json.loads(out)["pid"], p.pid)

    def test_a_missing_binary_is_one_line_and_status_2(self):
        p = self.run_main("--version", CUDAWIZ_BINARY=os.path.join(self.tmp, "gone"))
        self.assertEqual(p.returncode, 2)
        err = p.stderr.decode()
        self.assertRegex(err, r"^cudawiz: the cudawiz binary .*gone .* does not exist\n$")
        self.assertNotIn("Traceback", err)


def real_binary():
    """$CUDAWIZ when it is there and writes --format html, else None."""
    b = os.environ.get("CUDAWIZ")
    if not b or not os.access(b, os.X_OK):
        return None
    p = subprocess.run([b, "doctor", "--format", "html", "--root", HERE,
                        "--no-verify"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return b if _report.BEGIN.encode() in p.stdout else None


REAL = real_binary()


@unittest.skipUnless(REAL, "needs CUDAWIZ set to a cudawiz with --format html")
class RealBinaryTest(unittest.TestCase):
    def setUp(self):
        self.saved = os.environ.get("CUDAWIZ_BINARY")
        os.environ["CUDAWIZ_BINARY"] = REAL
        self.root = tempfile.mkdtemp(prefix="cudawiz-py-root.")

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("CUDAWIZ_BINARY", None)
        else:
            os.environ["CUDAWIZ_BINARY"] = self.saved
        shutil.rmtree(self.root)

    def cli_json(self, *args):
        p = subprocess.run([REAL] + list(args) + ["--json"], stdout=subprocess.PIPE)
        return json.loads(p.stdout), p.returncode

    def test_doctor_matches_the_cli(self):
        r = cudawiz.doctor(root=self.root)
        doc, rc = self.cli_json("doctor", "--root", self.root)
        self.assertEqual(r.codes(), [f["code"] for f in doc["findings"]])
        self.assertEqual(r.exit_status, rc)
        self.assertEqual(r.json["schema"], doc["schema"])
        self.assertTrue(r.findings, "an empty root has findings")

    def test_the_html_shows_every_finding(self):
        r = cudawiz.doctor(root=self.root)
        shown = html.unescape(re.sub(r"<script\b.*?</script>", "", r._repr_html_(),
                                     flags=re.DOTALL))
        for f in r.findings:
            self.assertIn(f["code"], shown)
            self.assertIn(f["title"], shown)
            for fix in f["fix"]:
                self.assertIn(fix, shown)

    def test_explain_and_why(self):
        msg = ("ImportError: libcudart.so.11.0: cannot open shared object "
               "file: No such file or directory")
        r = cudawiz.explain(msg, root=self.root)
        doc, _ = self.cli_json("explain", "--root", self.root, msg)
        self.assertEqual(r.codes(), [f["code"] for f in doc["findings"]])
        self.assertIn("libcudart.so.11.0", r.json["mentions"]["sonames"])
        w = cudawiz.why("libcudart.so.12", root=self.root)
        self.assertEqual(w.json["soname"], "libcudart.so.12")
        self.assertIsNone(w.json["resolved"])
        self.assertEqual(w.exit_status, 1)


# ------------------------------------------------------------------ TAP
class TapResult(unittest.TestResult):
    """One TAP line a test, for automake's harness."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, test, status, note=""):
        self.n += 1
        print("%s %d - %s%s" % (status, self.n, test.id().split(".", 1)[-1], note))
        sys.stdout.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(test, "ok")

    def _bad(self, test, err, kind):
        self._line(test, "not ok")
        text = self._exc_info_to_string(err, test)
        for line in text.rstrip().splitlines():
            print("#   " + line)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, err, "failure")

    def addError(self, test, err):
        super().addError(test, err)
        self._bad(test, err, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(test, "ok", " # SKIP " + reason)


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    sys.exit(0 if result.wasSuccessful() else 1)
