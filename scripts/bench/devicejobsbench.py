"""offbench's device-jobs mode (issue 29): OFFLINK_FLAGS=--device-jobs=N, the device code compiled in
partitions (docs/parallel-device-compile.md), against stock GCC in the same run, alternating pairs.

Rows (ratio = offlink / baseline, pair by pair, median; targets from issue 29):
  cold     N=1000 units of one target region each (the suite's scale shape), gfx906 and nvptx:
           offlink --device-jobs=N --no-cache against stock GCC (targets 0.50 and 0.60 with N=2).
  relink   20 units with a heavier device part (8 regions, 24-statement loop bodies), gfx906: before
           every timed offlink link one unit's device code changes (a constant in its declare
           target function) and that unit is recompiled (untimed); offlink relinks with
           --device-jobs and its warm cache (the other partitions hit) against stock GCC's full
           device compile of the same objects (target 0.20).
  relink cold  the same 20 units, offlink --device-jobs --no-cache against stock (no target).
Both sides of a pair run the same gcc link with -v; offlink starts a JVM per link (--no-server), so
its CPU column counts its whole process tree, the partitions' compiles included. Every timed
offlink run is checked: its `device partitions: P for N inputs, C compiled, H from the cache`
line must say what the row claims (no partitioning, or every partition compiled when it should
hit, is an ERROR row), and both programs must print the same. offbench exits 1 on an ERROR row.
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchcore import LIBEXEC, REPO, alternate, base_env, measure, report
from workloads import SCALE_SHAPE, TARGETS, Shape, Workload, compile_shape, prepare, unit_source

RELINK_SHAPE = Shape(regions=8, variables=2, body=24, lto=False)
PARTITION_LINE = re.compile(
    r"^\S+ \S+: device partitions: (\d+) for (\d+) inputs, (\d+) compiled, (\d+) from the cache$",
    re.M)
COLUMNS = ["case", "workload", "baseline", "runs", "baseline_wall_s", "offlink_wall_s",
           "ratio_median", "ratio_min", "ratio_max", "baseline_cpu_s", "offlink_cpu_s", "target",
           "result", "check"]


class CheckError(Exception):
    """An offlink run that did not partition the way its row measures."""


def log(msg):
    print(f"offbench: {msg}", file=sys.stderr, flush=True)


def partitions(stderr, targets):
    """(partitions, inputs, compiled, cached) per target line, checked to be one per target."""
    found = [tuple(map(int, m.groups())) for m in PARTITION_LINE.finditer(stderr)]
    if len(found) != targets:
        lines = [l for l in stderr.splitlines() if "device partitions" in l]
        raise CheckError(f"expected {targets} partition line(s), got {lines or 'none'}")
    return found


class Program:
    """A workload linked in its own folder by stock GCC and by offlink with --device-jobs."""

    def __init__(self, w, root, env, jobs, cache_dir=None):
        self.w, self.env, self.jobs, self.cache_dir = w, env, jobs, cache_dir
        self.cwd = Path(root) / ("dj-" + w.name.replace(" ", "_").replace("=", ""))
        self.cwd.mkdir(parents=True, exist_ok=True)

    def argv(self, ours, output):
        head = ["gcc", "-v", f"-B{LIBEXEC}/"] if ours else ["gcc", "-v"]
        return [*head, *self.w.flags(), *map(str, self.w.objects), "-o", output]

    def stock(self):
        return measure(self.argv(False, "a-stock"), self.env, self.cwd)

    def ours(self, expect_compiled=None, output="a-ours"):
        """One offlink link; expect_compiled: how many partitions each target compiles (None: all)."""
        env = dict(self.env)
        # base_env's words (--no-server: a JVM per link, whose children this process waits for,
        # so the CPU column counts the partitions' compiles too), then the row's own.
        flags = f"{env.get('OFFLINK_FLAGS', '')} --device-jobs={self.jobs}".strip()
        if self.cache_dir is None:
            flags += " --no-cache"
        else:
            env["OFFLINK_CACHE_DIR"] = str(self.cache_dir)
        env["OFFLINK_FLAGS"] = flags
        s = measure(self.argv(True, output), env, self.cwd)
        for parts, inputs, compiled, cached in partitions(s.stderr, len(TARGETS[self.w.target])):
            want = parts if expect_compiled is None else expect_compiled
            if parts < 2 or compiled != want or compiled + cached != parts:
                raise CheckError(f"{parts} partitions for {inputs} inputs, {compiled} compiled, "
                                 f"{cached} from the cache; expected {want} compiled")
        return s

    def same_output(self):
        outs = [subprocess.run([f"./a-{side}"], cwd=self.cwd, env=self.env,
                               capture_output=True).stdout for side in ("stock", "ours")]
        if outs[0] != outs[1] or not outs[0]:
            raise CheckError(f"outputs differ: stock {outs[0]!r}, offlink {outs[1]!r}")


def row(case, w, target, measure_pairs, check):
    t0 = time.perf_counter()
    base = {"case": case, "workload": w.name, "baseline": "stock",
            "target": f"<= {target:.2f}" if target else "-"}
    try:
        r = measure_pairs()
        check()
    except CheckError as e:
        log(f"{case} {w.name}: ERROR: {e}")
        return dict(base, runs=w.runs, result="ERROR", check=f"ERROR: {e}")
    ok = target is None or r["ratio_median"] <= target
    verdict = "-" if target is None else ("PASS" if ok else "FAIL")
    log(f"{case} {w.name}: stock {r['stock_wall_s']:.2f} s, offlink {r['ours_wall_s']:.2f} s "
        f"(x{r['ratio_median']:.3f}) -> {verdict}; {time.perf_counter() - t0:.0f} s")
    return dict(base, runs=r["runs"], baseline_wall_s=r["stock_wall_s"],
                offlink_wall_s=r["ours_wall_s"], ratio_median=r["ratio_median"],
                ratio_min=r["ratio_min"], ratio_max=r["ratio_max"],
                baseline_cpu_s=r["stock_cpu_s"], offlink_cpu_s=r["ours_cpu_s"], result=verdict,
                check="ok")


def cold_row(w, root, env, jobs, target):
    p = Program(w, root, env, jobs)
    return row(f"cold, --device-jobs={jobs}", w, target,
               lambda: alternate(w.name, p.stock, p.ours, w.runs), p.same_output)


class Edited:
    """The relink workload: unit `unit`'s device code changes before every offlink link."""

    def __init__(self, w, root, env, unit):
        self.w, self.env, self.unit, self.version = w, env, unit, 0
        self.obj = Path(w.objects[unit])
        self.src = self.obj.with_suffix(".c")

    def change(self):
        """A new constant in the unit's declare target function, recompiled (untimed)."""
        self.version += 1
        text = unit_source(self.unit, self.w.shape)
        old = f"return v * 0.5f + {self.unit}.0f;"
        if old not in text:
            raise CheckError(f"unit {self.unit}'s source has no '{old}' to change")
        text = text.replace(old, f"return v * 0.5f + {self.unit}.0f + {self.version}.0f;")
        self.src.write_text(text)
        measure(["gcc", "-fopenmp", "-O2", "-c", self.src.name, "-o", self.obj.name],
                self.env, self.obj.parent)


