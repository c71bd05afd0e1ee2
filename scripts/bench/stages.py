"""Where an offlink link spends its time: the slowest stage of a link, from two runs.

A traced run writes lto-wrapper's link report (OFFLINK_REPORT): every program lto-wrapper and its
in-process mkoffloads ran, with start and duration (accel compiles, host WPA/LTRANS, ...). Those
are real child processes, timed the same with or without the report. What the JVM itself does is
not taken from that run: the report's own bookkeeping and JSON writing (protobuf) cost it a few
hundred ms. A plain run instead runs lto-wrapper through a timing shim (timing_tool_dir): the link's
wall time less the lto-wrapper process is "gcc driver + ld", and the lto-wrapper process less the
time its children were busy (the union of their intervals in the report) is "lto-wrapper JVM"
(launcher, JVM start, option and object reading, in-process mkoffload's own work, wrapper
writing, exit). Fallback without a report: the `mkoffload: timing: <phase> <N> ms` lines on
stderr (OFFLINK_TIMING), one group per mkoffload run. Only the first group's start-up phase is a
stage of its own: the clock starts at the JVM's start, so a later in-process mkoffload's
"start-up" spans everything before it.
"""
import json
import re
from pathlib import Path

TIMING = re.compile(r"^mkoffload: timing: (.+) (\d+) ms$")
KIND_NAMES = {
    "SUBCOMMAND_KIND_MKOFFLOAD": "mkoffload",
    "SUBCOMMAND_KIND_ACCEL_COMPILE": "accel compile",
    "SUBCOMMAND_KIND_HOST_COMPILE": "host compile (wrapper C)",
    "SUBCOMMAND_KIND_WPA": "host WPA",
    "SUBCOMMAND_KIND_LTRANS": "host LTRANS",
    "SUBCOMMAND_KIND_LTO": "host LTO",
    "SUBCOMMAND_KIND_PROBE": "probe",
    "SUBCOMMAND_KIND_OTHER": "other tool",
}


def seconds(value):
    """A proto3 JSON Duration ("1.5s") or a {seconds, nanos} object, in seconds."""
    if isinstance(value, str):
        return float(value.rstrip("s") or 0)
    if isinstance(value, dict):
        return float(value.get("seconds", 0)) + float(value.get("nanos", 0)) / 1e9
    return 0.0


def get(obj, snake):
    """A field by its snake_case name or its lowerCamelCase JSON name."""
    if snake in obj:
        return obj[snake]
    parts = snake.split("_")
    return obj.get(parts[0] + "".join(p.title() for p in parts[1:]))


SHIM = """#!/bin/sh
# offbench: times offlink's lto-wrapper process (launcher, JVM start and exit included).
s=$(date +%s%N)
"{real}" "$@"
rc=$?
printf '%s %s\\n' "$s" "$(date +%s%N)" >> "{times}"
exit $rc
"""


def timing_tool_dir(root, libexec):
    """A gcc -B folder whose lto-wrapper is a timing shim around libexec's, and whose
    accel/<target>/mkoffload are links to libexec's (so mkoffload still runs in-process).
    Returns (folder, times file)."""
    tools = Path(root) / "timed-tools"
    times = tools / "lto-wrapper.times"
    if not tools.exists():
        for target in ("nvptx-none", "amdgcn-amdhsa"):
            d = tools / "accel" / target
            d.mkdir(parents=True)
            (d / "mkoffload").symlink_to(Path(libexec) / "accel" / target / "mkoffload")
        shim = tools / "lto-wrapper"
        shim.write_text(SHIM.format(real=Path(libexec) / "lto-wrapper", times=times))
        shim.chmod(0o755)
    return tools, times


def take_lto_wrapper_seconds(times):
    """Seconds the shimmed lto-wrapper ran since the last call (None if it did not run)."""
    try:
        lines = Path(times).read_text().split()
    except OSError:
        return None
    Path(times).unlink()
    pairs = list(zip(lines[0::2], lines[1::2]))
    return sum(int(b) - int(a) for a, b in pairs) / 1e9 if pairs else None


def from_report(path, wall, lto_wrapper):
    """Stage -> seconds from a traced run's link report (None if absent or unreadable); wall and
    lto_wrapper are the plain run's link and lto-wrapper process wall times."""
    try:
        report = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    subs = get(report, "subcommands") or []
    parents = {get(s, "target") or "" for s in subs
               if KIND_NAMES.get(str(get(s, "kind"))) != "mkoffload"}
    stages, intervals = {}, []
    for sub in subs:
        kind = KIND_NAMES.get(str(get(sub, "kind")), str(get(sub, "kind")))
        target = get(sub, "target") or ""
        if kind == "mkoffload" and target in parents:
            continue  # an in-process mkoffload: its children are the stages
        start, took = seconds(get(sub, "start")), seconds(get(sub, "duration"))
        label = f"{kind} {target}".strip()
        stages[label] = stages.get(label, 0) + took
        intervals.append((start, start + took))
    stages["lto-wrapper JVM"] = max(0.0, lto_wrapper - union(intervals))
    stages["gcc driver + ld"] = max(0.0, wall - lto_wrapper)
    return stages


def union(intervals):
    """Total length covered by (start, end) intervals (children running in parallel)."""
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def from_timing(stderr, wall):
    """Stage -> seconds from mkoffload's timing lines (None if there are none)."""
    groups, current = [], None
    for line in stderr.splitlines():
        m = TIMING.match(line.strip())
        if not m:
            continue
        if m.group(1).startswith("start-up") or current is None:
            current = {}
            groups.append(current)
        current[m.group(1)] = int(m.group(2)) / 1000
    if not groups:
        return None
    stages = {}
    for i, group in enumerate(groups, 1):
        for phase, took in group.items():
            if phase.startswith("start-up"):
                if i > 1:
                    continue
                # From the JVM's start: lto-wrapper's own work before mkoffload is in it.
                phase = "JVM start + lto-wrapper + mkoffload arguments"
            stages[f"mkoffload[{i}] {phase}"] = took
    stages["rest (gcc driver, ld, lto-wrapper)"] = max(0.0, wall - sum(stages.values()))
    return stages


def slowest(stages):
    """'<stage> <ms> ms' of the largest stage, or ''."""
    if not stages:
        return ""
    name, took = max(stages.items(), key=lambda kv: kv[1])
    return f"{name} {took * 1000:.0f} ms"
