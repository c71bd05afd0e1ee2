#!/usr/bin/env python3
"""offlink benchmarks: stock GCC vs offlink in the same run, alternating A B A B.

Every figure is a median over counted runs that follow a warm-up; ratios are computed pair by pair
(ours_i / stock_i), so a slow phase of the machine hits both sides. Wall time, user+sys CPU and
peak RSS come from wait4()'s rusage of the measured command (children included).

Sub-commands:
  link      whole `gcc` link time for saxpy-style programs (gfx906, nvptx, both targets)
  start     JVM start of offlink's GCC-facing entry points (no-op invocations)
  list      `section-streamer list` over an archive of 1,000 offload objects
Common options: --runs N (counted runs per side, default 5), --out DIR (Markdown table + CSV).
"""
import argparse
import csv
import hashlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DIST = REPO / "target" / "offlink"
LIBEXEC = DIST / "libexec" / "offlink"
STOCK_LIBEXEC = Path("/usr/lib/gcc/x86_64-linux-gnu/12")
# /usr/local/bin holds a CUDA 13 ptxas that makes stock nvptx links fail; benchmark both sides
# with the PATH a working stock link needs.
CLEAN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"

SAXPY = r"""
#include <stdio.h>
#define N 4096
float x[N], y[N];
int main(void) {
  float a = 2.0f;
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 1.0f; }
#pragma omp target teams distribute parallel for map(to: x) map(tofrom: y)
  for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i];
  printf("%.1f\n", s);
  return 0;
}
"""

TARGETS = {
    "gfx906": ["-foffload=amdgcn-amdhsa=-march=gfx906"],
    "nvptx": ["-foffload=nvptx-none"],
    "both": ["-foffload=nvptx-none", "-foffload=amdgcn-amdhsa=-march=gfx906"],
}


class Sample:
    """One measured run."""

    def __init__(self, wall, cpu, rss_kib, status):
        self.wall, self.cpu, self.rss_kib, self.status = wall, cpu, rss_kib, status


def measure(argv, env, cwd):
    """Runs argv to completion; returns wall seconds, user+sys seconds, peak RSS (KiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.stderr.write(err.decode(errors="replace")[-2000:])
        raise SystemExit(f"offbench: {argv[0]} exited {proc.returncode} in {cwd}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode)


def alternate(name, stock, ours, runs, warmup=1):
    """Runs stock() and ours() alternately; returns a result row."""
    for _ in range(warmup):
        stock()
        ours()
    a, b = [], []
    for _ in range(runs):
        a.append(stock())
        b.append(ours())
    ratios = [y.wall / x.wall for x, y in zip(a, b)]
    med = statistics.median
    return {
        "workload": name,
        "runs": runs,
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


def tool_dir(root, lto_wrapper):
    """A -B directory: offlink's mkoffloads, and the given lto-wrapper (stock or ours)."""
    d = Path(root) / "tools"
    for target in ("nvptx-none", "amdgcn-amdhsa"):
        (d / "accel" / target).mkdir(parents=True, exist_ok=True)
        os.symlink(LIBEXEC / "accel" / target / "mkoffload", d / "accel" / target / "mkoffload")
    os.symlink(lto_wrapper, d / "lto-wrapper")
    return d


def base_env():
    env = dict(os.environ)
    env["PATH"] = CLEAN_PATH
    env.pop("COMPILER_PATH", None)
    env.pop("LIBRARY_PATH", None)
    return env


def bench_link(args):
    rows = []
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        tmp = Path(tmp)
        (tmp / "saxpy.c").write_text(SAXPY)
        lto = LIBEXEC / "lto-wrapper" if args.our_lto_wrapper else STOCK_LIBEXEC / "lto-wrapper"
        tools = tool_dir(tmp, lto)
        env = base_env()
        for name in args.targets:
            flags = ["-fopenmp", *TARGETS[name]]
            subprocess.run(["gcc", *flags, "-O2", "-c", "saxpy.c", "-o", f"saxpy-{name}.o"],
                           cwd=tmp, env=env, check=True)
            stock = lambda: measure(["gcc", *flags, f"saxpy-{name}.o", "-o", "a-stock"], env, tmp)
            ours = lambda: measure(["gcc", f"-B{tools}/", *flags, f"saxpy-{name}.o", "-o",
                                    "a-ours"], env, tmp)
            row = alternate(f"saxpy {name}", stock, ours, args.runs)
            outs = [subprocess.run([f"./a-{w}"], cwd=tmp, env=env, capture_output=True,
                                   check=True).stdout for w in ("stock", "ours")]
            row["same_output"] = outs[0] == outs[1]
            rows.append(row)
    return rows