def relink_rows(w, root, env, jobs, target):
    cache = Path(root) / "dj-relink-cache"
    p = Program(w, root, env, jobs, cache_dir=cache)
    edit = Edited(w, root, env, unit=len(w.objects) // 2)

    def ours_after_change():
        edit.change()
        return p.ours(expect_compiled=1)

    def pairs():
        edit.change()
        p.ours()  # fills the cache: every partition compiled
        return alternate(w.name + " relink", p.stock, ours_after_change, w.runs,
                         warmup=lambda: (p.stock(), ours_after_change()))

    rows = [row(f"relink after one unit's device code changed, --device-jobs={jobs}", w, target,
                pairs, p.same_output)]
    cold = Program(w, root, env, jobs)
    cold.cwd = p.cwd
    rows.append(row(f"same program cold, --device-jobs={jobs}", w, None,
                    lambda: alternate(w.name + " cold", cold.stock, cold.ours, w.runs),
                    cold.same_output))
    return rows


def bench_device_jobs(args):
    started = time.perf_counter()
    load0 = os.getloadavg()
    runs = args.runs or 3
    jobs = args.device_jobs
    out = Path(args.out) if args.out else REPO / "target" / "bench" / "device-jobs"
    env = base_env(cache=True)  # OFFLINK_FLAGS=--no-server only: each row names its cache
    big = [Workload("gfx906 N=1000", "gfx906", 1000, SCALE_SHAPE, runs),
           Workload("nvptx N=1000", "nvptx", 1000, SCALE_SHAPE, runs)]
    small = Workload("gfx906 20 units K=8 B=24", "gfx906", 20, RELINK_SHAPE, runs)
    cases = args.cases or ["cold", "relink"]
    with tempfile.TemporaryDirectory(prefix="offbench-dj-") as tmp:
        t0 = time.perf_counter()
        todo = (big if "cold" in cases else []) + ([small] if "relink" in cases else [])
        prepare(tmp, todo, env, log)
        log(f"compiled the workloads' objects in {time.perf_counter() - t0:.0f} s")
        rows = []
        if "cold" in cases:
            rows += [cold_row(big[0], tmp, env, jobs, 0.50), cold_row(big[1], tmp, env, jobs, 0.60)]
        if "relink" in cases:
            rows += relink_rows(small, tmp, env, jobs, 0.20)
    took = time.perf_counter() - started
    errors = sum(r["result"] == "ERROR" for r in rows)
    fails = sum(r["result"] == "FAIL" for r in rows)
    extra = (f"{sum(r['result'] == 'PASS' for r in rows)} PASS, {fails} FAIL, {errors} ERROR; "
             f"{os.cpu_count()} CPUs, load average {load0[0]:.1f} at start, "
             f"{os.getloadavg()[0]:.1f} at end; device-jobs mode took {took:.0f} s")
    report(rows, out, extra, columns=COLUMNS)
    return 1 if errors else 0
