"""offbench's server mode (issue 30): links through offlink's resident link server against stock
GCC, every row from one run, each naming the link mode and the JVM that ran offlink's side.

Rows (ratio = offlink / baseline, pair by pair, median; cold = OFFLINK_FLAGS=--no-cache):
  GCC 12 saxpy nvptx cold, server on Debian's openjdk-17             <= 0.75 x stock
  GCC 12 saxpy nvptx cold, server on the JDK the tree records        <= 0.75
  GCC 12 saxpy gfx906 cold, server on the tree's JDK                 <= 0.10
  GCC 12 saxpy both targets cold, server on the tree's JDK           <= 0.12
  GCC 12 saxpy nvptx warm-cache relink, server on the tree's JDK     <= 0.45
  GCC 14 saxpy nvptx cold, trixie root, server on openjdk-21 / -25   <= 0.75
  GCC 15 saxpy nvptx cold, sid root, server on openjdk-25            <= 0.75
  GCC 15 saxpy gfx906 cold, sid root, server on openjdk-25           <= 0.85
  first link with no server running, against a link in a JVM of its own (the tree's JDK): the
  server is stopped (untimed) before every such link, which then starts one   <= 1.20
The server's JVM is chosen the way users choose it, by JAVA_HOME (OFFLINK_JAVA naming another JVM
makes the client link in a JVM of its own). Every row asks its server, by the protocol's STATUS
frame, how many links it ran and on which JVM, and is an ERROR row unless every counted offlink
link went through it. Debian's JDKs are installed in the roots (apt-get in the chroot) when
missing. Servers live in this run's own folders and are stopped at the end.
"""
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import versions
from benchcore import DIST, LIBEXEC, REPO, alternate, base_env, measure, report
from cachebench import Relink
from workloads import SAXPY_SHAPE, TARGETS, Workload, prepare

DEBIAN_JDK17 = Path("/usr/lib/jvm/java-17-openjdk-amd64")
COLUMNS = ["row", "mode", "jvm", "baseline", "runs", "baseline_wall_s", "offlink_wall_s",
           "ratio_median", "ratio_min", "ratio_max", "target", "result", "check"]
# Links of well under half a second (every saxpy nvptx link, a link that starts a server, and gcn
# links from GCC 15 on, whose stock mkoffload embeds the image with #embed instead of compiling a C
# array) move by tens of percent from run to run: their rows get three times the pairs.
SHORT_LINK_RUN_FACTOR = 3


def short_link(target, major=12):
    return target == "nvptx" or major >= 15


def log(msg):
    print(f"offbench: {msg}", file=sys.stderr, flush=True)


class RowError(Exception):
    """A row whose offlink links did not run the way it claims."""


# ---------------------------------------------------------------------------------------------
# The protocol, as much of it as a bench needs (link-server/src/main/c/protocol.h)


