"""Profiles for ``make bench``: where a figure that misses its target spends its time.

Each answer is a few Markdown lines: the largest shares of the profiled time,
grouped so that a stage can be read off them (``compiler.loader``, a library
such as ``ruamel``, an import, a builtin). cProfile slows what it watches, so
the shares are what to read, not the times.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

TOP = 10
_SITE = re.compile(r"[/\\]site-packages[/\\]([A-Za-z0-9_]+)")
_COMPILER = re.compile(r"[/\\](compiler[/\\].*)\.py$")
_RULEBOOK = re.compile(r"[/\\](rulebook[/\\][^/\\]+)\.py$")
_STDLIB = re.compile(r"[/\\]python3\.\d+[/\\]([A-Za-z0-9_]+)")


def group(file: str, function: str) -> str:
    """The stage or library a profiled function belongs to."""
    if file == "~":  # a builtin: "<built-in method builtins.compile>"
        name = function.strip("<>").split(" ")[-1]
        if name in ("exec", "builtins.exec"):
            return "running modules' top level (imports)"
        return f"builtin {name}"
    if file.startswith("<frozen importlib"):
        return "the import system"
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


def summary(stats: pstats.Stats, what: str) -> list[str]:
    """The largest groups by own time, as Markdown lines."""
    groups: dict[str, float] = {}
    functions: list[tuple[float, str]] = []
    raw = stats.stats  # type: ignore[attr-defined]
    for (file, _line, function), (_cc, _nc, own, _cum, _callers) in raw.items():
        name = group(file, function)
        groups[name] = groups.get(name, 0.0) + own
        functions.append((own, f"{name}: {function}"))
    total = sum(groups.values()) or 1.0
    lines = [f"{what}: share of the profiled time, by stage or library (own time)", ""]
    for name, own in sorted(groups.items(), key=lambda kv: -kv[1])[:TOP]:
        lines.append(f"- {own / total:5.1%} {name}")
    lines += ["", "the functions that take the most of it:", ""]
    for own, name in sorted(functions, reverse=True)[:5]:
        lines.append(f"- {own / total:5.1%} `{name}`")
    return lines


def command(
    project: Path, args: list[str], tmp: Path, env: dict[str, str]
) -> list[str]:
    """Profile ``rulesc ARGS`` in ``project`` (the process rulesc runs in)."""
    out = tmp / "profile.prof"
    subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "compiler", *args],
        cwd=project,
        env=env,
        capture_output=True,
        check=True,
    )
    return summary(pstats.Stats(str(out)), f"`rulesc {' '.join(args)}`")


def calls(function: Callable[[], object], times: int = 20_000) -> list[str]:
    """Profile ``times`` calls of ``function`` in this process."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(times):
        function()
    profiler.disable()
    return summary(pstats.Stats(profiler), f"{times} calls")


def imports(path: Path, statement: str, tmp: Path, env: dict[str, str]) -> list[str]:
    """``python -X importtime``: the modules that take the most time of their own."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        cwd=tmp,
        env=dict(env, PYTHONPATH=str(path)),
        capture_output=True,
        text=True,
        check=True,
    )
    bare = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "pass"],
        cwd=tmp,
        env=dict(env, PYTHONPATH=str(path)),
        capture_output=True,
        text=True,
        check=True,
    )
    at_start = {_module(line) for line in bare.stderr.splitlines()}
    own: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        name = _module(line)
        if not name or name in at_start:
            continue
        self_us = int(line.split("|")[0].split(":")[1])
        own.append((self_us, name))
    total = sum(t for t, _ in own) or 1
    lines = [
        f"`python -X importtime -c '{statement[:60]}...'`: the modules it imports "
        f"beyond `python -c pass`, {total / 1000:.1f} ms of their own in all",
        "",
    ]
    for self_us, name in sorted(own, reverse=True)[:TOP]:
        lines.append(f"- {self_us / 1000:5.1f} ms ({self_us / total:.0%}) {name}")
    return lines


def _module(line: str) -> str:
    if not line.startswith("import time:") or "|" not in line:
        return ""
    name = line.rsplit("|", 1)[1].strip()
    return "" if name == "package" else name
