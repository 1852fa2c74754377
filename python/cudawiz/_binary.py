"""Where the cudawiz binary is, and running it once.

The wheel carries the portable binary and its helper in cudawiz/_bin/;
the binary finds cudawiz-verify beside itself (/proc/self/exe), so the
two must stay together. CUDAWIZ_BINARY names another binary (a source
build, a test's stand-in).
"""

import os
import signal
import subprocess

ENV_BINARY = "CUDAWIZ_BINARY"

# cudawiz's own exit statuses (src/cmd.h): 0 no error finding, 1 at
# least one, 2 a usage error or cudawiz could not run.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


class CudawizError(RuntimeError):
    """cudawiz could not be run, or did not give a report.

    ``stderr`` holds what the binary wrote there (empty when it never
    ran) and ``exit_status`` its status (None when it never ran; a
    negative number -N when signal N killed it).
    """

    def __init__(self, message, stderr="", exit_status=None):
        stderr = stderr or ""
        text = message
        if stderr.strip():
            text += "\n" + stderr.rstrip()
        super().__init__(text)
        self.stderr = stderr
        self.exit_status = exit_status


def binary_path():
    """The cudawiz binary this package runs: $CUDAWIZ_BINARY when set,
    else the one in the package's _bin/ folder."""
    env = os.environ.get(ENV_BINARY)
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "_bin", "cudawiz")


def checked_binary():
    """binary_path(), or CudawizError saying why it cannot be run."""
    path = binary_path()
    how = ("(set by %s)" % ENV_BINARY if os.environ.get(ENV_BINARY)
           else "(this wheel's own copy)")
    if not os.path.exists(path):
        raise CudawizError("the cudawiz binary %s %s does not exist"
                           % (path, how))
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        raise CudawizError("the cudawiz binary %s %s is not an executable "
                           "file" % (path, how))
    return path


def _signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return "signal %d" % n


def run(args, stdin_text=None):
    """Run the binary once with ARGS; (stdout, stderr, status) as text.

    Exit statuses 0 and 1 are reports (1: at least one error finding);
    a usage error (2), any other status, a signal or a binary that
    cannot be started raise CudawizError with the binary's stderr.
    """
    path = checked_binary()
    try:
        proc = subprocess.run(
            [path] + list(args),
            input=(stdin_text if stdin_text is not None else "").encode(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise CudawizError("cannot run %s: %s" % (path, e.strerror or e))
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    status = proc.returncode
    if status < 0:
        raise CudawizError("%s was killed by %s" % (path, _signal_name(-status)),
                           err, status)
    if status not in (EXIT_OK, EXIT_FINDINGS):
        raise CudawizError("%s %s failed (exit status %d)"
                           % (path, " ".join(args[:1]), status), err, status)
    return out, err, status