def ask(sock, code):
    """Sends a STATUS ('S') or STOP ('X') frame; the server's key=value answer, or None."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(str(sock))
        s.sendall(struct.pack(">IBH", 3, ord(code), 1))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    except OSError:
        return None
    finally:
        s.close()
    if len(data) < 5 or data[4:5] != b"T":
        return None
    text = data[5:5 + struct.unpack(">I", data[:4])[0] - 1].decode()
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def servers(folder):
    """(socket, status) of every live server in folder."""
    found = []
    for sock in sorted(Path(folder).glob("*.sock")) if Path(folder).is_dir() else []:
        st = ask(sock, "S")
        if st:
            found.append((sock, st))
    return found


def stop_servers(folder):
    """Stops every server in folder and waits for each to exit."""
    for sock, st in servers(folder):
        ask(sock, "X")
        pid = int(st["pid"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.01)


def links_run(folder):
    """{jvm description: links run} of the servers in folder."""
    return {f"{st['java_version']} ({st['java']})": int(st["links"]) for _, st in servers(folder)}


def served(folder, before, expected):
    """The JVM that ran `expected` more links since `before`; RowError unless exactly one did."""
    after = links_run(folder)
    grown = {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}
    if list(grown.values()) != [expected]:
        raise RowError(f"expected one server to run {expected} links, saw {grown or 'none'}")
    return next(iter(grown))


# ---------------------------------------------------------------------------------------------
# Rows


def row(name, target, baseline, measure_pairs):
    """Runs measure_pairs() -> (alternate()'s result, mode, jvm); a table row."""
    t0 = time.perf_counter()
    base = {"row": name, "baseline": baseline, "target": f"<= {target:.2f}"}
    try:
        r, mode, jvm = measure_pairs()
    except RowError as e:
        log(f"{name}: ERROR: {e}")
        return dict(base, result="ERROR", check=f"ERROR: {e}")
    ok = r["ratio_median"] <= target
    log(f"{name}: {baseline} {r['stock_wall_s']:.3f} s, offlink {r['ours_wall_s']:.3f} s "
        f"(x{r['ratio_median']:.3f}, target <= {target}) -> {'PASS' if ok else 'FAIL'} "
        f"[{mode}, {jvm}]; {time.perf_counter() - t0:.0f} s")
    return dict(base, mode=mode, jvm=jvm, runs=r["runs"], baseline_wall_s=r["stock_wall_s"],
                offlink_wall_s=r["ours_wall_s"], ratio_median=r["ratio_median"],
                ratio_min=r["ratio_min"], ratio_max=r["ratio_max"],
                result="PASS" if ok else "FAIL", check="ok")


def server_env(env, java_home, folder):
    e = dict(env)
    e.pop("OFFLINK_JAVA", None)
    e["JAVA_HOME"] = str(java_home)
    e["OFFLINK_SERVER_DIR"] = str(folder)
    e["OFFLINK_SERVER_IDLE"] = "900"
    return e


def link_argv(w, ours, output):
    head = ["gcc", f"-B{LIBEXEC}/"] if ours else ["gcc"]
    return [*head, *w.flags(), *map(str, w.objects), "-o", output]


def cold_row(name, w, env, folder, target):
    """Stock against offlink through the server on env's JAVA_HOME (started by the warm-up)."""
    cwd = Path(w.objects[0]).parent.parent / w.name.replace(" ", "_")
    cwd.mkdir(exist_ok=True)

    def pairs():
        stock = lambda: measure(link_argv(w, False, "a-stock"), env, cwd)
        ours = lambda: measure(link_argv(w, True, "a-ours"), env, cwd)
        ours()  # starts the server; the warm-up below is its first counted-out link
        before = links_run(folder)
        r = alternate(name, stock, ours, w.runs)
        jvm = served(folder, before, w.runs + 1)
        same(cwd, env)
        return r, "server", jvm
    return row(name, target, "stock", pairs)


def same(cwd, env):
    outs = [subprocess.run([f"./a-{s}"], cwd=cwd, env=env, capture_output=True).stdout
            for s in ("stock", "ours")]
    if outs[0] != outs[1]:
        raise RowError(f"the programs differ: stock {outs[0]!r}, offlink {outs[1]!r}")


def warm_relink_row(name, w, env, folder, tmp, target):
    """A relink after a host-only change with a warm device-image cache, through the server."""
    cache_env = dict(env)
    cache_env.pop("OFFLINK_FLAGS", None)
    rl = Relink(w, tmp, cache_env)
    cache = Path(tmp) / "cache-nvptx-server"

    def pairs():
        rl.ours("miss", OFFLINK_CACHE_DIR=str(cache))
        before = links_run(folder)
        r = alternate(name, rl.stock, lambda: rl.ours("local", OFFLINK_CACHE_DIR=str(cache)),
                      w.runs)
        return r, "server", served(folder, before, w.runs + 1)
    return row(name, target, "stock", pairs)


def first_link_row(name, w, java_home, env, folder, target):
    """A link that finds no server (and starts one) against a link in a JVM of its own."""
    cwd = Path(w.objects[0]).parent.parent / "first-link"
    cwd.mkdir(exist_ok=True)
    in_process = dict(env, OFFLINK_FLAGS=env.get("OFFLINK_FLAGS", "") + " --no-server")

    def pairs():
        started = []

        def first():
            stop_servers(folder)
            s = measure(link_argv(w, True, "a-first"), env, cwd)
            started.append(links_run(folder))
            return s
        own = lambda: measure(link_argv(w, True, "a-own"), in_process, cwd)
        r = alternate(name, own, first, w.runs)
        fresh = [sum(c.values()) for c in started]
        if fresh != [1] * len(fresh):
            raise RowError(f"each first link should start a server that ran it once: {fresh}")
        stop_servers(folder)
        return r, "server (started by the link)", jdk_name(java_home)
    return row(name, target, "offlink in-process", pairs)


def jdk_name(home):
    out = subprocess.run([str(Path(home) / "bin" / "java"), "-version"], capture_output=True,
                         text=True).stderr
    version = out.splitlines()[0].split('"')[1] if '"' in out else "?"
    return f"{version} ({Path(home).resolve() / 'bin' / 'java'})"


def recorded_jdk():
    conf = DIST / "lib" / "java.conf"
    if not conf.exists():
        raise SystemExit("offbench: the tree records no JDK (lib/java.conf); build it first")
    return Path(conf.read_text().strip()).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# Debian roots


class ServerRoot(versions.Root):
    """A mounted root with Debian JDKs installed; its servers are stopped before it unmounts."""

    def __init__(self, major, jdks):
        super().__init__(major)
        self.folders = []
        missing = [p for p in jdks if not (self.path / "usr/lib/jvm" / p.replace(
            "openjdk-", "java-").replace("-jre-headless", "-openjdk-amd64")).exists()]
        if missing:
            log(f"installing {' '.join(missing)} in {self.path} (apt-get in the chroot)")
            apt = ["chroot", str(self.path), "env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                   "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=900",
                   "-o", "Acquire::Check-Valid-Until=false", "-o",
                   "APT::Install-Recommends=false"]
            subprocess.run([*apt, "update", "-qq"], check=True)
            subprocess.run([*apt, "install", "-y", "-qq", *missing], check=True)

    def folder(self, name):
        f = self.path / "tmp" / f"offbench-servers-{os.getpid()}-{name}"
        self.folders.append(f)
        return f

    def unmount(self):
        for f in self.folders:
            stop_servers(f)
            shutil.rmtree(f, ignore_errors=True)
        self.folders = []
        super().unmount()


def root_rows(major, specs, runs):
    """specs: [(target, jdk package, ratio target)]; the rows of one root, one run."""
    jdks = sorted({p for _, p, _ in specs})
    root = ServerRoot(major, jdks)
    gcc = f"gcc-{major}"
    env = base_env(server=True)
    rows = []
    work = Path(tempfile.mkdtemp(prefix="offbench-server-", dir=root.path / "tmp"))
    try:
        (work / "saxpy.c").write_text(versions.SAXPY)
        for t, package, target in specs:
            d = work / f"{t}-{package}"
            d.mkdir()
            flags = ["-O2", "-fopenmp", *TARGETS[t]]
            measure(root.argv(d, [gcc, *flags, "-c", "../saxpy.c", "-o", "saxpy.o"]), env, d)
            home = "/usr/lib/jvm/" + package.replace("openjdk-", "java-").replace(
                "-jre-headless", "-openjdk-amd64")
            folder = root.folder(package)
            inside = "/" + str(folder.relative_to(root.path))
            e = server_env(env, home, inside)
            n = runs * (SHORT_LINK_RUN_FACTOR if short_link(t, major) else 1)
            stock = lambda: measure(root.argv(d, [gcc, *flags, "saxpy.o", "-o", "a-stock"]), e, d)
            ours = lambda: measure(root.argv(d, [gcc, f"-B{LIBEXEC}/", *flags, "saxpy.o", "-o",
                                                 "a-ours"]), e, d)

            def pairs():
                ours()
                before = links_run(folder)
                r = alternate(f"GCC {major} {t} {package}", stock, ours, n)
                jvm = served(folder, before, n + 1)
                outs = [subprocess.run(root.argv(d, [f"./a-{s}"]), env=e,
                                       capture_output=True).stdout for s in ("stock", "ours")]
                if outs[0] != outs[1]:
                    raise RowError("the programs differ")
                return r, "server", jvm
            suite = "trixie" if major == 14 else "sid"
            rows.append(row(f"GCC {major} saxpy {t} cold, {suite} root, Debian's {package}",
                            target, "stock", pairs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        root.unmount()
    return rows


# ---------------------------------------------------------------------------------------------


def bench_server(args):
    started = time.perf_counter()
    runs = args.runs or 5
    out = Path(args.out) if args.out else REPO / "target" / "bench" / "server"
    if os.geteuid() != 0:
        raise SystemExit("offbench: server mode needs root (the GCC 14/15 rows chroot)")
    env = base_env(server=True)
    tree_jdk = recorded_jdk()
    folders = Path(tempfile.mkdtemp(prefix="offbench-servers-"))
    os.chmod(folders, 0o700)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: (stop_all(folders), os._exit(130)))
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="offbench-server-") as tmp:
            plan = {t: Workload(f"saxpy {t}", t, 1, SAXPY_SHAPE,
                                runs * (SHORT_LINK_RUN_FACTOR if short_link(t) else 1))
                    for t in TARGETS}
            prepare(tmp, list(plan.values()), env, log)
            f17 = folders / "jdk17"
            ftree = folders / "tree-jdk"
            if DEBIAN_JDK17.exists():
                rows.append(cold_row("GCC 12 saxpy nvptx cold, Debian's openjdk-17", plan["nvptx"],
                                     server_env(env, DEBIAN_JDK17, f17), f17, 0.75))
            else:
                log(f"no {DEBIAN_JDK17}: its row is left out")
            tree_env = server_env(env, tree_jdk, ftree)
            rows.append(cold_row("GCC 12 saxpy nvptx cold, the tree's JDK", plan["nvptx"],
                                 tree_env, ftree, 0.75))
            rows.append(cold_row("GCC 12 saxpy gfx906 cold, the tree's JDK", plan["gfx906"],
                                 tree_env, ftree, 0.10))
            rows.append(cold_row("GCC 12 saxpy both cold, the tree's JDK", plan["both"],
                                 tree_env, ftree, 0.12))
            relink = Workload("saxpy nvptx", "nvptx", 1, SAXPY_SHAPE, runs * SHORT_LINK_RUN_FACTOR)
            relink.objects = plan["nvptx"].objects
            rows.append(warm_relink_row("GCC 12 saxpy nvptx warm-cache relink, the tree's JDK",
                                        relink, tree_env, ftree, tmp, 0.45))
            first = Workload("saxpy nvptx", "nvptx", 1, SAXPY_SHAPE, runs * SHORT_LINK_RUN_FACTOR)
            first.objects = plan["nvptx"].objects
            ffirst = folders / "first"
            rows.append(first_link_row("first link with no server running (nvptx saxpy)", first,
                                       tree_jdk, server_env(env, tree_jdk, ffirst), ffirst, 1.20))
        rows += root_rows(14, [("nvptx", "openjdk-21-jre-headless", 0.75),
                               ("nvptx", "openjdk-25-jre-headless", 0.75)], runs)
        rows += root_rows(15, [("nvptx", "openjdk-25-jre-headless", 0.75),
                               ("gfx906", "openjdk-25-jre-headless", 0.85)], runs)
    finally:
        stop_all(folders)
    took = time.perf_counter() - started
    errors = sum(r["result"] == "ERROR" for r in rows)
    fails = sum(r["result"] == "FAIL" for r in rows)
    load = os.getloadavg()[0]
    extra = (f"{len(rows) - errors - fails} PASS, {fails} FAIL, {errors} ERROR; "
             f"{os.cpu_count()} CPUs, load average {load:.1f} at the end; server mode took "
             f"{took:.0f} s")
    report(rows, out, extra, columns=COLUMNS)
    return 1 if errors else 0


def stop_all(folders):
    for f in Path(folders).glob("*"):
        stop_servers(f)
    shutil.rmtree(folders, ignore_errors=True)
