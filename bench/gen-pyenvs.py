#!/usr/bin/env python3
"""gen-pyenvs.py DIR ENVS [PACKAGES]: make a --root tree with ENVS conda
environments of PACKAGES packages each (default 300), for timing
`cudawiz doctor` on a machine crowded with Python environments.

HOME is /home/u inside DIR; ~/.conda/environments.txt lists every env.
Each env has a conda-meta/ with a third of its packages (as conda would
record them, a dist-info in site-packages too) and a site-packages with
the rest as pip dist-infos; every fifth env holds PyTorch cu118 with its
nvidia-*-cu11 wheels, built from real shared libraries passed in by the
caller (LIBDIR with libtorch_cuda.so, libcudart.so.11.0,
libcublas.so.11, libcudnn.so.8), so the frameworks probe and the loader
model have real ELF files to read."""
import json
import os
import shutil
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def dist_info(site, name, version, extra=""):
    d = os.path.join(site, "%s-%s.dist-info" % (name.replace("-", "_"), version))
    write(os.path.join(d, "METADATA"),
          "Metadata-Version: 2.1\nName: %s\nVersion: %s\n%s\n" % (name, version, extra))
    write(os.path.join(d, "INSTALLER"), "pip\n")


def torch_env(prefix, site, libdir):
    dist_info(site, "torch", "2.0.1+cu118",
              "Requires-Dist: nvidia-cuda-runtime-cu11==11.8.89\n"
              "Requires-Dist: nvidia-cublas-cu11==11.11.3.6\n"
              "Requires-Dist: nvidia-cudnn-cu11==8.7.0.84\n")
    write(os.path.join(site, "torch", "version.py"),
          "__version__ = '2.0.1+cu118'\ncuda = '11.8'\ngit_version = 'e9ebda2'\n")
    write(os.path.join(site, "torch", "__init__.py"), "")
    os.makedirs(os.path.join(site, "torch", "lib"), exist_ok=True)
    shutil.copy(os.path.join(libdir, "libtorch_cuda.so"),
                os.path.join(site, "torch", "lib", "libtorch_cuda.so"))
    for pkg, sub, so, ver in (
            ("nvidia-cuda-runtime-cu11", "cuda_runtime", "libcudart.so.11.0", "11.8.89"),
            ("nvidia-cublas-cu11", "cublas", "libcublas.so.11", "11.11.3.6"),
            ("nvidia-cudnn-cu11", "cudnn", "libcudnn.so.8", "8.7.0.84")):
        dist_info(site, pkg, ver)
        d = os.path.join(site, "nvidia", sub, "lib")
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(libdir, so), os.path.join(d, so))


def main():
    root, nenvs = sys.argv[1], int(sys.argv[2])
    npkgs = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    libdir = os.environ.get("LIBDIR")
    home = os.path.join(root, "home", "u")
    envs = []
    for e in range(nenvs):
        prefix = "/home/u/miniconda3/envs/env%03d" % e
        host = root + prefix
        site = os.path.join(host, "lib", "python3.11", "site-packages")
        os.makedirs(os.path.join(host, "bin"), exist_ok=True)
        write(os.path.join(host, "bin", "python3.11"), "")
        os.chmod(os.path.join(host, "bin", "python3.11"), 0o755)
        os.symlink("python3.11", os.path.join(host, "bin", "python3"))
        meta = os.path.join(host, "conda-meta")
        os.makedirs(meta, exist_ok=True)
        write(os.path.join(meta, "history"), "")
        write(os.path.join(meta, "python-3.11.5-h955ad1f_0.json"),
              json.dumps({"name": "python", "version": "3.11.5",
                          "build": "h955ad1f_0",
                          "channel": "https://repo.anaconda.com/pkgs/main/linux-64"}))
        for p in range(npkgs - (7 if libdir and e % 5 == 0 else 0)):
            name = "pkg-%03d-%d" % (p, e % 7)
            version = "1.%d.%d" % (p % 17, e % 5)
            if p % 3 == 0:
                write(os.path.join(meta, "%s-%s-py311_0.json" % (name, version)),
                      json.dumps({"name": name, "version": version,
                                  "build": "py311_0", "channel": "conda-forge"}))
            dist_info(site, name, version)
        if libdir and e % 5 == 0:
            torch_env(prefix, site, libdir)
        envs.append(prefix)
    write(os.path.join(home, ".conda", "environments.txt"), "\n".join(envs) + "\n")
    write(os.path.join(root, "proc", "sys", "kernel", "osrelease"), "6.1.0-13-amd64\n")


main()
