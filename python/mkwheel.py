#!/usr/bin/python3
"""Write the cudawiz wheel from the portable binaries, offline.

    mkwheel.py --version V --arch x86_64|aarch64 --bindir DIR \
               --pkgdir python/cudawiz --out dist/

A wheel is a zip file with a fixed layout (PEP 427, PEP 491); writing it
with zipfile needs nothing beyond the standard library, no network and
no build frontend. The tag says manylinux_2_28 (glibc 2.28 or newer, the
portable build's promise), and before the binaries go in this script
checks that promise the way auditwheel would: each binary is an ELF file
of the right machine, needs only glibc's and libgcc's libraries, and no
glibc symbol version past 2.28. --unchecked skips that, for trying the
wheel's machinery with a dynamic build (such a wheel is not what its
tag says and must not be published).

The output is reproducible: entries sorted, one timestamp
(SOURCE_DATE_EPOCH, else 1980-01-02), fixed modes.
"""

import argparse
import base64
import hashlib
import io
import os
import re
import struct
import sys
import time
import zipfile

NAME = "cudawiz"
GLIBC_MAX = (2, 28)
MACHINES = {"x86_64": 62, "aarch64": 183}   # ELF e_machine
# What a manylinux wheel may need from the system: glibc's libraries and
# libgcc (the manylinux policies' list, less the X11 and GL ones).
ALLOWED_NEEDED = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
    "libutil.so.1", "libresolv.so.2", "libgcc_s.so.1",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}
SUMMARY = ("Finds out why CUDA does not work on a Linux machine, "
           "with evidence and the fix")
DESCRIPTION = """\
# cudawiz

cudawiz finds out why CUDA does not work on a Linux machine, proves what
does work, and writes the fix. This wheel carries the portable `cudawiz`
binary (glibc 2.28 or newer) and a small Python API over its reports:

```python
import cudawiz
cudawiz.doctor()                        # HTML in Jupyter, Colab, VS Code
cudawiz.explain("ImportError: libcudart.so.11.0: cannot open shared object file")
cudawiz.why("libcudart.so.12")
```

On the command line: `cudawiz` (or `python -m cudawiz`), the same binary.
"""


class WheelError(Exception):
    pass


# ----------------------------------------------------------------- ELF check
def _cstr(blob, off):
    end = blob.index(b"\0", off)
    return blob[off:end].decode("ascii", "replace")


