#!/usr/bin/env python3
"""A/B timings on a quiet lent machine: the cudawiz in OLD against the one
in NEW (each directory holds cudawiz, cudawiz-verify, COMMIT and lib/),
run alternately: doctor --json --no-verify, why libcudart.so.13 --json
and env --shell sh on the host, doctor --json
--root on an empty tree, and on a tree of N distinct LD_LIBRARY_PATH
directories. Each run is started through the machine's own loader with
--library-path, so glibc does not search a huge LD_LIBRARY_PATH for
cudawiz itself; what that costs any program is shown apart (/bin/true).
Wall time from perf_counter, CPU and peak RSS from wait4's rusage.
Usage: python3 ab.py OLD NEW [N]"""
import os, statistics, sys, tempfile, time

TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
RSS = tempfile.mktemp()

def once(argv, env):
    # The peak RSS wait4 gives a spawned child starts from its parent's
    # (it is kept across exec), so GNU time, a small C program, measures
    # it where it is installed; CPU and wall include its few microseconds.
    if TIME is not None:
        argv = [TIME, "-f", "%M", "-o", RSS] + argv
    t0 = time.perf_counter()
    # posix_spawn, not fork: a forked Python's pages would count as the
    # child's peak RSS.
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    rss = int(open(RSS).read().split()[-1]) if TIME is not None else 0
    return wall * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3, rss

def cw(d, args):
    return ["/lib64/ld-linux-x86-64.so.2", "--library-path", d + "/lib",
            d + "/cudawiz"] + args

def bench(label, runs, dirs, args, env):
    res = {k: [] for k in dirs}
    for _ in range(runs):
        for k, d in dirs.items():
            res[k].append(once(cw(d, args), env))
    for k in dirs:
        w = statistics.median(r[0] for r in res[k])
        c = statistics.median(r[1] for r in res[k])
        m = max(r[2] for r in res[k])
        print(f"{label:44s} {k:3s} wall {w:9.2f} ms  cpu {c:9.2f} ms  "
              f"peak {m / 1024:6.1f} MiB  (median of {runs})", flush=True)

def main():
    old, new = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    dirs = {"old": old, "new": new}
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.uname().release,
          os.cpu_count(), "cpus; old", open(old + "/COMMIT").read().strip(),
          "new", open(new + "/COMMIT").read().strip(), flush=True)
    env = dict(os.environ)
    bench("doctor --json --no-verify (host)", 41, dirs,
          ["doctor", "--json", "--no-verify"], env)
    # Issue 17's three commands: why and env beside doctor.
    bench("why libcudart.so.13 --json (host)", 41, dirs,
          ["why", "libcudart.so.13", "--json"], env)
    bench("env --shell sh (host)", 41, dirs, ["env", "--shell", "sh"], env)
    empty = tempfile.mkdtemp()
    bench("doctor --json --root EMPTY", 41, dirs,
          ["doctor", "--json", "--root", empty], env)
    tree = tempfile.mkdtemp()
    for i in range(n):
        os.makedirs(f"{tree}/L/{i}")
    big = dict(env, LD_LIBRARY_PATH=":".join(f"/L/{i}" for i in range(n)))
    bench(f"doctor --json --root, {n} LD_LIBRARY_PATH", 5, dirs,
          ["doctor", "--json", "--root", tree], big)
    r = [once(["/bin/true"], big) for _ in range(5)]
    print(f"{'/bin/true with that LD_LIBRARY_PATH':44s}     wall "
          f"{statistics.median(x[0] for x in r):9.2f} ms  cpu "
          f"{statistics.median(x[1] for x in r):9.2f} ms  (glibc's loader alone)")

main()
