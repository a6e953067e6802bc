"""Hostile command-line values: explain, simulate and roll answer in bounded time.

Every rule the rules folder lists is explained and simulated with each of many
hostile values in each of its inputs (the others valid), and roll is given them
as an expression, inside one, and as a seed. Whatever the value, rulesc exits
0, 1 or 2 (never 3, the exit of a bug), each answer stopped by rulesc's own
clock (``bounds.SECONDS``, shortened here) when it runs long, and a usage error
is one ``rulesc CMD: error: ...`` line of readable length, naming the limit a
number broke. Nothing here times anything: a hang fails the test (``no_hang``).
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import sys
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from unicodedata import east_asian_width

import pytest

from rulesc.cli import main
from rulesc.common.diagnostics import MAX_QUOTED
from rulesc.front.loader import MAX_INT_DIGITS
from rulesc.kinds.registry import kind_of
from rulesc.workbench import bounds, explain, simulate, workspace
from rulesc.workbench.common import Input, inputs_of
from rulesc.workbench.usage import MAX_DIGITS, UsageError, whole_number

from .conftest import HANG, RULES
from .workbench_helpers import project, rulesc

pytestmark = pytest.mark.usefixtures("no_hang")

__all__ = ["project"]

TOO_LONG = "9" * (sys.get_int_max_str_digits() + 700)  # int() of it raises
HOSTILE = [
    TOO_LONG,
    "-" + "9" * 4300,
    "1" + "0" * MAX_DIGITS,  # one digit too many
    "9" * MAX_DIGITS,  # the largest accepted: the rule must refuse it or answer
    "-" + "9" * MAX_DIGITS,
    "1000000000000",
    "-1",
    "0",
    "1.5",
    "1e9",
    "nan",
    "-inf",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: int() reads it as 3
    "\u00b2",  # SUPERSCRIPT TWO: isdigit() says yes, int() says no
    "\uff11\uff12",  # FULLWIDTH 12
    "",
    " ",
    "\x1b[31m",
    "\x00",
    "\u202e1",
    "x" * 10_000,
    "{}",
]
NOT_ASCII = ("\u0663", "\u00b2", "\uff11\uff12")
# For an input that is not a number (a label, true or false), and in other
# places: the hostile values of every sort, one each.
SOME = (TOO_LONG, "-1", "1.5", "\u0663", "", "\x1b[31m", "x" * 10_000)


def values(spec: Input) -> tuple[str, ...] | list[str]:
    """The hostile values an input is given: all of them for a number."""
    return HOSTILE if spec.kind == "int" else SOME


MAX_LINE = 2 * MAX_QUOTED + 160  # a usage error's longest line: its text and two values
_ERROR = re.compile(r"rulesc( [^:]+)?: error: ")


@pytest.fixture(scope="module")
def shared(project: Path) -> Iterator[None]:
    """Run in the project, the rules built once for the whole module (a real
    run builds them on each call, from the build cache: slower, the same)."""
    patch = pytest.MonkeyPatch()
    patch.chdir(project)
    opened = cache(workspace.open_workspace)
    patch.setattr(explain, "open_workspace", opened)
    patch.setattr(simulate, "open_workspace", opened)
    with contextlib.ExitStack() as stack:
        runtimes: dict[int, workspace.Runtime] = {}

        @contextlib.contextmanager
        def runtime(ws: workspace.Workspace) -> Iterator[workspace.Runtime]:
            if id(ws) not in runtimes:  # the generated package, imported once
                runtimes[id(ws)] = stack.enter_context(real(ws))
            yield runtimes[id(ws)]

        real = workspace.Workspace.runtime
        patch.setattr(workspace.Workspace, "runtime", runtime)
        # Each answer is stopped sooner than a user's would be, for the test's time.
        patch.setattr(bounds, "SECONDS", 0.5)
        yield
        patch.undo()


def run(*args: str) -> tuple[int, str, str]:
    """rulesc in this process: exit code, stdout, stderr; checked as any run."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    shown = [a[:40] for a in args]
    assert code in (0, 1, 2), (shown, code, err.getvalue()[-2000:])
    text = err.getvalue()
    assert "Traceback" not in text and "internal error" not in text, shown
    if code == 2:
        lines = text.splitlines()
        errors = [line for line in lines if _ERROR.match(line)]
        assert len(errors) == 1, (shown, text[:2000])
        for line in lines:
            assert len(line) <= MAX_LINE, (shown, line[:200], len(line))
            assert line.isprintable(), (shown, line)
    return code, out.getvalue(), text


