"""Measuring for offbench: one run (wall, user+sys CPU, peak RSS from wait4's rusage, children
included), stock and offlink alternated A B A B after a warm-up, medians and pair-by-pair ratios,
and the Markdown / CSV writers."""
import csv
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DIST = REPO / "target" / "offlink"
LIBEXEC = DIST / "libexec" / "offlink"
STOCK_LIBEXEC = Path("/usr/lib/gcc/x86_64-linux-gnu/12")
# /usr/local/bin holds a CUDA 13 ptxas that makes stock nvptx links fail; benchmark both sides
# with the PATH a working stock link needs.
CLEAN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


class Sample:
    """One measured run: wall and user+sys seconds, peak RSS (KiB) of the largest process in the
    tree, stderr text; jvm_rss_kib: the largest VmHWM of a java process seen (sampled runs only)."""

    def __init__(self, wall, cpu, rss_kib, stderr="", jvm_rss_kib=0):
        self.wall, self.cpu, self.rss_kib = wall, cpu, rss_kib
        self.stderr, self.jvm_rss_kib = stderr, jvm_rss_kib


def base_env(cache=False, server=False):
    """The environment of every measured run. offlink's device-image cache (issue 15) is off unless
    cache: with it on, the warm-up would fill the default cache folder and every counted offlink
    link would be a cache hit, not the link work the suite compares. With cache, the cache
    settings are dropped too (the cache mode names its own folders and remote). Every link starts
    a JVM of its own (OFFLINK_FLAGS=--no-server), as before the link server (issue 30), unless
    server: the server mode picks its servers' JVMs and folders itself."""
    env = dict(os.environ)
    env["PATH"] = CLEAN_PATH
    for name in ("COMPILER_PATH", "LIBRARY_PATH", "GCC_EXEC_PREFIX", "OFFLINK_TIMING",
                 "OFFLINK_REPORT", "JAVA_TOOL_OPTIONS", "OFFLINK_CACHE_DIR",
                 "OFFLINK_REMOTE_CACHE", "OFFLINK_REMOTE_CACHE_TIMEOUT",
                 "OFFLINK_REMOTE_CACHE_CREDENTIALS", "OFFLINK_SERVER_DIR", "OFFLINK_SERVER_IDLE"):
        env.pop(name, None)
    words = [] if cache else env.get("OFFLINK_FLAGS", "").split() + ["--no-cache"]
    if not server:
        words.append("--no-server")
    env["OFFLINK_FLAGS"] = " ".join(words)
    return env


def measure(argv, env, cwd, sample_jvm=False):
    """Runs argv to completion; exits the benchmark with its stderr tail if it fails. With
    sample_jvm, also polls the process tree every 20 ms for the peak RSS of its java processes."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.append(proc.stderr.read()))
    reader.start()
    jvm_peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG if sample_jvm else 0)
        if pid:
            break
        jvm_peak = max(jvm_peak, java_peak_rss(proc.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = b"".join(chunks).decode(errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(err[-3000:])
        raise SystemExit(f"offbench: {' '.join(map(str, argv[:3]))} ... exited {proc.returncode}"
                         f" in {cwd}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, err, jvm_peak)


def java_peak_rss(root):
    """The largest VmHWM (KiB) among the java processes descending from pid root, now."""
    parent, name, hwm = {}, {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key == "Name":
                        name[int(entry)] = value.strip()
                    elif key == "PPid":
                        parent[int(entry)] = int(value)
                    elif key == "VmHWM":
                        hwm[int(entry)] = int(value.split()[0])
        except (OSError, ValueError):
            continue
    best = 0
    for pid, n in name.items():
        if n != "java":
            continue
        p = pid
        while p and p != root:
            p = parent.get(p, 0)
        if p == root:
            best = max(best, hwm.get(pid, 0))
    return best


def alternate(name, stock, ours, runs, warmup=None):
    """Warms up (warmup(), or one stock() and one ours()), then runs `runs` pairs of stock() and
    ours(); returns a result row. Each pair runs in an order drawn from a generator seeded with
    `name` (the same orders every time): with one side always first, whatever a run leaves behind
    (dirty pages being written back, a deleted cache folder) would tilt every pair the same way."""
    if warmup:
        warmup()
    else:
        stock()
        ours()
    order = random.Random(name)
    a, b = [], []
    for _ in range(runs):
        if order.random() < 0.5:
            a.append(stock())
            b.append(ours())
        else:
            b.append(ours())
            a.append(stock())
    return summarize(name, a, b)


def summarize(name, a, b):
    ratios = [y.wall / x.wall for x, y in zip(a, b)]
    med = statistics.median
    return {
        "workload": name,
        "runs": len(a),
        "stock_wall_s": med(s.wall for s in a),
        "ours_wall_s": med(s.wall for s in b),
        "ratio_median": med(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "stock_cpu_s": med(s.cpu for s in a),
        "ours_cpu_s": med(s.cpu for s in b),
        "stock_rss_mib": max(s.rss_kib for s in a) / 1024,
        "ours_rss_mib": max(s.rss_kib for s in b) / 1024,
    }


COLUMNS = ["workload", "runs", "stock_wall_s", "ours_wall_s", "ratio_median", "ratio_min",
           "ratio_max", "stock_cpu_s", "ours_cpu_s", "stock_rss_mib", "ours_rss_mib",
           "ours_jvm_rss_mib", "same_output", "slowest_stage", "ours_max_s"]


def markdown(rows, columns=COLUMNS):
    cols = [c for c in columns if any(c in r for r in rows)]
    fmt = lambda v: f"{v:.3f}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def write_csv(rows, path, columns=COLUMNS):
    cols = [c for c in columns if any(c in r for r in rows)]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def report(rows, out, extra="", columns=COLUMNS):
    """Prints the table (and extra text); with out, writes bench.md and bench.csv there."""
    table = markdown(rows, columns)
    print(table)
    if extra:
        print(extra)
    if out:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench.md").write_text(table + "\n" + (("\n" + extra + "\n") if extra else ""))
        write_csv(rows, out / "bench.csv", columns)
        print(f"offbench: wrote {out}/bench.md and {out}/bench.csv", file=sys.stderr)
