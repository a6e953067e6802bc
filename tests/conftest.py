"""Shared fixtures: the project's paths, one in-memory build, and rules-copy helpers."""

from __future__ import annotations

import ast
import contextlib
import faulthandler
import importlib
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.front.model import System
from rulesc.front.rules_folders import house_packs
from rulesc.pipeline import Outputs, build, load_systems

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
GENERATED = ROOT / "generated"
# The house packs rules/package.yaml lists (this repository lists none; a
# project that lists one runs this suite over its packs too): what generated/
# is built from is RULES and PACKS, as ``rulesc build`` reads them.
PACKS = house_packs(RULES)


def project_systems(only: set[str] | None = None) -> list[System]:
    """The systems of the project's rules folders (rules/ and its house packs),
    as ``rulesc build`` loads them: what generated/ holds."""
    return load_systems(RULES, only, more=PACKS)


def copy_rules(target: Path, **copytree: Any) -> Path:
    """rules/ copied to ``target`` (a project's rules folder), with each house
    pack it lists copied to the same place relative to it, so that the copy's
    package.yaml names folders that are there; ``copytree``: shutil.copytree's
    options for rules/ (its ``ignore``)."""
    shutil.copytree(RULES, target, **copytree)
    for pack in PACKS:
        place = target.parent / pack.resolve().relative_to(RULES.resolve().parent)
        shutil.copytree(pack, place, dirs_exist_ok=True)
    return target


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite generated/ (the goldens) from rules/ instead of comparing",
    )


HANG = 300  # seconds: far past anything a test does, so only a hang reaches it


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Turn a hang into a failure, with every thread's traceback: a guard, not a
    timing (no test asserts how long anything takes; ``make bench`` measures)."""
    faulthandler.dump_traceback_later(HANG, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="session")
def built() -> Outputs:
    """One in-memory build of the real rules, shared by the whole session."""
    return build(RULES, more=PACKS)


@pytest.fixture(scope="session")
def df_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/dice_formulas/ built by rulesc, as a user builds it (read only)."""
    out = tmp_path_factory.mktemp("dice_formulas") / "out"
    rules = ROOT / "tests" / "dice_formulas"
    done = run_rulesc("build", "--rules", str(rules), "--out", str(out), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def cookbook_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/cookbook/ (every system in it) built by rulesc, as a rules editor
    builds it (read only)."""
    out = tmp_path_factory.mktemp("cookbook") / "out"
    rules = ROOT / "tests" / "cookbook"
    done = run_rulesc("build", "--rules", str(rules), "--out", str(out), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def df(df_out: Path) -> Iterator[ModuleType]:
    """The built ``rulebook.dice_formulas``, imported for one test module (the
    rulebook modules before are put back after it)."""
    with import_fresh(df_out):
        yield importlib.import_module("rulebook.dice_formulas")


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    """A writable copy of rules/ in a temporary project folder."""
    return copy_rules(tmp_path / "rules")


@contextlib.contextmanager
def import_fresh(path: Path | None) -> Iterator[None]:
    """Import ``rulebook`` from ``path`` (None: the installed one), putting the
    modules before back afterwards."""
    saved = {k: v for k, v in sys.modules.items() if k.split(".")[0] == "rulebook"}
    for key in saved:
        del sys.modules[key]
    if path is not None:
        sys.path.insert(0, str(path))
    try:
        yield
    finally:
        if path is not None:
            sys.path.remove(str(path))
        for key in [k for k in sys.modules if k.split(".")[0] == "rulebook"]:
            del sys.modules[key]
        sys.modules.update(saved)


def run_rulesc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the rulesc command as a user would, capturing its output."""
    return subprocess.run(
        [sys.executable, "-m", "rulesc", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


Editor = Callable[[str, str, str], None]


@pytest.fixture
def edit(rules_copy: Path) -> Editor:
    """Replace exactly one occurrence of a text in a file of the rules copy."""

    def _edit(relpath: str, old: str, new: str) -> None:
        path = rules_copy / relpath
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} should occur once in {relpath}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return _edit


def enumerated_odds(
    function: Callable[..., Any], args: tuple[int, ...], need: type[Exception]
) -> dict[Any, Fraction]:
    """The chance of each answer, every sequence of dice run through ``function``."""

    class Wanted(need):  # type: ignore[misc, valid-type]
        def __init__(self, low: int, high: int) -> None:
            super().__init__("a die past the script")
            self.low, self.high = low, high

    class Script:
        def __init__(self, dice: tuple[int, ...]) -> None:
            self.dice, self.at = dice, 0

        def randint(self, low: int, high: int) -> int:
            if self.at == len(self.dice):
                raise Wanted(low, high)
            self.at += 1
            return self.dice[self.at - 1]

    found: dict[int, Fraction] = {}
    todo: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while todo:
        dice, chance = todo.pop()
        try:
            value = function(*args, Script(dice))
        except Wanted as wanted:
            share = chance / (wanted.high - wanted.low + 1)
            todo += [((*dice, f), share) for f in range(wanted.low, wanted.high + 1)]
            continue
        found[value] = found.get(value, Fraction(0)) + chance
    return found  # in no order (labels of an unordered enum do not sort)


def loaded_by_check_and_build(project: Path, heavy: tuple[str, ...]) -> list[str]:
    """The modules of ``heavy`` (packages, or modules by their full name) that
    ``rulesc check`` then ``rulesc build``, run in ``project`` in one fresh
    process, import (each command must succeed)."""
    probe = (
        "import sys\n"
        "from rulesc.cli import main\n"
        "for command in ('check', 'build'):\n"
        "    assert main([command]) == 0, command\n"
        f"heavy = {heavy!r}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy"
        " or m in heavy))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: list[str] = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    return found