@cache
def _targets() -> list[tuple[str, list[Input], list[Input] | None]]:
    """Every rule: its name, explain's inputs, and simulate's (None: no dice)."""
    ws = workspace.open_workspace(RULES, None)
    found = []
    with ws.runtime() as runtime:
        for system in ws.systems:
            module = runtime.module(system.id)
            for rule in system.rules:
                kind = kind_of(rule)
                name = str(getattr(rule, "function", "") or "")
                function = getattr(module, name, None)
                specs = inputs_of(function, kind.params(rule)) if function else []
                try:
                    rolled = inputs_of(kind.simulate(rule, module), kind.params(rule))
                except (UsageError, AttributeError, TypeError):
                    rolled = None
                if rolled is not None and not any(s.kind == "rng" for s in rolled):
                    rolled = None  # a rule that rolls no dice
                found.append((rule.qualified_id, specs, rolled))
    return found


def _valid(spec: Input) -> str | None:
    """A value the input takes, to fill it while another is hostile."""
    if spec.kind == "int":
        return str(spec.lo if spec.lo is not None else 0)
    if spec.kind == "bool":
        return "false"
    if spec.kind == "choice" and spec.labels:
        return spec.labels[0]
    return None


def _fillable(specs: list[Input]) -> list[Input]:
    return [s for s in specs if s.kind not in ("rng", "other")]


def _expect_limit(spec: Input, value: str, code: int, err: str) -> None:
    """An int input's value past the digits limit, or not in ASCII, says so."""
    if spec.kind != "int":
        return
    if value.strip().lstrip("-").isdecimal() and len(value.strip("-")) > MAX_DIGITS:
        assert code == 2 and f"more than {MAX_DIGITS} digits" in err, err
        if len(value) > MAX_QUOTED:
            assert f"({len(value):,} characters)" in err, err
    if value in NOT_ASCII:
        assert code == 2 and "is not an ASCII digit" in err, err


def test_the_targets_are_the_rules_listed() -> None:
    targets = _targets()
    assert len(targets) >= 20
    assert any(rolled for _, _, rolled in targets)
    assert any(_fillable(specs) for _, specs, _ in targets)


@pytest.mark.parametrize("index", range(len(_targets())))
def test_explain_any_rule_with_hostile_inputs(shared: None, index: int) -> None:
    rule, specs, _ = _targets()[index]
    fillable = _fillable(specs)
    run("explain", rule)  # no inputs at all
    for value in SOME:
        code, _, err = run("explain", rule, value)  # as the first input
        if fillable:
            _expect_limit(fillable[0], value, code, err)
    for spec in fillable:
        for value in values(spec):
            others = [
                f"{s.name}={v}"
                for s in fillable
                if s is not spec and (v := _valid(s)) is not None
            ]
            code, _, err = run("explain", rule, *others, f"{spec.name}={value}")
            _expect_limit(spec, value, code, err)
    for value in SOME:
        run("explain", rule, "--seed", value)
        run("explain", rule, "--dice", f"1,{value},2")


@pytest.mark.parametrize("index", range(len(_targets())))
def test_simulate_any_rule_with_hostile_options(shared: None, index: int) -> None:
    rule, _, rolled = _targets()[index]
    if rolled is None:
        assert run("simulate", rule, "--seed", "1")[0] == 2
        return
    fillable = _fillable(rolled)
    valid = {s.name: v for s in fillable if (v := _valid(s)) is not None}

    def options(**given: str) -> list[str]:
        words = []
        for name, value in {**valid, **given}.items():
            words += [f"--{name.replace('_', '-')}", value]
        return words

    assert run("simulate", rule, *options(), "--seed", "1")[0] in (0, 2)
    for spec in fillable:
        for value in values(spec):
            code, _, err = run("simulate", rule, *options(**{spec.name: value}))
            _expect_limit(spec, value, code, err)
    for value in SOME:
        for flag in ("--seed", "--runs"):
            code, _, err = run("simulate", rule, *options(), flag, value)
            if value == TOO_LONG:
                assert code == 2 and f"more than {MAX_DIGITS} digits" in err


DICE_SHAPES = ("{}", "{}d6", "1d{}", "3d6+{}", "2d6x{}", "3d{}-1", "{}d")


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_roll_with_hostile_expressions_and_seeds(shared: None, value: str) -> None:
    for shape in DICE_SHAPES:
        expr = shape.format(value)
        code, _, err = run("roll", "--", expr)
        for stats in ((), ("--stats",)):
            run("roll", *stats, "--", expr)
        if value in NOT_ASCII:
            at = expr.index(value[0])
            assert code == 2 and f"at character {at + 1}" in err, err
            line, caret = err.splitlines()[1:3]
            wide = sum(2 if east_asian_width(c) in "WF" else 1 for c in expr[:at])
            assert caret.index("^") - 4 == wide  # a wide character: two columns
            assert line.strip() == expr
    code, _, err = run("roll", "3d6", "--seed", value)
    if value == TOO_LONG:
        assert code == 2 and "--seed: takes a whole number" in err


