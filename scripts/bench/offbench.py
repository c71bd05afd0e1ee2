#!/usr/bin/env python3
"""offlink benchmarks: stock GCC vs offlink in the same run, in pairs (A B, B A, ...).

Every figure is a median over counted runs that follow a warm-up; ratios are computed pair by pair
(ours_i / stock_i), so a slow phase of the machine hits both sides; which side of a pair runs
first is drawn from a generator seeded with the row's name (the same orders in every run). Wall time, user+sys CPU and
peak RSS come from wait4()'s rusage of the measured command (children included; the RSS is that
of the largest single process of the tree). Stock is `gcc ...`; ours is `gcc -B <offlink
libexec>/ ...` (offlink's lto-wrapper running offlink's mkoffload in-process). Every run uses
PATH=/usr/sbin:/usr/bin:/sbin:/bin (/usr/local/bin's CUDA 13 ptxas breaks stock nvptx links).

Sub-commands:
  suite     synthetic workloads (N units x K target regions, declare target arrays, small/large
            images, nvptx/gfx906/both, host LTO on/off), JVM start per JDK, the archive listing,
            scale curves as PNG, fitted exponent of link time vs N, slowest stage per workload;
            --quick (N up to 100, a few minutes) or --full (adds N=1000 and more variants)
  link      saxpy link time (gfx906, nvptx, both targets)
  lto20     20 units with nvptx+gcn offload linked with -flto=2 (host LTO alongside offload)
  start     JVM start of offlink's GCC-facing entry points (no-op invocations)
  list      `section-streamer list` over an archive of 1,000 offload objects
  gcc       saxpy (gfx906, nvptx, both) in the Debian root of GCC --gcc V (13-15, needs root:
            chroot and mounts), then the GCC 12 saxpy links here, in one run (issue 13's bench)
  server    links through offlink's resident link server (issue 30): GCC 12 saxpy cold on Debian's
            openjdk-17 and the tree's JDK, gfx906 and both targets, a warm-cache relink, GCC 14
            (trixie root: openjdk-21, -25) and GCC 15 (sid root: openjdk-25) saxpy, and the first
            link that starts a server against a link in a JVM of its own; each row names its mode
            and JVM, checked with the server; ratios against targets (serverbench.py; root)
  cache     relinks with offlink's device-image cache (issue 15): warm local cache after a
            host-only change (gfx906 N=100, saxpy nvptx, saxpy both) and warm remote cache (nginx
            WebDAV on loopback) with an empty local one against stock, and a cold cache against
            --no-cache; each row's cache use checked, ratios against targets (cachebench.py);
            --runs defaults to 7 here, --out to target/bench/cache; exits 1 on an ERROR row
  trees     this tree against --baseline DIR (another offlink tree, e.g. a build of an older
            commit), GCC 12 nvptx saxpy cold in a JVM per link on the tree's JDK and Debian's
            openjdk-17, stock in the same rounds; new/baseline ratios (treebench.py; issue 26)
  devicejobs  OFFLINK_FLAGS=--device-jobs=N (issue 29): gfx906 and nvptx N=1000 cold links and a
            20-unit relink after one unit's device code changed, against stock, each offlink run
            checked for its partitions (devicejobsbench.py); --device-jobs N (default 2),
            --cases cold relink, --runs defaults to 3, --out to target/bench/device-jobs
Common options: --runs N (counted runs per side, default 5), --out DIR (Markdown table + CSV).
Every mode but cache runs offlink with OFFLINK_FLAGS=--no-cache (see benchcore.base_env); every
mode but server runs it in a JVM per link (OFFLINK_FLAGS=--no-server).
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources

import argparse
import math
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchcore import DIST, LIBEXEC, REPO, alternate, base_env, measure, report
import plot
import stages
from workloads import SAXPY_SHAPE, SCALE_SHAPE, TARGETS, Shape, Workload, prepare

MANY_REGIONS_SHAPE = Shape(regions=16, variables=4, body=0, lto=False)
LARGE_SHAPE = Shape(regions=16, variables=4, body=16, lto=False)
LTO_SHAPE = Shape(regions=1, variables=2, body=0, lto=True)
RSS_TARGET_MIB = 300
LIST_TARGET_S = 1.5
QUICK_TARGET_S = 180


def log(msg):
    print(f"offbench: {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Workload plans


NVPTX_SAXPY_RUN_FACTOR = 3


def suite_plan(full, runs):
    """The workloads of --quick or --full, cheapest first. Every workload gets `runs` counted
    pairs. Quick mode (under 3 minutes on 2 cores) keeps what the acceptance needs: the saxpy
    ratios for nvptx, gfx906 and both, the nvptx scale curve up to a 100-unit program, the
    gfx906 curve's cheap points (a stock gfx906 link costs 2-7 s), and host LTO with both
    targets; --full adds N=1000, the both-target curve, larger images and the -flto=2 program.
    saxpy nvptx gets NVPTX_SAXPY_RUN_FACTOR times as many pairs: its links take 0.2 s and its
    ratio sits near its target (1.2x), where run-to-run noise needs more pairs."""
    plan = [Workload(f"saxpy {t}", t, 1, SAXPY_SHAPE,
                     runs * (NVPTX_SAXPY_RUN_FACTOR if t == "nvptx" else 1))
            for t in ("nvptx", "gfx906", "both")]
    curves = {"nvptx": (1, 10, 100, 1000), "gfx906": (1, 10, 100, 1000), "both": (1, 10, 100, 1000)}
    if not full:
        curves = {"nvptx": (1, 10, 100), "gfx906": (1, 10)}
    for t, sizes in curves.items():
        for n in sizes:
            plan.append(Workload(f"scale {t} N={n} K={SCALE_SHAPE.regions}", t, n, SCALE_SHAPE,
                                 runs, series=t))
    if full:
        for t in ("nvptx", "gfx906", "both"):
            plan.append(Workload(f"many regions {t} N=10 K={MANY_REGIONS_SHAPE.regions}", t, 10,
                                 MANY_REGIONS_SHAPE, runs))
        for t in ("nvptx", "gfx906", "both"):
            plan.append(Workload(f"large image {t} N=4 K={LARGE_SHAPE.regions} "
                                 f"B={LARGE_SHAPE.body}", t, 4, LARGE_SHAPE, runs))
    for n in ((10, 100) if full else (10,)):
        for shape, lto in ((SCALE_SHAPE, "off"), (LTO_SHAPE, "on")):
            if full or lto == "on":
                plan.append(Workload(f"host LTO {lto} both N={n} K={shape.regions}", "both", n,
                                     shape, runs))
    if full:
        plan.append(lto20_workload(runs))
    return plan


def lto20_workload(runs):
    """Issue 4's host-LTO program: 20 units, nvptx+gcn offload, linked with -flto=2."""
    return Workload("20 TUs -flto=2 both", "both", 20, LTO_SHAPE, runs, link_lto="-flto=2")