def bench_start(args):
    """JVM start: median wall of a no-op `--version` of each GCC-facing entry point."""
    rows = []
    for java in find_jdks():
        env = base_env()
        env["OFFLINK_JAVA"] = str(java)
        for tool in ("lto-wrapper", "accel/nvptx-none/mkoffload"):
            times = []
            for i in range(args.runs + 2):
                s = measure([str(LIBEXEC / tool), "--version"], env, REPO)
                if i >= 2:
                    times.append(s.wall)
            rows.append({"workload": f"JVM start {tool} ({jdk_name(java)})", "runs": args.runs,
                         "ours_wall_s": statistics.median(times)})
    return rows


def find_jdks():
    found = []
    for home in sorted(Path("/usr/lib/jvm").glob("*")):
        java = home / "bin" / "java"
        if java.is_file() and not home.is_symlink():
            found.append(java)
    return found


def jdk_name(java):
    out = subprocess.run([str(java), "-version"], capture_output=True, text=True).stderr
    return out.splitlines()[0].split('"')[1] if '"' in out else java.parent.parent.name


def bench_list(args):
    """`section-streamer list` over a 1,000-member archive of offload objects, JVM start in."""
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        tmp = Path(tmp)
        env = base_env()
        members = []
        for i in range(args.members):
            src = tmp / f"m{i:04d}.c"
            src.write_text(f"int v{i};\n#pragma omp declare target to(v{i})\n"
                           f"int f{i}(void) {{ int r = 0;\n#pragma omp target map(from:r)\n"
                           f"r = {i};\nreturn r; }}\n")
            members.append(src.name)
        # Compile in batches: one gcc per 100 sources keeps set-up short on 2 cores.
        for k in range(0, len(members), 100):
            subprocess.run(["gcc", "-fopenmp", "-foffload=nvptx-none", "-c", *members[k:k + 100]],
                           cwd=tmp, env=env, check=True)
        objs = [m[:-2] + ".o" for m in members]
        subprocess.run(["ar", "rcs", "lib1000.a", *objs], cwd=tmp, env=env, check=True)
        cli = str(DIST / "bin" / "section-streamer")
        measure([cli, "list", "lib1000.a"], env, tmp)  # warm-up
        times = [measure([cli, "list", "lib1000.a"], env, tmp).wall for _ in range(args.runs)]
        return [{"workload": f"section-streamer list ({args.members}-member archive)",
                 "runs": args.runs, "ours_wall_s": statistics.median(times),
                 "ours_max_s": max(times)}]


COLUMNS = ["workload", "runs", "stock_wall_s", "ours_wall_s", "ratio_median", "ratio_min",
           "ratio_max", "stock_cpu_s", "ours_cpu_s", "stock_rss_mib", "ours_rss_mib",
           "same_output", "ours_max_s"]


def report(rows, out):
    cols = [c for c in COLUMNS if any(c in r for r in rows)]
    fmt = lambda v: f"{v:.3f}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    table = "\n".join(lines)
    print(table)
    if out:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench.md").write_text(table + "\n")
        with open(out / "bench.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(rows)
        print(f"offbench: wrote {out}/bench.md and bench.csv", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what", choices=["link", "start", "list", "all"])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--targets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    p.add_argument("--members", type=int, default=1000)
    p.add_argument("--our-lto-wrapper", action="store_true",
                   help="use offlink's lto-wrapper too (default: stock lto-wrapper, our mkoffload)")
    p.add_argument("--out", help="directory for bench.md and bench.csv")
    args = p.parse_args()
    if not (LIBEXEC / "lto-wrapper").exists():
        raise SystemExit("offbench: target/offlink is missing; run scripts/build.sh first")
    rows = []
    if args.what in ("link", "all"):
        rows += bench_link(args)
    if args.what in ("start", "all"):
        rows += bench_start(args)
    if args.what in ("list", "all"):
        rows += bench_list(args)
    report(rows, args.out)


if __name__ == "__main__":
    main()
