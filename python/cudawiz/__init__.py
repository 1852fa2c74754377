"""cudawiz: why CUDA does not work on this machine, and the fix.

A small layer over the cudawiz binary this wheel carries (cudawiz/_bin/).
Each call runs it once with ``--format html`` and returns a Report: in
Jupyter, Colab or VS Code it shows itself as the HTML report; its
``json`` and ``findings`` are the command's JSON document.

    import cudawiz
    cudawiz.doctor()                      # the whole machine
    cudawiz.explain(error_message)        # a pasted error -> finding and fix
    cudawiz.why("libcudart.so.12")        # how the loader resolves a library

Like the command, nothing here uses the network: doctor reads the
machine and the compatibility data the binary embeds (or a newer copy
`cudawiz matrix update` cached). On the command line the same binary
is `cudawiz` or `python -m cudawiz`.
"""

from ._binary import CudawizError, binary_path, run
from ._report import Report

try:  # written into the wheel by python/mkwheel.py
    from ._version import version as __version__
except ImportError:  # a source checkout
    __version__ = "0+unknown"

__all__ = ["doctor", "explain", "why", "Report", "CudawizError",
           "binary_path"]


def _common(root, matrix):
    args = ["--format", "html"]
    if root is not None:
        args += ["--root", str(root)]
    if matrix is not None:
        args += ["--matrix", str(matrix)]
    return args


def _run_report(command, args, stdin_text=None):
    out, err, status = run(args, stdin_text)
    return Report(command, out, status, err)


def doctor(root=None, *, verify=True, matrix=None):
    """Every fact and every finding, with fixes (`cudawiz doctor`).

    root: read another tree as if it were / (`--root`). verify=False
    skips the quick live checks doctor runs when a driver is loaded
    (`--no-verify`). matrix: a compatibility data file (`--matrix`).
    """
    args = ["doctor"] + _common(root, matrix)
    if not verify:
        args.append("--no-verify")
    return _run_report("doctor", args)


def explain(text, *, root=None, matrix=None):
    """The finding and the fix for a pasted error message
    (`cudawiz explain -`, the text on its standard input)."""
    if not isinstance(text, str):
        raise TypeError("explain() takes the message as a str")
    return _run_report("explain", ["explain"] + _common(root, matrix) + ["-"],
                   text)


def why(soname=None, from_=None, *, root=None):
    """How the dynamic loader would resolve SONAME, step by step
    (`cudawiz why SONAME`); with from_, as a dlopen() from that file, or
    with from_ alone that file's whole DT_NEEDED closure."""
    if soname is None and from_ is None:
        raise TypeError("why() needs a library name, from_ or both")
    args = ["why"] + _common(root, None)
    if from_ is not None:
        args += ["--from", str(from_)]
    if soname is not None:
        args.append(str(soname))
    return _run_report("why " + (soname or "--from " + str(from_)), args)
