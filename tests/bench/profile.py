"""Profiles for ``make bench``: where a figure that misses its target spends its time.

Each answer is a few Markdown lines: the largest shares of the profiled time,
grouped so that a stage can be read off them (``compiler.front.loader``, a library
such as ``ruamel``, an import, a builtin). cProfile slows what it watches, so
the shares are what to read, not the times.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

from .measure import short

TOP = 10
# pstats.Stats.stats: (file, line, function) -> (calls, primitive calls, own,
# cumulative, callers)
_Raw = dict[tuple[str, int, str], tuple[int, int, float, float, object]]
_SITE = re.compile(r"[/\\]site-packages[/\\]([A-Za-z0-9_]+)")
_COMPILER = re.compile(r"[/\\](compiler[/\\].*)\.py$")
_RULEBOOK = re.compile(r"[/\\](rulebook[/\\][^/\\]+)\.py$")
_STDLIB = re.compile(r"[/\\]python3\.\d+[/\\]([A-Za-z0-9_]+)")
_TEMPLATE = re.compile(r"[/\\]compiler[/\\]templates[/\\]")
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_METHOD = re.compile(r"(?:built-in )?method '?(\w+)'? of '?([\w.]+)'? objects?")


def group(file: str, function: str) -> str:
    """The stage or library a profiled function belongs to."""
    if file == "~":  # a builtin: "<built-in method builtins.compile>"
        name = _ADDRESS.sub("", function).strip("<>")
        if method := _METHOD.fullmatch(name):  # "<method 'get' of 'dict' objects>"
            name = f"{method[2]}.{method[1]}"
        name = name.split(" ")[-1]
        if name in ("exec", "builtins.exec"):
            return "running modules' top level (imports)"
        return f"builtin {name}"
    if file.startswith("<frozen importlib"):
        return "the import system"
    if _TEMPLATE.search(file):
        return "compiler's Jinja templates, rendering"
    if match := _COMPILER.search(file):
        parts = match.group(1).replace("\\", "/").split("/")
        if len(parts) > 2 and parts[1] == "kinds":
            return "compiler.kinds"
        return ".".join(parts)
    if match := _RULEBOOK.search(file):
        return match.group(1).replace("\\", "/").replace("/", ".")
    if match := _SITE.search(file):
        return f"library {match.group(1)}"
    if match := _STDLIB.search(file):
        return f"stdlib {match.group(1)}"
    return file


def groups(stats: pstats.Stats) -> tuple[dict[str, float], list[tuple[float, str]]]:
    """Own seconds by stage or library, and by function."""
    by_group: dict[str, float] = {}
    functions: list[tuple[float, str]] = []
    raw = cast(_Raw, stats.stats)  # type: ignore[attr-defined]
    for (file, _line, function), (_cc, _nc, own, _cum, _callers) in raw.items():
        name = group(file, function)
        by_group[name] = by_group.get(name, 0.0) + own
        functions.append((own, f"{name}: {function}"))
    return by_group, functions


def shares(by_group: dict[str, float], what: str) -> list[str]:
    """The largest groups by own time, as Markdown lines."""
    total = sum(by_group.values()) or 1.0
    lines = [f"{what}: share of the profiled time, by stage or library (own time)", ""]
    for name, own in sorted(by_group.items(), key=lambda kv: -kv[1])[:TOP]:
        lines.append(f"- {own / total:5.1%} {name}")
    return lines


def summary(stats: pstats.Stats, what: str) -> list[str]:
    """The largest groups by own time, then the functions, as Markdown lines."""
    by_group, functions = groups(stats)
    total = sum(by_group.values()) or 1.0
    lines = shares(by_group, what)
    lines += ["", "the functions that take the most of it:", ""]
    for own, name in sorted(functions, reverse=True)[:5]:
        lines.append(f"- {own / total:5.1%} `{name}`")
    return lines


def difference(
    what: str, head: dict[str, float], base: dict[str, float], base_label: str
) -> list[str]:
    """Where HEAD spends more than the base (own seconds by group), as Markdown."""
    names = set(head) | set(base)
    grown = sorted(names, key=lambda n: base.get(n, 0.0) - head.get(n, 0.0))
    lines = [
        f"{what}: own time by stage, library or module, HEAD against {base_label}, "
        f"{short(sum(head.values()))} against {short(sum(base.values()))} in all "
        "(read the differences, not the totals)",
        "",
    ]
    for name in grown[:TOP]:
        more = head.get(name, 0.0) - base.get(name, 0.0)
        if more <= 0:
            break
        new = "" if name in base else ", new in HEAD"
        lines.append(
            f"- +{short(more)} {name} ({short(head.get(name, 0.0))} against "
            f"{short(base.get(name, 0.0))}{new})"
        )
    return lines


# ``python -m cProfile -m compiler``, but in CPU time: on a machine shared with
# other work, the clock would charge the others' turns to whatever ran then.
_RULESC = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], ["rulesc", *sys.argv[2:]]
profiler = cProfile.Profile(time.process_time)
profiler.enable()
try:
    runpy.run_module("compiler", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profiler.disable()
    profiler.dump_stats(out)
"""


def command_stats(
    project: Path, args: list[str], tmp: Path, env: dict[str, str]
) -> pstats.Stats:
    """cProfile of ``rulesc ARGS`` in ``project`` (the process rulesc runs in)."""
    out = tmp / "profile.prof"
    subprocess.run(
        [sys.executable, "-c", _RULESC, str(out), *args],
        cwd=project,
        env=env,
        capture_output=True,
        check=True,
    )
    return pstats.Stats(str(out))


def command(
    project: Path, args: list[str], tmp: Path, env: dict[str, str]
) -> list[str]:
    """Profile ``rulesc ARGS`` in ``project``."""
    stats = command_stats(project, args, tmp, env)
    return summary(stats, f"`rulesc {' '.join(args)}`")


def calls(function: Callable[[], object], times: int = 20_000) -> list[str]:
    """Profile ``times`` calls of ``function`` in this process (in CPU time)."""
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(times):
        function()
    profiler.disable()
    return summary(pstats.Stats(profiler), f"{times} calls")


def import_times(
    path: Path, statement: str, tmp: Path, env: dict[str, str]
) -> dict[str, float]:
    """``python -X importtime``: each module's own seconds, of those ``statement``
    imports beyond ``python -c pass``."""

    def importtime(code: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            cwd=tmp,
            env=dict(env, PYTHONPATH=str(path)),
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stderr.splitlines()

    at_start = {_module(line) for line in importtime("pass")}
    own: dict[str, float] = {}
    for line in importtime(statement):
        name = _module(line)
        if name and name not in at_start:
            own[name] = int(line.split("|")[0].split(":")[1]) / 1e6
    return own


def imports(path: Path, statement: str, tmp: Path, env: dict[str, str]) -> list[str]:
    """The modules that take the most time of their own to import."""
    own = import_times(path, statement, tmp, env)
    total = sum(own.values()) or 1.0
    lines = [
        f"`python -X importtime -c '{statement[:60]}...'`: the modules it imports "
        f"beyond `python -c pass`, {total * 1000:.1f} ms of their own in all",
        "",
    ]
    for name, took in sorted(own.items(), key=lambda kv: -kv[1])[:TOP]:
        lines.append(f"- {took * 1000:5.1f} ms ({took / total:.0%}) {name}")
    return lines


def _module(line: str) -> str:
    if not line.startswith("import time:") or "|" not in line:
        return ""
    name = line.rsplit("|", 1)[1].strip()
    return "" if name == "package" else name