def elf_needs(path):
    """(e_machine, DT_NEEDED names, version names needed) of a 64-bit
    little-endian ELF file, from its section headers."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:4] != b"\x7fELF" or blob[4] != 2 or blob[5] != 1:
        raise WheelError("%s is not a 64-bit little-endian ELF file" % path)
    machine, = struct.unpack_from("<H", blob, 0x12)
    shoff, = struct.unpack_from("<Q", blob, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", blob, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", blob, shoff + i * shentsize)
            for i in range(shnum)]
    needed, versions = [], []
    for (_n, stype, _fl, _ad, off, size, link, info, _al, _es) in secs:
        strtab = secs[link][4] if link < len(secs) else 0
        if stype == 6:  # SHT_DYNAMIC
            for p in range(off, off + size, 16):
                tag, val = struct.unpack_from("<qQ", blob, p)
                if tag == 0:
                    break
                if tag == 1:  # DT_NEEDED
                    needed.append(_cstr(blob, strtab + val))
        elif stype == 0x6ffffffe:  # SHT_GNU_verneed
            p = off
            for _ in range(info):
                _v, cnt, _file, aux, nxt = struct.unpack_from("<HHIII", blob, p)
                a = p + aux
                for _ in range(cnt):
                    _h, _f, _o, name, anext = struct.unpack_from(
                        "<IHHII", blob, a)
                    versions.append(_cstr(blob, strtab + name))
                    a += anext
                p += nxt
    return machine, needed, versions


def check_binary(path, arch):
    """Why PATH cannot go into a manylinux_2_28 wheel for ARCH: a list of
    reasons, empty when it can."""
    machine, needed, versions = elf_needs(path)
    why = []
    if machine != MACHINES[arch]:
        why.append("%s is for ELF machine %d, not %s" % (path, machine, arch))
    for n in needed:
        if n not in ALLOWED_NEEDED:
            why.append("%s needs %s, which a manylinux system need not have "
                       "(only glibc and libgcc may stay dynamic)" % (path, n))
    for v in versions:
        m = re.match(r"GLIBC_(\d+)\.(\d+)", v)
        if v == "GLIBC_PRIVATE" or (m and tuple(map(int, m.groups())) > GLIBC_MAX):
            why.append("%s needs %s, past glibc %d.%d" % ((path, v) + GLIBC_MAX))
    return why


# ------------------------------------------------------------------- wheel
def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class Wheel:
    def __init__(self, stamp):
        self.stamp = time.gmtime(max(stamp, 315619200))[:6]   # >= 1980-01-02
        self.files = {}     # archive name -> (bytes, mode)

    def add(self, name, data, mode=0o644):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.files[name] = (data, mode)

    def write(self, out, dist_info):
        record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d))
                         for n, (d, _m) in sorted(self.files.items()))
        self.add(dist_info + "/RECORD", record + dist_info + "/RECORD,,\n")
        buf = io.BytesIO()
        # dist-info last, RECORD at the very end (PEP 427 recommends it).
        order = sorted(self.files, key=lambda n: (n.startswith(dist_info),
                                                   n.endswith("/RECORD"), n))
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for n in order:
                data, mode = self.files[n]
                zi = zipfile.ZipInfo(n, self.stamp)
                zi.compress_type = zipfile.ZIP_DEFLATED
                zi.create_system = 3    # Unix, so that the mode counts
                zi.external_attr = (0o100000 | mode) << 16
                z.writestr(zi, data)
        tmp = out + ".tmp"
        with open(tmp, "wb") as f:
            f.write(buf.getvalue())
        os.replace(tmp, out)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def build(args):
    if not re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?",
                        args.version):
        raise WheelError("version %r is not a PEP 440 release version"
                         % args.version)
    tag = "py3-none-manylinux_2_28_%s" % args.arch
    dist_info = "%s-%s.dist-info" % (NAME, args.version)
    data_dir = "%s-%s.data" % (NAME, args.version)
    bins = [os.path.join(args.bindir, b) for b in ("cudawiz", "cudawiz-verify")]
    for b in bins:
        if not os.path.isfile(b):
            raise WheelError("%s is missing (make portable%s builds it)"
                             % (b, "" if args.arch == "x86_64"
                                else " PORTABLE_ARCH=" + args.arch))
    if not args.unchecked:
        why = [w for b in bins for w in check_binary(b, args.arch)]
        if why:
            raise WheelError("not a manylinux_2_28 binary:\n  " + "\n  ".join(why))

    stamp = int(os.environ.get("SOURCE_DATE_EPOCH", "0") or 0)
    w = Wheel(stamp)
    for f in sorted(os.listdir(args.pkgdir)):
        if f.endswith(".py"):
            w.add("%s/%s" % (NAME, f), read(os.path.join(args.pkgdir, f)))
    w.add(NAME + "/_version.py", 'version = "%s"\n' % args.version)
    for b in bins:
        w.add("%s/_bin/%s" % (NAME, os.path.basename(b)), read(b), 0o755)
    man = os.path.join(args.bindir, "cudawiz.1")
    if os.path.isfile(man):   # `man cudawiz` inside the environment
        w.add(data_dir + "/data/share/man/man1/cudawiz.1", read(man))

    w.add(dist_info + "/METADATA", "\n".join([
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + args.version,
        "Summary: " + SUMMARY,
        "Home-page: https://github.com/cudawiz/cudawiz",
        "Requires-Python: >=3.8",
        "Classifier: Environment :: Console",
        "Classifier: Framework :: Jupyter",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Topic :: System :: Systems Administration",
        "Description-Content-Type: text/markdown",
        "", DESCRIPTION]))
    w.add(dist_info + "/WHEEL", "Wheel-Version: 1.0\n"
          "Generator: cudawiz python/mkwheel.py\n"
          "Root-Is-Purelib: false\nTag: %s\n" % tag)
    w.add(dist_info + "/entry_points.txt",
          "[console_scripts]\ncudawiz = cudawiz.__main__:main\n")
    w.add(dist_info + "/top_level.txt", NAME + "\n")

    out = os.path.join(args.out, "%s-%s-%s.whl" % (NAME, args.version, tag))
    os.makedirs(args.out, exist_ok=True)
    w.write(out, dist_info)
    return out


def main():
    ap = argparse.ArgumentParser(description="Write the cudawiz wheel.")
    ap.add_argument("--version", required=True)
    ap.add_argument("--arch", choices=sorted(MACHINES), default="x86_64")
    ap.add_argument("--bindir", required=True,
                    help="the folder holding cudawiz and cudawiz-verify")
    ap.add_argument("--pkgdir", required=True, help="python/cudawiz")
    ap.add_argument("--out", required=True, help="where the .whl goes")
    ap.add_argument("--unchecked", action="store_true",
                    help="skip the manylinux check (a dynamic build, for "
                    "trying the machinery; not for publishing)")
    args = ap.parse_args()
    try:
        print(build(args))
    except (WheelError, OSError) as e:
        sys.stderr.write("mkwheel: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
