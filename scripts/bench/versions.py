"""The saxpy link bench inside a Debian root of another GCC version (issue 13): stock gcc-<V>
against gcc-<V> -B <offlink>/libexec/offlink/, alternating, in the same run as the GCC 12 saxpy
links on this machine, so both sets of ratios come from one machine state.

The root (scripts/setup-toolchain.sh --gcc V) gets /proc and /dev, and offlink's tree and the JDK
it records (lib/java.conf) bind-mounted read-only at their own paths, so the tree's start-up cache
(lib/cds) matches as it does outside; everything is unmounted at exit, also on SIGINT/SIGTERM."""

import atexit
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from benchcore import DIST, alternate, base_env, measure
from workloads import SAXPY, TARGETS

ROOTS = Path(os.environ.get("OFFLINK_ROOTS", "/var/cache/offlink/roots"))


class Root:
    """A mounted Debian root; unmount() undoes every mount, newest first."""

    def __init__(self, major):
        self.major = major
        self.path = ROOTS / f"gcc-{major}"
        if not (self.path / ".offlink-root-complete").exists():
            raise SystemExit(f"offbench: no GCC {major} root under {ROOTS} "
                             f"(scripts/setup-toolchain.sh --gcc {major} builds it)")
        self.mounts = []
        atexit.register(self.unmount)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, lambda *_: (self.unmount(), os._exit(130)))
        self._mount(["mount", "-t", "proc", "proc"], self.path / "proc")
        self._mount(["mount", "--bind", "/dev"], self.path / "dev")
        self.bind(DIST)
        conf = DIST / "lib" / "java.conf"
        if conf.exists():
            self.bind(Path(conf.read_text().strip()).resolve().parents[1])

    def bind(self, host):
        target = self.path / str(host).lstrip("/")
        target.mkdir(parents=True, exist_ok=True)
        self._mount(["mount", "--bind", str(host)], target)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], check=True)

    def _mount(self, argv, target):
        subprocess.run([*argv, str(target)], check=True)
        self.mounts.append(target)

    def unmount(self):
        while self.mounts:
            subprocess.run(["umount", "-l", str(self.mounts.pop())], check=False)

    def argv(self, workdir, cmd):
        """cmd run in the root, in workdir (a host path under the root)."""
        inside = "/" + str(Path(workdir).relative_to(self.path))
        return ["chroot", str(self.path), "/usr/bin/env", "-C", inside, *cmd]


def saxpy_rows(major, targets, runs, log):
    root = Root(major)
    gcc = f"gcc-{major}"
    libexec = DIST / "libexec" / "offlink"
    env = base_env()
    rows = []
    work = Path(tempfile.mkdtemp(prefix="offbench-", dir=root.path / "tmp"))
    try:
        (work / "saxpy.c").write_text(SAXPY)
        for t in targets:
            d = work / t
            d.mkdir()
            flags = ["-O2", "-fopenmp", *TARGETS[t]]
            measure(root.argv(d, [gcc, *flags, "-c", "../saxpy.c", "-o", "saxpy.o"]), env, d)
            stock = lambda: measure(root.argv(d, [gcc, *flags, "saxpy.o", "-o", "a-stock"]), env, d)
            ours = lambda: measure(root.argv(d, [gcc, f"-B{libexec}/", *flags, "saxpy.o",
                                                 "-o", "a-ours"]), env, d)
            row = alternate(f"GCC {major} saxpy {t}", stock, ours, runs)
            outs = [subprocess.run(root.argv(d, [f"./a-{s}"]), env=env, capture_output=True).stdout
                    for s in ("stock", "ours")]
            row["same_output"] = outs[0] == outs[1]
            log(f"{row['workload']}: stock {row['stock_wall_s']:.3f} s, ours "
                f"{row['ours_wall_s']:.3f} s (x{row['ratio_median']:.2f})")
            rows.append(row)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        root.unmount()
    return rows
