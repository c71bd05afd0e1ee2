#!/usr/bin/env python3
"""`scripts/gpu-check.sh prepare`: builds the GPU check's programs and packs them (see gpu-check.sh).

Every corpus program whose link succeeds (integration-tests/src/test/resources/corpus), plus
`gen_units_20`, 20 generated units whose kernels call a declare target function of another unit
and use statics of one name (unregistered, so they stay in their partitions), is built for
nvptx-none three ways from the same objects: stock GCC 12 (`stock`), offlink's default mode
(`offlink`, -B target/offlink/libexec/offlink/) and offlink with OFFLINK_FLAGS=--device-jobs=2
(`devicejobs`). Each build is run here first with host fallback and must print the expected
output. The bundle holds device_probe (a target region reporting whether it ran on a GPU),
programs/<name>/{stock,offlink,devicejobs}/prog (and libcorpus.so),
programs/<name>/expected.out, lib/ (libgomp.so.1, libgomp-plugin-nvptx.so.1, the Fortran and C++
runtimes) and MANIFEST (what was built, and the newest glibc symbol version anything needs).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "integration-tests" / "src" / "test" / "resources" / "corpus"
LIBEXEC = REPO / "target" / "offlink" / "libexec" / "offlink"
# /usr/local/bin's CUDA 13 ptxas rejects GCC 12's sm_30 PTX and fails stock links.
PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
DRIVERS = {"c": "gcc-12", "c++": "g++-12", "fortran": "gfortran-12"}
MODELS = {"openmp": ["-fopenmp"], "openacc": ["-fopenacc"], "both": ["-fopenmp", "-fopenacc"]}
MODES = {"stock": None, "offlink": "--no-cache", "devicejobs": "--device-jobs=2 --no-cache"}
RUNTIME = ["libgomp.so.1", "libgomp-plugin-nvptx.so.1", "libgfortran.so.5", "libquadmath.so.0",
           "libstdc++.so.6"]
UNITS = 20


def log(msg):
    print(f"gpu-check prepare: {msg}", file=sys.stderr, flush=True)


def run(argv, cwd, env=None, check=True):
    e = {"PATH": PATH, "LC_ALL": "C", "HOME": os.environ.get("HOME", "/tmp")}
    e.update(env or {})
    r = subprocess.run(argv, cwd=cwd, env=e, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise SystemExit(f"gpu-check prepare: {' '.join(map(str, argv))} failed in {cwd}:\n"
                         f"{r.stderr[-3000:]}")
    return r


def descriptor(d):
    props = {}
    for line in (d / "build.properties").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            props[k.strip()] = v.strip()
    return props


def generated(d):
    """gen_units_20: u0 defines the declare target function; each unit has a kernel calling it
    and a static helper named like every other unit's."""
    d.mkdir(parents=True)
    for i in range(UNITS):
        src = [f"/* gpu-check generated unit {i} */",
               "#pragma omp declare target",
               "int shared_step(int x);",
               f"static int helper(int x) {{ return x * {i + 3} + {i}; }}",
               "#pragma omp end declare target"]
        if i == 0:
            src += ["#pragma omp declare target",
                    "int shared_step(int x) { return (x * 7) % 1000; }",
                    "#pragma omp end declare target"]
        src += [f"long k{i}(int n) {{",
                "  long s = 0;",
                "#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)",
                "  for (int j = 0; j < n; j++) s += helper(j) + shared_step(j);",
                "  return s;", "}"]
        (d / f"u{i:02d}.c").write_text("\n".join(src) + "\n")
    calls = " + ".join(f"k{i}(1000 + {i})" for i in range(UNITS))
    decls = " ".join(f"long k{i}(int);" for i in range(UNITS))
    (d / "main.c").write_text(f'#include <stdio.h>\n{decls}\n'
                              f'int main(void) {{ printf("%ld\\n", {calls}); return 0; }}\n')
    sources = " ".join(f"u{i:02d}.c" for i in range(UNITS)) + " main.c"
    (d / "build.properties").write_text(f"language=c\nmodel=openmp\nflags=-O2\nsources={sources}\n")


def build(name, src, out, env_base):
    """Compiles once, links three ways; returns {mode: folder}."""
    props = descriptor(src)
    work = out / "build" / name
    shutil.copytree(src, work)
    driver = DRIVERS[props["language"]]
    flags = MODELS[props["model"]] + props.get("flags", "").split()
    link_flags = ["-foffload=nvptx-none"] + props.get("link.flags", "").split()

    def objects(key, extra=()):
        objs = []
        for s in props.get(key, "").split():
            o = s.rsplit(".", 1)[0] + ".o"
            run([driver, *flags, *extra, "-c", s, "-o", o], work)
            objs.append(o)
        return objs

    main_objs = objects("sources")
    static_objs = objects("static.sources")
    shared_objs = objects("shared.sources", ["-fPIC"])
    if static_objs:
        run(["ar", "rcs", "libcorpus.a", *static_objs], work)
    folders = {}
    for mode, offlink_flags in MODES.items():
        d = out / "programs" / name / mode
        d.mkdir(parents=True)
        head = [driver, *flags] + ([] if offlink_flags is None else [f"-B{LIBEXEC}/"])
        env = {} if offlink_flags is None else {"OFFLINK_FLAGS": offlink_flags}
        libs = []
        if static_objs:
            libs += ["-L.", "-lcorpus"]
        if shared_objs:
            run([*head, "-shared", "-fPIC", *link_flags, *shared_objs, "-o", str(d / "libcorpus.so")],
                work, env)
            libs += [f"-L{d}", "-lcorpus", "-Wl,-rpath,$ORIGIN"]
        run([*head, *link_flags, *main_objs, *libs, "-o", str(d / "prog")], work, env)
        folders[mode] = d
    return folders


