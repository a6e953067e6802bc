"""Rules files with large and hostile sizes in the fields that drive work, for the
bounds tests: each real rule alone in a one-rule system, some of its whole
numbers (a range's ends, a count, sides, a chart's sizes, a duration, a
maximum) and dice replaced by the largest or most awkward values the schemas
let through, built under a cap on memory and time.
"""

from __future__ import annotations

import contextlib
import resource
import signal
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from ruamel.yaml import YAML

from rulesc.common.diagnostics import RulesError
from rulesc.odds import work as odds_work
from rulesc.pipeline import generate, load_systems

from .conftest import RULES

SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: Rules with hostile sizes.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
time_units:
  rounds: 1
  minutes: 1
  hours: 60
  days: 1440
"""
HEADER = "# yaml-language-server: $schema=../../schema/rules.schema.json\nsystem: lab\n"

BIG = 10**15 - 1  # the largest whole number the loader lets through
NUMBERS = (
    BIG,
    -BIG,
    BIG // 2,
    10**9,
    2**31,
    1_000_001,
    100_001,
    10_001,
    1001,
    1000,
    101,
    100,
    51,
    50,
    0,
    -1,
)
DICE = (
    "100d100",
    "99d101",
    "10d1000",
    "100d2x999999999",
    "1d1000x1000000+999999999999",
    "2d6x99999999999999",
    "100d100-999999999999999",
    "1d2",
)
MEMORY = 2 * 1024**3  # bytes a build may add to the process
SECONDS = 60  # a hang, not a slow build: make bench measures speed


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.width = 4096
    return yaml


@cache
def rules() -> tuple[tuple[str, str], ...]:
    """Every rule of rules/ that builds alone, as (kind, YAML text of a list of it)."""
    found = []
    for path in sorted(RULES.glob("*/*.yaml")):  # not the folder's package.yaml
        if path.name == "system.yaml":
            continue
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        for rule in data["rules"]:
            found.append((rule["kind"], rule))
    return tuple((kind, dump([rule])) for kind, rule in found)


def dump(data: Any) -> str:
    import io

    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def leaves(
    data: Any, path: tuple[Any, ...] = ()
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every whole number and string in ``data``, with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    elif isinstance(data, int | str) and not isinstance(data, bool):
        yield path, data


def put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def looks_like_dice(text: str) -> bool:
    return (
        "d" in text
        and text.replace("d", "")
        .replace("+", "")
        .replace("-", "")
        .replace("x", "")
        .isdigit()
    )


def write(rules_dir: Path, text: str) -> None:
    folder = rules_dir / "lab"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (folder / "lab.yaml").write_text(HEADER + "rules:\n" + text, encoding="utf-8")


def built_unbounded(folder: Path, text: str) -> Path:
    """The rules ``text`` written under ``folder`` and built to its ``out``
    (the build's bound of their odds off: their calls run into the runtime's
    limits, which the build would say at each rule)."""
    write(folder / "rules", text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(odds_work, "check", lambda systems: [])
        outputs = generate(load_systems(folder / "rules"), run_examples=False)
    for path, blob in outputs.files.items():
        target = folder / "out" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    return folder / "out"


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@contextlib.contextmanager
def bounded() -> Iterator[None]:
    """At most MEMORY more bytes of address space and SECONDS of time."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _vm_size() + MEMORY
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)

    def _stop(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"a build ran past {SECONDS} s")

    old = signal.signal(signal.SIGALRM, _stop)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.alarm(SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def build_or_errors(rules_dir: Path, *, run_examples: bool = False) -> list[str]:
    """Build the lab system: [] when it builds, else its errors (each located)."""
    with bounded():
        try:
            generate(load_systems(rules_dir), run_examples=run_examples)
        except RulesError as exc:
            return [f"{d.file}:{d.line}:{d.col}: {d.message}" for d in exc.diagnostics]
    return []
