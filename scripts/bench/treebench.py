"""offbench `trees` (issue 26): this tree against a baseline tree of offlink, both linking in a JVM
per link (OFFLINK_FLAGS=--no-server --no-cache), on the same objects, per JDK, with stock GCC in
the same rounds.

A refactoring that must not cost time is measured here: the baseline is a build of an older commit
(`git worktree add --detach /tmp/base <commit> && cd /tmp/base && mvn -B -q -DskipTests package`),
the workload the GCC 12 nvptx saxpy link (where the JVM's share is largest), the JDKs the tree's
recorded one and Debian's openjdk-17 (`/usr/lib/jvm/java-17-openjdk-amd64`), each given to both
trees as OFFLINK_JAVA (a start-up cache trained for it is used by both when present). Each round
runs stock, baseline and new once, in an order drawn from a generator seeded with the row's name;
the ratios are taken round by round, their median reported.
"""
import random
import statistics
import tempfile
from pathlib import Path

from benchcore import LIBEXEC, base_env, measure
from workloads import SAXPY_SHAPE, Workload, prepare

DEBIAN_JDK17 = Path("/usr/lib/jvm/java-17-openjdk-amd64")
COLUMNS = ["workload", "runs", "stock_wall_s", "baseline_wall_s", "new_wall_s",
           "new_over_baseline", "new_over_baseline_min", "new_over_baseline_max",
           "baseline_over_stock", "new_over_stock"]


def jdks(recorded):
    found = [recorded]
    if DEBIAN_JDK17.exists() and DEBIAN_JDK17.resolve() != recorded.resolve():
        found.append(DEBIAN_JDK17)
    return found


def bench_trees(args, recorded, log):
    baseline = Path(args.baseline).resolve() / "libexec" / "offlink"
    if not (baseline / "lto-wrapper").exists():
        raise SystemExit(f"offbench trees: no offlink tree at {args.baseline} (libexec/offlink)")
    w = Workload("saxpy nvptx", "nvptx", 1, SAXPY_SHAPE, args.runs)
    med = statistics.median
    rows = []
    with tempfile.TemporaryDirectory(prefix="offbench-trees-") as tmp:
        prepare(tmp, [w], base_env(), log)
        cwd = Path(tmp)
        for java in jdks(recorded):
            env = base_env()
            env["OFFLINK_JAVA"] = str(java / "bin" / "java")

            # A tree from before the link server (issue 30) knows no --no-server: it always
            # links in a JVM of its own.
            old_env = dict(env)
            old_env["OFFLINK_FLAGS"] = " ".join(
                word for word in env["OFFLINK_FLAGS"].split() if word != "--no-server")

            def link(libexec, out, side_env=env):
                head = ["gcc", f"-B{libexec}/"] if libexec else ["gcc"]
                argv = [*head, *w.flags(), *map(str, w.objects), "-o", out]
                return lambda: measure(argv, side_env, cwd).wall

            sides = {"stock": link(None, "a-stock"), "baseline": link(baseline, "a-baseline", old_env),
                     "new": link(LIBEXEC, "a-new")}
            name = f"GCC 12 saxpy nvptx cold, JVM per link, {java.name}"
            log(f"trees: {name}")
            for run in sides.values():  # warm-up
                run()
            order = random.Random(name)
            times = {k: [] for k in sides}
            for _ in range(args.runs):
                keys = list(sides)
                order.shuffle(keys)
                for k in keys:
                    times[k].append(sides[k]())
            ratio = [n / b for n, b in zip(times["new"], times["baseline"])]
            rows.append({
                "workload": name,
                "runs": args.runs,
                "stock_wall_s": med(times["stock"]),
                "baseline_wall_s": med(times["baseline"]),
                "new_wall_s": med(times["new"]),
                "new_over_baseline": med(ratio),
                "new_over_baseline_min": min(ratio),
                "new_over_baseline_max": max(ratio),
                "baseline_over_stock": med(b / s for b, s in zip(times["baseline"], times["stock"])),
                "new_over_stock": med(n / s for n, s in zip(times["new"], times["stock"])),
            })
    return rows
