"""Where an offlink link spends its time: the slowest stage of one link run with OFFLINK_TIMING=1
and OFFLINK_REPORT=<file>.json.

Preferred source: lto-wrapper's link report (sub-commands with durations; the mkoffload in the JVM
less its children is "mkoffload in-JVM"; the run less its mkoffloads and host LTO steps is
"lto-wrapper own"; the measured wall time less the run is "gcc driver + ld"). Fallback: the
`mkoffload: timing: <phase> <N> ms` lines on stderr, one group per mkoffload run. Only the first
group's start-up phase is a stage of its own: the clock starts at the JVM's start, so a later
in-process mkoffload's "start-up" spans everything before it.
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


def from_report(path, wall):
    """Stage -> seconds from a link report file (None if absent or unreadable)."""
    try:
        report = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    stages, mk, children = {}, {}, {}
    for sub in get(report, "subcommands") or []:
        kind = KIND_NAMES.get(str(get(sub, "kind")), str(get(sub, "kind")))
        target = get(sub, "target") or ""
        took = seconds(get(sub, "duration"))
        if kind == "mkoffload":
            mk[target] = mk.get(target, 0) + took
            continue
        if target:
            children[target] = children.get(target, 0) + took
        label = f"{kind} {target}".strip()
        stages[label] = stages.get(label, 0) + took
    for target, took in mk.items():
        stages[f"mkoffload in-JVM {target}"] = max(0.0, took - children.get(target, 0))
    total = seconds(get(report, "duration"))
    host = sum(v for k, v in stages.items() if k.startswith("host ") and "wrapper" not in k)
    stages["lto-wrapper own"] = max(0.0, total - sum(mk.values()) - host)
    stages["gcc driver + ld"] = max(0.0, wall - total)
    return stages


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