def link_argv(w, ours, output, libexec=LIBEXEC):
    head = ["gcc", f"-B{libexec}/"] if ours else ["gcc"]
    return [*head, *w.flags(), *map(str, w.objects), "-o", output]


def run_workload(w, env, work):
    """Warm-up (stock; ours with a link report: child processes' durations and the JVM's peak
    RSS; ours with lto-wrapper timed by a shim: the JVM's and gcc's own shares; see stages.py),
    then `runs` alternating pairs. Returns the row."""
    cwd = Path(work) / w.name.replace(" ", "_").replace("=", "")
    cwd.mkdir(parents=True, exist_ok=True)
    stock = lambda: measure(link_argv(w, False, "a-stock"), env, cwd)
    ours = lambda: measure(link_argv(w, True, "a-ours"), env, cwd)
    probe = {}

    def warmup():
        stock()
        report_file = cwd / "link-report.json"
        tools, times = stages.timing_tool_dir(work, LIBEXEC)
        traced = dict(env, OFFLINK_REPORT=str(report_file))
        s = measure(link_argv(w, True, "a-ours"), traced, cwd, sample_jvm=True)
        plain = measure(link_argv(w, True, "a-ours", tools), env, cwd)
        lto_wrapper = stages.take_lto_wrapper_seconds(times)
        found = lto_wrapper and stages.from_report(report_file, plain.wall, lto_wrapper)
        if not found:  # no report written: mkoffload's own phase timings instead
            s = measure(link_argv(w, True, "a-ours"), dict(env, OFFLINK_TIMING="1"), cwd)
        probe["source"] = "report" if found else "timing"
        probe["stages"] = found or stages.from_timing(s.stderr, s.wall)
        probe["jvm_rss_kib"] = s.jvm_rss_kib

    t0 = time.perf_counter()
    row = alternate(w.name, stock, ours, w.runs, warmup=warmup)
    row["ours_jvm_rss_mib"] = probe["jvm_rss_kib"] / 1024
    row["slowest_stage"] = stages.slowest(probe["stages"])
    outs = [subprocess.run([f"./a-{side}"], cwd=cwd, env=env, capture_output=True).stdout
            for side in ("stock", "ours")]
    row["same_output"] = outs[0] == outs[1]
    row["_stages"], row["_units"], row["_series"] = probe["stages"], w.units, w.series
    row["_size"] = (w.units * w.shape.regions * (w.shape.body + 1), len(TARGETS[w.target]))
    log(f"{w.name}: stock {row['stock_wall_s']:.2f} s, ours {row['ours_wall_s']:.2f} s "
        f"(x{row['ratio_median']:.2f}); slowest stage {row['slowest_stage']} "
        f"[{probe['source']}]; {time.perf_counter() - t0:.0f} s")
    return row