def test_a_huge_input_is_refused_or_stopped_and_named(shared: None) -> None:
    """A pool of a million million points: refused by the runtime's limit, or
    stopped by the clock, as a usage error naming the input, in bounded time."""
    slow = [
        (rule, s)
        for rule, _, rolled in _targets()
        for s in _fillable(rolled or [])
        if s.kind == "int" and s.hi is None
    ]
    assert slow
    for rule, spec in slow:
        others = [s for r, _, rolled in _targets() if r == rule for s in rolled or []]
        words = []
        for s in _fillable(others):
            value = "1000000000000" if s is spec else _valid(s)
            if value is not None:
                words += [f"--{s.name.replace('_', '-')}", value]
        code, _, err = run("simulate", rule, *words, "--seed", "1")
        assert code in (0, 2), err
        if code == 2:
            assert err.startswith(f"rulesc simulate: error: {rule} "), err


def test_the_clock_stops_an_answer_that_runs_for_ever() -> None:
    def forever() -> None:
        while True:
            pass

    with pytest.raises(bounds.Overrun), bounds.bounded(0.2) as clock:
        clock.run(forever)  # stopped: else the test hangs, and no_hang fails it
    error = bounds.too_slow("s.pool", {"points": 10**12, "bonus": 3}, 0.2)
    assert error.message == (
        "s.pool did not answer within 0.2 seconds: points=1000000000000 is more "
        "than it works out quickly"
    )
    assert error.hint == "give points a smaller value"


def test_the_digits_limit_is_the_rules_limit() -> None:
    assert MAX_DIGITS == MAX_INT_DIGITS
    assert sys.get_int_max_str_digits() > MAX_DIGITS


@pytest.mark.parametrize(
    "text",
    ["0", "-7", "+12", " 42 ", "9" * MAX_DIGITS, "-" + "9" * MAX_DIGITS, "007"],
)
def test_whole_numbers_in_ascii_are_read(text: str) -> None:
    assert whole_number(text, "n") == int(text)


@pytest.mark.parametrize(
    "text",
    [
        TOO_LONG,
        "1" * (MAX_DIGITS + 1),
        "1_000",
        "1.0",
        "",
        "-",
        "0x10",
        "٣",
        "²",
        "1\x00",
    ],
)
def test_other_text_is_a_usage_error_naming_the_input(text: str) -> None:
    with pytest.raises(UsageError) as caught:
        whole_number(text, "the_input")
    message = caught.value.message
    assert message.startswith("the_input takes a whole number")
    assert len(message) <= MAX_LINE


def test_the_clock_stops_an_endless_answer_and_restores_the_handler() -> None:
    before = signal.getsignal(signal.SIGALRM)

    def endless() -> Any:
        while True:
            pass

    with pytest.raises(bounds.Overrun), bounds.bounded(0.2) as clock:
        clock.run(endless)  # stopped: else the test hangs, and no_hang fails it
    assert signal.getsignal(signal.SIGALRM) == before
    with bounds.bounded(0.2) as clock:
        assert clock.run(sum, [1, 2]) == 3
        time.sleep(0.3)  # between answers, no clock runs
    error = bounds.too_slow("s.r", {"a": 3, "b": -(10**12), "c": True, "d": "x"})
    assert (
        "b=-1000000000000" in error.message and error.hint == "give b a smaller value"
    )
    assert "on these inputs" in bounds.too_slow("s.r", {"d": "x"}).message


@pytest.mark.parametrize(
    "args",
    [
        ("explain", "d20_scifi.crawl_speed", TOO_LONG, "1"),
        ("simulate", "d20_scifi.accumulation", "--pool", "1000000000000"),
        ("roll", "1d" + TOO_LONG),
        ("roll", "3d6", "--seed", TOO_LONG),
        ("simulate", "d20_scifi.accumulation", "--pool", "1", "--runs", TOO_LONG),
    ],
    ids=["explain", "simulate", "roll", "seed", "runs"],
)
def test_through_the_real_command(project: Path, args: tuple[str, ...]) -> None:
    done = rulesc(*args, cwd=project, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert max(len(line) for line in done.stderr.splitlines()) <= MAX_LINE
