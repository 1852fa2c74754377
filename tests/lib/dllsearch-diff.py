#!/usr/bin/env python3
"""The DLL-search differential test's driver (tests/cli/dllsearch-wine.sh).

For each seed, a random layout of real DLL copies (one stub image under
a CUDA DLL name, in random letter case) is made under a Wine prefix's
drive C:, with a random PATH (missing, empty, repeated and quoted
entries), current directory, name form (with and without ".dll", any
case), kinds of copy (an x64 DLL; an x86 one, which the loader passes
over; a file that is no image, which stops it) and search mode: the
standard order, or Python 3.8+'s
SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_DEFAULT_DIRS) with
AddDllDirectory directories (os.add_dll_directory). dllprobe.exe asks
Wine's loader (LoadLibraryExW) and cudawiz's model (tests/tools/
dllsearch-model) is asked the same; the two must name the same file, or
both none. Prints TAP.

usage: dllsearch-diff.py WINE PREFIX DLLPROBE STUBDLL STUB32|- MODEL FIRST COUNT
(STUB32: an x86 build of the stub, "-" when there is no i686 compiler)
"""
import os
import random
import shutil
import subprocess
import sys

NAMES = ["cudart64_110.dll", "cudnn64_8.dll", "cublas64_11.dll",
         "cudnn_ops64_9.dll", "nvrtc64_112_0.dll"]


def rcase(rng, s):
    return "".join(c.upper() if rng.random() < 0.3 else c for c in s)


def layout(rng, seed):
    """The layout of one seed: a dict of what to make and ask."""
    top = "t%d" % seed
    dirs = ["%s\\d%d" % (top, i) for i in range(rng.randint(2, 6))]
    app = top + "\\app"
    name = rng.choice(NAMES)
    copies = []
    for d in dirs + [app]:
        if rng.random() < (0.15 if d == app else 0.45):
            r = rng.random()
            kind = "x86" if r < 0.12 else "text" if r < 0.17 else "x64"
            copies.append((d, rcase(rng, name), kind))
    path = []
    for _ in range(rng.randint(0, 7)):
        r = rng.random()
        if r < 0.1:
            path.append("")
        elif r < 0.2:
            path.append("C:\\%s\\missing%d" % (top, rng.randint(0, 3)))
        else:
            d = "C:\\" + rng.choice(dirs)
            if rng.random() < 0.15:
                d += "\\"
            if rng.random() < 0.1:
                d = d.replace("\\", "/")
            r = rng.random()
            if r < 0.06:
                d = '"%s"' % d
            elif r < 0.1:
                # relative: from the current directory, C:\tN\dK
                d = "..\\" + d.split("\\")[-1] if d.count("\\") > 1 else d
            path.append(d)
    cwd = None
    if rng.random() < 0.4:
        cwd = "C:\\" + rng.choice(dirs)
    mode = "standard"
    adds = []
    if rng.random() < 0.4:
        mode = "default-dirs"
        for d in rng.sample(dirs, rng.randint(0, min(2, len(dirs)))):
            adds.append("C:\\" + d)
    asked = name
    r = rng.random()
    if r < 0.2:
        asked = name[:-4]
    elif r < 0.4:
        asked = rcase(rng, name)
    return {"top": top, "dirs": dirs, "app": app, "copies": copies,
            "path": ";".join(path), "cwd": cwd, "mode": mode,
            "adds": adds, "name": asked}


def make(drive, lay, probe, stub, stub32):
    top = os.path.join(drive, lay["top"])
    shutil.rmtree(top, ignore_errors=True)
    for d in lay["dirs"] + [lay["app"]]:
        os.makedirs(os.path.join(drive, *d.split("\\")), exist_ok=True)
    shutil.copy(probe, os.path.join(drive, *lay["app"].split("\\"),
                                    "dllprobe.exe"))
    for d, n, kind in lay["copies"]:
        dest = os.path.join(drive, *d.split("\\"), n)
        if kind == "text":
            with open(dest, "w") as f:
                f.write("not a DLL\n")
        else:
            shutil.copy(stub32 if kind == "x86" and stub32 else stub, dest)


def ask_wine(wine, prefix, lay):
    args = [wine, "C:\\%s\\dllprobe.exe" % lay["app"]]
    if lay["mode"] == "default-dirs":
        args.append("--default-dirs")
    for a in lay["adds"]:
        args += ["--add", a]
    if lay["cwd"]:
        args += ["--cwd", lay["cwd"]]
    args.append(lay["name"])
    env = dict(os.environ, WINEPREFIX=prefix, WINEDEBUG="-all",
               WINEPATH=lay["path"])
    out = subprocess.run(args, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        k, _, v = line.partition(" ")
        got[k] = v
    return got


def model_args(model, drive, lay, seen):
    """The model tool's command line for what Wine was given: Wine's
    own system directories, the PATH and current directory dllprobe saw."""
    args = [model, "--root", drive, "--drive", "C",
            "--app-dir", "C:\\" + lay["app"],
            "--system32", "C:\\windows\\system32",
            "--system", "C:\\windows\\system",
            "--windows", "C:\\windows",
            "--cwd", seen.get("cwd", "C:\\" + lay["app"]),
            "--path", seen.get("path", ""), "--machine", "x64"]
    if lay["mode"] == "default-dirs":
        args += ["--flags", "default"]
    for a in lay["adds"]:
        args += ["--user-dir", a]
    args.append(lay["name"])
    return args


def ask_model(model, drive, lay, seen):
    p = subprocess.run(model_args(model, drive, lay, seen),
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True)
    for line in p.stdout.splitlines():
        f = line.split("\t")
        if f[0] == "winner" and len(f) >= 2:
            return "found", f[1], p.stdout
        if f[0] == "error" and len(f) >= 2:
            return "none", f[1], p.stdout
    return "broken", None, p.stdout + p.stderr


def norm(p):
    return p.replace("/", "\\").lower() if p else p


def main():
    wine, prefix, probe, stub, stub32, model = sys.argv[1:7]
    first, count = int(sys.argv[7]), int(sys.argv[8])
    if stub32 == "-":
        stub32 = None
    drive = os.path.join(prefix, "drive_c")
    print("1..%d" % count)
    fails = 0
    for seed in range(first, first + count):
        rng = random.Random(seed)
        lay = layout(rng, seed)
        make(drive, lay, probe, stub, stub32)
        seen = ask_wine(wine, prefix, lay)
        kind, path, out = ask_model(model, drive, lay, seen)
        if "found" in seen:
            want = ("found", norm(seen["found"]))
        elif "error" in seen:
            want = ("none", seen["error"])
        else:
            want = ("wine-broken", None)
        got = (kind, norm(path) if kind == "found" else path)
        desc = "seed %d: %s %s (%s%s) -> %s" % (
            seed, lay["mode"], lay["name"], "PATH=" + lay["path"],
            ", cwd " + lay["cwd"] if lay["cwd"] else "",
            seen.get("found", "error " + seen.get("error", "?")))
        if got == want:
            print("ok %d - %s" % (seed - first + 1, desc))
        else:
            fails += 1
            print("not ok %d - %s" % (seed - first + 1, desc))
            print("#   wine:  %s" % (seen,))
            print("#   model: %s %s" % got)
            print("#   layout: %s" % (lay,))
            for line in out.splitlines()[:40]:
                print("#   | " + line)
        shutil.rmtree(os.path.join(drive, lay["top"]), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
