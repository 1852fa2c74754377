#!/usr/bin/env python3
"""Writes N doctor --json reports of a generated fleet into DIR, for
bench/fleet.sh: a mix of healthy, broken (error findings), drifted (spec
items off the majority), stale (three days old) and damaged (truncated,
binary, foreign, empty) files, made from one real report (TEMPLATE, a
`cudawiz doctor --json`). Its "host" and "spec" are kept where the
template has them and made where it does not; --pad-kb grows each
report's facts to about that size (a GPU node with Python environments
writes far more than a build VM).

usage: gen-fleet.py TEMPLATE DIR [N] [--pad-kb K]
"""
import copy
import hashlib
import json
import os
import sys
import time

ITEMS = {
    "driver.version": "580.65.06", "driver.branch": "580",
    "driver.module": "580.65.06", "driver.max_cuda": "13.0",
    "gpu.count": "8", "gpu.models": "NVIDIA H100 80GB HBM3 (9.0) x8",
    "toolkit.versions": "12.4.1 13.0.1", "toolkit.default": "13.0.1",
    "cudnn.versions": "9.13.0",
    "framework./opt/venvs/train.torch": "2.3.1 cuda 12.1",
    "framework./opt/venvs/train.jax": "0.4.30 cuda 12",
    "env.CUDA_HOME": "/usr/local/cuda",
    "env.LD_LIBRARY_PATH": "/usr/local/cuda/lib64",
}

ERRORS = [("SONAME_NOT_FOUND", "error"), ("DRIVER_TOO_OLD", "error"),
          ("DRIVER_LIBRARY_MISMATCH", "error"), ("LIB_SHADOWED", "warning")]


def finding(code, sev, i):
    return {"code": code, "severity": sev, "title": code,
            "subject": "node%04d" % i, "detail": "generated", "evidence": [],
            "fix": []}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    pad_kb = 0
    if "--pad-kb" in sys.argv:
        pad_kb = int(sys.argv[sys.argv.index("--pad-kb") + 1])
        args.remove(str(pad_kb))
    template, out = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 1000
    with open(template) as f:
        base = json.load(f)
    base["findings"] = []
    if pad_kb > 0:
        libs = base.setdefault("facts", {}).setdefault("libraries", [])
        unit = libs[0] if libs else {"soname": "libx.so.1", "steps": []}
        while len(json.dumps(base, indent=2)) < pad_kb * 1024:
            libs.append(copy.deepcopy(unit))
    now = int(time.time())
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        r = copy.deepcopy(base)
        name = "node%04d" % i
        kind = i % 20
        t = now - 600 - i
        if kind in (3, 4):          # stale: three days old
            t = now - 3 * 86400
        host = r.get("host") or {"kernel": "6.1.0-18-amd64",
                                  "os": "Debian GNU/Linux 12 (bookworm)"}
        host.update({"name": name, "time_unix": t,
                     "time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                           time.gmtime(t)),
                     "machine_id": hashlib.sha256(
                         name.encode()).hexdigest()[:16]})
        r["host"] = host
        spec = r.get("spec") or {"schema": "cudawiz/spec/1", "items": {}}
        spec["items"] = dict(spec["items"], **ITEMS)
        if kind in (5, 6, 7):       # drifted
            spec["items"]["driver.branch"] = "570"
            spec["items"]["toolkit.default"] = "12.4.1"
            del spec["items"]["framework./opt/venvs/train.jax"]
        r["spec"] = spec
        if kind in (8, 9, 10):      # broken
            r["findings"] = [finding(c, s, i) for c, s in
                             ERRORS[i % 3:i % 3 + 2]]
        r["summary"] = {k: sum(1 for f in r["findings"] if f["severity"] == s)
                        for k, s in (("errors", "error"),
                                     ("warnings", "warning"),
                                     ("info", "info"))}
        path = os.path.join(out, name + ".json")
        text = json.dumps(r, indent=2) + "\n"
        if kind == 19:              # damaged, four ways in turn
            way = (i // 20) % 4
            if way == 0:
                text = text[:len(text) // 2]
            elif way == 1:
                text = "\x7fELF\x02\x01\x01" + "\x00" * 64
            elif way == 2:
                text = json.dumps({"name": name, "version": "1.0"})
            else:
                text = ""
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