PROBE = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
  int initial = 1;
  int devices = omp_get_num_devices();
#pragma omp target map(from : initial)
  initial = omp_is_initial_device();
  printf("devices=%d initial=%d\n", devices, initial);
  return 0;
}
"""


def probe(stage, tmp):
    """device_probe: whether a target region runs on a GPU at all (the run step's gate: GCC 12's
    libgomp falls back to the host even under OMP_TARGET_OFFLOAD=MANDATORY when no device was
    found, since the initial device is then device 0)."""
    src = Path(tmp) / "device_probe.c"
    src.write_text(PROBE)
    run(["gcc-12", "-fopenmp", "-foffload=nvptx-none", str(src), "-o", str(stage / "device_probe")],
        tmp)


def glibc_needed(files):
    newest = (0,)
    for f in files:
        r = run(["objdump", "-T", str(f)], f.parent, check=False)
        for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", r.stdout):
            newest = max(newest, tuple(int(x) for x in v.split(".")))
    return ".".join(map(str, newest))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default=str(REPO / "target" / "gpu-check"))
    args = p.parse_args()
    if not (LIBEXEC / "lto-wrapper").exists():
        raise SystemExit("gpu-check prepare: target/offlink is missing; run scripts/build.sh first")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        stage = Path(tmp) / "gpu-check"
        (stage / "lib").mkdir(parents=True)
        gen = Path(tmp) / "gen_units_20"
        generated(gen)
        programs = [(d.name, d) for d in sorted(CORPUS.iterdir())
                    if d.is_dir() and "expect.link" not in descriptor(d)]
        programs.append(("gen_units_20", gen))
        built = []
        for name, src in programs:
            log(f"{name}: building (stock, offlink, devicejobs)")
            folders = build(name, src, stage, {})
            outs = {}
            for mode, d in folders.items():
                r = run(["./prog"], d, {"LD_LIBRARY_PATH": str(d), "OMP_NUM_THREADS": "2"},
                        check=False)
                if r.returncode != 0:
                    raise SystemExit(f"gpu-check prepare: {name} {mode} exited {r.returncode} "
                                     f"with host fallback: {r.stderr[-500:]}")
                outs[mode] = r.stdout
            if len(set(outs.values())) != 1:
                raise SystemExit(f"gpu-check prepare: {name}: host-fallback outputs differ: {outs}")
            expected = src / "expected.out"
            text = expected.read_text() if expected.exists() else outs["stock"]
            if text != outs["stock"]:
                raise SystemExit(f"gpu-check prepare: {name}: output {outs['stock']!r} is not "
                                 f"expected.out {text!r}")
            (stage / "programs" / name / "expected.out").write_text(text)
            built.append(name)
        shutil.rmtree(stage / "build")
        probe(stage, tmp)
        for lib in RUNTIME:
            found = run(["gcc-12", f"-print-file-name={lib}"], tmp).stdout.strip()
            path = Path(found) if "/" in found else Path("/usr/lib/x86_64-linux-gnu") / lib
            if not path.exists():
                path = Path("/usr/lib/x86_64-linux-gnu") / lib
            shutil.copyfile(path.resolve(), stage / "lib" / lib)
        files = [f for f in stage.rglob("*")
                 if f.is_file() and (f.name in ("prog", "device_probe") or ".so" in f.name)]
        gcc = run(["gcc-12", "-dumpfullversion"], tmp).stdout.strip()
        (stage / "MANIFEST").write_text(
            f"{len(built)} programs x (stock GCC {gcc}, offlink, offlink --device-jobs=2) for "
            f"nvptx-none, built {subprocess.run(['date', '-u', '+%Y-%m-%dT%H:%MZ'], capture_output=True, text=True).stdout.strip()}\n"
            f"glibc-needed={glibc_needed(files)}\n"
            + "".join(f"program={n}\n" for n in built))
        bundle = out_dir / "bundle.tar.xz"
        with tarfile.open(bundle, "w:xz") as t:
            t.add(stage, arcname="gpu-check")
    log(f"wrote {bundle} ({bundle.stat().st_size / 1e6:.1f} MB, {len(built)} programs); on the "
        "GPU machine: scripts/gpu-check.sh run " + os.path.relpath(bundle, REPO))


if __name__ == "__main__":
    main()