# ---------------------------------------------------------------------------------------------
# Summaries


def fit_exponent(points):
    """Least-squares slope of log(time) against log(N)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def scale_summary(rows):
    """Fitted exponents of link time vs N per series, and the growth check for ours."""
    lines = ["", "Link time vs N (log-log least-squares exponent; 1 = linear):", ""]
    series = sorted({r["_series"] for r in rows if r.get("_series")})
    for s in series:
        pts = sorted((r["_units"], r["stock_wall_s"], r["ours_wall_s"]) for r in rows
                     if r.get("_series") == s)
        if len(pts) < 2:
            continue
        ours = fit_exponent([(n, o) for n, _, o in pts])
        stock = fit_exponent([(n, st) for n, st, _ in pts])
        (n1, _, o1), (n2, _, o2) = pts[-2], pts[-1]
        last = math.log(o2 / o1) / math.log(n2 / n1)
        verdict = "OK" if last <= 1.1 else "WARNING: faster than linear"
        lines.append(f"- {s}: ours exponent {ours:.2f} (N={pts[0][0]}..{pts[-1][0]}), "
                     f"{last:.2f} between N={n1} and N={n2} -> {verdict}; stock {stock:.2f}")
    return lines


def rss_summary(rows):
    """Peak RSS of offlink's processes on the workload with the most units (the 1,000-unit one in
    --full), against the target."""
    cands = [r for r in rows if "_size" in r]
    if not cands:
        return []
    big = max(cands, key=lambda r: (r["_units"], r["_size"]))
    jvm = big.get("ours_jvm_rss_mib", 0)
    verdict = "OK" if 0 < jvm <= RSS_TARGET_MIB else (
        "not measured" if not jvm else f"WARNING: over {RSS_TARGET_MIB} MB")
    peak = max(r.get("ours_jvm_rss_mib", 0) for r in cands)
    return ["", f"Peak RSS of offlink's JVM on the workload with the most units ({big['workload']}): "
                f"{jvm:.0f} MiB (target <= {RSS_TARGET_MIB} MB) -> {verdict}; whole link tree "
                f"(largest single process) {big['ours_rss_mib']:.0f} MiB; JVM peak over all "
                f"workloads {peak:.0f} MiB"]


def stage_summary(rows):
    lines = ["", "Slowest stage of offlink's link per workload (one extra traced run):", ""]
    for r in rows:
        st = r.get("_stages")
        if not st:
            continue
        top = sorted(st.items(), key=lambda kv: -kv[1])[:3]
        lines.append(f"- {r['workload']}: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in top))
    return lines


def plot_scale(rows, path):
    series = []
    for s in sorted({r["_series"] for r in rows if r.get("_series")}):
        pts = sorted((r["_units"], r["stock_wall_s"], r["ours_wall_s"]) for r in rows
                     if r.get("_series") == s)
        series.append((f"stock {s}", [(n, st) for n, st, _ in pts], True))
        series.append((f"offlink {s}", [(n, o) for n, _, o in pts], False))
    if series:
        plot.plot(path, series, f"Link wall time vs N (K={SCALE_SHAPE.regions} regions/unit)",
                  "N (translation units)", "median wall time (s)")
        log(f"wrote {path} and {path.with_suffix('.svg')}")


# ---------------------------------------------------------------------------------------------
# Sub-commands


def bench_suite(args):
    started = time.perf_counter()
    load0 = os.getloadavg()
    out = Path(args.out) if args.out else REPO / "target" / "bench" / (
        "full" if args.full else "quick")
    out.mkdir(parents=True, exist_ok=True)
    plan = suite_plan(args.full, args.runs)
    env = base_env()
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        t0 = time.perf_counter()
        prepare(tmp, plan, env, log)
        log(f"compiled every workload's objects in {time.perf_counter() - t0:.0f} s")
        rows = [run_workload(w, env, tmp) for w in plan]
    rows += bench_start(args)
    list_args = argparse.Namespace(members=1000, runs=args.runs,
                                   distinct=1000 if args.full else 20)
    rows += bench_list(list_args)
    extra = scale_summary(rows) + rss_summary(rows) + stage_summary(rows)
    lst = rows[-1]
    extra += ["", f"section-streamer list, 1,000 members: median {lst['ours_wall_s']:.2f} s "
                  f"(target < {LIST_TARGET_S} s) -> "
                  + ("OK" if lst["ours_wall_s"] < LIST_TARGET_S else "WARNING")]
    plot_scale(rows, out / "scale.png")
    took = time.perf_counter() - started
    extra += ["", f"Scale plot: {out / 'scale.png'} (and scale.svg)",
              f"Machine: {os.cpu_count()} CPUs, load average {load0[0]:.1f} at start, "
              f"{os.getloadavg()[0]:.1f} at end; suite took {took:.0f} s"
              + ("" if args.full else f" (quick mode target < {QUICK_TARGET_S} s -> "
                 + ("OK)" if took < QUICK_TARGET_S else "WARNING)"))]
    public = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    report(public, out, "\n".join(extra))


def bench_link(args):
    plan = [Workload(f"saxpy {t}", t, 1, SAXPY_SHAPE, args.runs) for t in args.targets]
    env = base_env()
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        prepare(tmp, plan, env, log)
        rows = [run_workload(w, env, tmp) for w in plan]
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]


def bench_gcc(args):
    """saxpy in the root of GCC --gcc V, then the GCC 12 saxpy links here, one run."""
    import versions

    rows = versions.saxpy_rows(args.gcc, args.targets, args.runs, log)
    return rows + bench_link(args)


def bench_lto20(args):
    """Issue 4's host-LTO workload: 20 units, nvptx+gcn offload, linked with -flto=2 (WPA and
    two LTRANS jobs alongside the offload images)."""
    plan = [lto20_workload(args.runs)]
    env = base_env()
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        prepare(tmp, plan, env, log)
        rows = [run_workload(w, env, tmp) for w in plan]
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]


def bench_start(args):
    """JVM start: median wall of a no-op `--version` of each GCC-facing entry point, per JDK."""
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
            rows.append({"workload": f"JVM start {tool} --version ({jdk_name(java)})",
                         "runs": args.runs, "ours_wall_s": statistics.median(times),
                         "ours_max_s": max(times)})
    return rows


def find_jdks():
    """java of every JDK 17+ under /usr/lib/jvm (symlinked aliases skipped)."""
    found = []
    for home in sorted(Path("/usr/lib/jvm").glob("*")):
        java = home / "bin" / "java"
        if java.is_file() and not home.is_symlink() and jdk_major(java) >= 17:
            found.append(java)
    return found


def jdk_major(java):
    out = subprocess.run([str(java), "-XshowSettings:properties", "-version"],
                         capture_output=True, text=True).stderr
    for line in out.splitlines():
        if "java.specification.version" in line:
            v = line.split("=")[1].strip()
            return int((v[2:] if v.startswith("1.") else v).split(".")[0])
    return 0


def jdk_name(java):
    out = subprocess.run([str(java), "-version"], capture_output=True, text=True).stderr
    return out.splitlines()[0].split('"')[1] if '"' in out else java.parent.parent.name


def bench_list(args):
    """`section-streamer list` over an archive of `members` offload objects, JVM start in.
    `distinct` sources are compiled; the members are copies of them under distinct names (the
    listing reads every member whatever its contents, and compiling 1,000 units takes a while)."""
    distinct = min(args.distinct, args.members)
    with tempfile.TemporaryDirectory(prefix="offbench-") as tmp:
        tmp = Path(tmp)
        env = base_env()
        srcs = []
        for i in range(distinct):
            src = tmp / f"s{i:04d}.c"
            src.write_text(f"int v{i};\n#pragma omp declare target to(v{i})\n"
                           f"int f{i}(void) {{ int r = 0;\n#pragma omp target map(from:r)\n"
                           f"r = {i};\nreturn r; }}\n")
            srcs.append(src.name)
        # Batches of 100 sources per gcc, two at a time: set-up stays short on 2 cores.
        batches = [srcs[k:k + 100] for k in range(0, len(srcs), 100)]
        procs = []
        for b in batches:
            procs.append(subprocess.Popen(["gcc", "-fopenmp", "-foffload=nvptx-none", "-c", *b],
                                          cwd=tmp, env=env))
            if len(procs) == 2:
                if procs.pop(0).wait() != 0:
                    raise SystemExit("offbench: compiling the archive members failed")
        if any(p.wait() != 0 for p in procs):
            raise SystemExit("offbench: compiling the archive members failed")
        members = []
        for i in range(args.members):
            name = f"m{i:04d}.o"
            shutil.copyfile(tmp / (srcs[i % distinct][:-2] + ".o"), tmp / name)
            members.append(name)
        subprocess.run(["ar", "rcs", "lib.a", *members], cwd=tmp, env=env, check=True)
        cli = str(DIST / "bin" / "section-streamer")
        measure([cli, "list", "lib.a"], env, tmp)  # warm-up
        times = [measure([cli, "list", "lib.a"], env, tmp).wall for _ in range(args.runs)]
        return [{"workload": f"section-streamer list ({args.members}-member archive)",
                 "runs": args.runs, "ours_wall_s": statistics.median(times),
                 "ours_max_s": max(times)}]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what",
                   choices=["suite", "link", "lto20", "start", "list", "all", "gcc", "cache",
                            "server", "devicejobs", "trees"])
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="suite: N up to 100 (default)")
    mode.add_argument("--full", action="store_true", help="suite: adds N=1000 and more variants")
    p.add_argument("--runs", type=int, help="counted runs per side (5; cache: 7)")
    p.add_argument("--targets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    p.add_argument("--gcc", type=int, default=14,
                   help="gcc: the GCC version whose Debian root runs the saxpy links (13-15)")
    p.add_argument("--members", type=int, default=1000)
    p.add_argument("--distinct", type=int, default=1000,
                   help="list: distinct compiled members (the rest are renamed copies)")
    p.add_argument("--out", help="directory for bench.md, bench.csv (and scale.png for suite)")
    p.add_argument("--device-jobs", type=int, default=2, help="devicejobs: N of --device-jobs=N")
    p.add_argument("--baseline", help="trees: the offlink tree to compare with (its root)")
    p.add_argument("--cases", nargs="+", choices=["cold", "relink"],
                   help="devicejobs: which rows (default both)")
    args = p.parse_args()
    if not (LIBEXEC / "lto-wrapper").exists():
        raise SystemExit("offbench: target/offlink is missing; run scripts/build.sh first")
    if args.runs is not None and args.runs < 1:
        raise SystemExit("offbench: --runs must be at least 1")
    if args.what == "devicejobs":
        import devicejobsbench

        sys.exit(devicejobsbench.bench_device_jobs(args))
    if args.what == "cache":
        import cachebench

        sys.exit(cachebench.bench_cache(args))
    if args.what == "server":
        import serverbench

        sys.exit(serverbench.bench_server(args))
    if args.what == "trees":
        import serverbench
        import treebench

        if not args.baseline:
            raise SystemExit("offbench trees: --baseline DIR (an offlink tree) is required")
        if args.runs is None:
            args.runs = 21  # a saxpy link is short: many pairs for a median within 2%
        rows = treebench.bench_trees(args, serverbench.recorded_jdk(), log)
        report(rows, args.out or str(REPO / "target" / "bench" / "trees"),
               columns=treebench.COLUMNS)
        return
    if args.runs is None:
        args.runs = 5
    if args.what == "suite":
        bench_suite(args)
        return
    rows = []
    if args.what == "gcc":
        rows += bench_gcc(args)
    if args.what in ("link", "all"):
        rows += bench_link(args)
    if args.what in ("lto20", "all"):
        rows += bench_lto20(args)
    if args.what in ("start", "all"):
        rows += bench_start(args)
    if args.what in ("list", "all"):
        rows += bench_list(args)
    report(rows, args.out)


if __name__ == "__main__":
    main()
