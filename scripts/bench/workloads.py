"""Synthetic OpenMP offload workloads for offbench: sources, objects and the link command lines.

A workload is N translation units with K `target` regions each, V `declare target` arrays per
unit and B extra statements in every region's loop body (B makes the device image large), for one
offload target set (nvptx / gfx906 / both), with host LTO on or off. Unit 0 holds main(), which
calls unit 0's first region and prints the result, so the stock and offlink executables can be
compared by their output.

Objects are target-independent (GCC writes one offload IR stream whatever -foffload names at link
time), so one compiled set of N_max units serves every target and every N <= N_max: the workload
with N units links units 0 .. N-1.
"""
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

TARGETS = {
    "gfx906": ["-foffload=amdgcn-amdhsa=-march=gfx906"],
    "nvptx": ["-foffload=nvptx-none"],
    "both": ["-foffload=nvptx-none", "-foffload=amdgcn-amdhsa=-march=gfx906"],
}

SAXPY = r"""
#include <stdio.h>
#define N 4096
float x[N], y[N];
#pragma omp declare target to(x, y)
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


@dataclass(frozen=True)
class Shape:
    """What the sources look like: one compiled object set per shape (units 0 .. units-1)."""

    regions: int  # K: target regions per unit
    variables: int  # V: declare target arrays per unit
    body: int  # B: extra statements per region loop body
    lto: bool  # host LTO (-flto at compile and link)
    saxpy: bool = False  # the one-unit saxpy program instead of generated units

    def key(self):
        if self.saxpy:
            return "saxpy" + ("-lto" if self.lto else "")
        return f"k{self.regions}-v{self.variables}-b{self.body}" + ("-lto" if self.lto else "")


SAXPY_SHAPE = Shape(regions=1, variables=2, body=0, lto=False, saxpy=True)
# The scale curves' units (one target region, two declare target arrays); also the cache mode's.
SCALE_SHAPE = Shape(regions=1, variables=2, body=0, lto=False)


@dataclass
class Workload:
    """One link to measure, stock against offlink."""

    name: str
    target: str  # key of TARGETS
    units: int  # N
    shape: Shape
    runs: int
    series: str = ""  # scale-curve series this point belongs to ("" = none)
    objects: list = field(default_factory=list)
    link_lto: str = "-flto"  # the link's -flto spelling when the shape uses host LTO

    def flags(self):
        return ["-fopenmp", *TARGETS[self.target]] + ([self.link_lto] if self.shape.lto else [])


def unit_source(index, shape):
    """C source of unit `index`: K regions using V declare target arrays, B-statement bodies."""
    v = max(shape.variables, 1)
    arrays = ", ".join(f"g{index}_{j}" for j in range(v))
    lines = [f"/* offbench unit {index} */", "#include <stdio.h>", "#define M 1024",
             f"float {', '.join(f'g{index}_{j}[M]' for j in range(v))};",
             f"#pragma omp declare target to({arrays})",
             "#pragma omp declare target",
             f"static float h{index}(float v) {{ return v * 0.5f + {index}.0f; }}",
             "#pragma omp end declare target"]
    for r in range(shape.regions):
        a, b = f"g{index}_{r % v}", f"g{index}_{(r + 1) % v}"
        lines += [f"float k{index}_{r}(float a) {{", "  float s = 0;",
                  "#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)",
                  f"  for (int i = 0; i < M; i++) {{", f"    float v = h{index}({a}[i]) * a + {b}[i];"]
        lines += [f"    v = v * {1 + j / 1000:.3f}f + (float) (i ^ {j + r});" for j in range(shape.body)]
        lines += ["    s += v;", "  }", "  return s;", "}"]
    if index == 0:
        lines += ["int main(void) {",
                  f"  for (int i = 0; i < M; i++) g0_0[i] = (float) i;",
                  f"#pragma omp target update to(g0_0)",
                  f"  printf(\"%.1f\\n\", (double) k0_0(1.0f));" if shape.regions else "",
                  "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def compile_shape(root, shape, units, env, jobs=2):
    """Writes and compiles `units` units of `shape` under root/<shape key>/, `jobs` gcc at a time
    (each gcc compiles a batch of units). Returns the object paths in unit order."""
    d = Path(root) / shape.key()
    d.mkdir(parents=True, exist_ok=True)
    flags = ["-fopenmp", "-O2", "-c"] + (["-flto"] if shape.lto else [])
    if shape.saxpy:
        (d / "saxpy.c").write_text(SAXPY)
        subprocess.run(["gcc", *flags, "saxpy.c"], cwd=d, env=env, check=True)
        return [d / "saxpy.o"]
    names = [f"u{i:04d}" for i in range(units)]
    todo = []
    for i, n in enumerate(names):
        if not (d / f"{n}.o").exists():
            (d / f"{n}.c").write_text(unit_source(i, shape))
            todo.append(f"{n}.c")
    batch = max(1, min(50, (len(todo) + jobs - 1) // jobs))
    batches = [todo[i:i + batch] for i in range(0, len(todo), batch)]

    def run(srcs):
        subprocess.run(["gcc", *flags, *srcs], cwd=d, env=env, check=True)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, batches))
    return [d / f"{n}.o" for n in names]


def prepare(root, workloads, env, log=None):
    """Compiles every shape once, as many units as its largest workload needs, in parallel."""
    need = {}
    for w in workloads:
        need[w.shape] = max(need.get(w.shape, 0), w.units)
    objects = {}
    for shape, units in need.items():
        if log:
            log(f"compiling {units} unit(s) of {shape.key()} ({os.cpu_count()} cores)")
        objects[shape] = compile_shape(root, shape, units, env)
    for w in workloads:
        w.objects = objects[w.shape][:w.units]
