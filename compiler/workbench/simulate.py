"""``rulesc simulate SYSTEM.RULE [--seed N] [--runs N] [--json] [--INPUT VALUE...]``.

Runs a rule that rolls dice (a process, a pool, a covered roll, a success
pool, a dice rule) with its inputs given as options, and prints what happened:
a process event by event, any other answer field by field with the dice
rolled. ``--runs N`` runs it N times on one seeded stream of dice and prints a
summary instead: for a process, the distribution of each total and the time
to the first points of each score; for other rules, the distribution of each
figure of the answer.
A progress bar shows on a terminal while many runs are made.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from ..front.model import Rule
from ..kinds.registry import kind_of
from ..lang.py_names import rules_name
from .bounds import Budget, Overrun, bounded, too_slow
from .common import (
    Input,
    UsageError,
    inputs_of,
    number,
    percent,
    read_value,
    show,
)
from .context import Recorder
from .output import raw
from .text import bar_chart
from .usage import number_option
from .workspace import cache_dir, note_own_examples, open_workspace

MAX_RUNS = 1_000_000
PROGRESS_FROM = 200  # fewer runs than this finish before a bar is worth drawing


def run(args: argparse.Namespace) -> int:
    ws = open_workspace(
        args.rules, cache_dir(args), examples_must_hold=False, more=args.more_rules
    )
    system, rule = ws.find(args.rule)
    with ws.runtime() as runtime:
        note_own_examples(runtime, system, rule)
        module = runtime.module(system.id)
        function = kind_of(rule).simulate(rule, module)
        specs = inputs_of(function, kind_of(rule).params(rule))
        if not any(s.kind == "rng" for s in specs):
            raise UsageError(
                f"{rule.qualified_id} rolls no dice: there is nothing to simulate",
                f"rulesc explain {rule.qualified_id} ... shows its answer",
            )
        options = _options(rule, specs).parse_args(args.options)
        given = {
            s.name: read_value(s, getattr(options, s.name))
            for s in specs
            if s.kind != "rng" and getattr(options, s.name) is not None
        }
        seed = options.seed
        if seed is None:
            seed = random.SystemRandom().randrange(10**6)
        rng_name = next(s.name for s in specs if s.kind == "rng")

        try:
            with bounded() as clock:

                def once(rng: Any) -> Any:  # each run has its own time
                    return clock.run(function, **given, **{rng_name: rng})

                if options.runs is not None:
                    return _many(rule, given, seed, options, once)
                recorder = Recorder(random.Random(seed))
                answer = once(recorder)
        except runtime.input_error as exc:
            raise UsageError(
                f"{rule.qualified_id} refuses these inputs: {exc}"
            ) from None
        except Overrun:
            raise too_slow(rule.qualified_id, given) from None
        if options.json:  # the runtime's own JSON, as its callers get it
            doc = {
                "rule": rule.qualified_id,
                "inputs": given,
                "seed": seed,
                "answer": answer,
            }
            print(runtime.json.dumps(doc, indent=2, ensure_ascii=False))
            return 0
        print(f"{rule.qualified_id}: {rule.title}")
        print(
            f"  {_inputs_text(given)}; seed {seed}"
            + ("" if options.seed is not None else f" (--seed {seed} repeats this run)")
        )
        print()
        for line in kind_of(rule).run_lines(rule, answer, recorder):
            print(line)
    return 0


class _Parser(argparse.ArgumentParser):
    """The rule's options: a mistake in them is a usage error like any other."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, f"{self.prog} --help lists its options")


def _options(rule: Rule, specs: Sequence[Input]) -> argparse.ArgumentParser:
    parser = _Parser(
        prog=f"rulesc simulate {rule.qualified_id}",
        description=f"{rule.title}. " + " ".join(rule.summary.split()),
    )
    parser.add_argument(
        "--seed", type=number_option("--seed"), help="seed the dice, to repeat a run"
    )
    parser.add_argument(
        "--runs",
        type=number_option("--runs"),
        metavar="N",
        help="run it N times and print a summary instead of one run",
    )
    parser.add_argument(
        "--json", action="store_true", help="print JSON instead of text"
    )
    for spec in specs:
        if spec.kind == "rng":
            continue
        name = rules_name(spec.name)  # as the rules write it (class, not class_)
        flags = [f"--{name.replace('_', '-')}"]
        if "_" in name:
            flags.append(f"--{name}")
        about = (
            spec.description + " " if spec.description else ""
        ) + f"({spec.allowed()}"
        about += ")" if spec.required else f"; default {show(spec.default)})"
        parser.add_argument(
            *flags,
            dest=spec.name,
            required=spec.required,
            metavar=spec.kind.upper() if spec.kind != "choice" else "LABEL",
            help=about.replace("%", "%%"),
        )
    return parser


def _inputs_text(given: dict[str, Any]) -> str:
    if not given:
        return "no inputs"
    return ", ".join(
        f"{k}={show(v) if not isinstance(v, dict) else json.dumps(v)}"
        for k, v in given.items()
    )


# -- many runs ----------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a terminal (nothing when output is piped)."""

    def __init__(self, total: int, stream: Any = None) -> None:
        # the bar's carriage returns are rulesc's own: written past the guard
        self.stream = raw(stream or sys.stdout)
        self.total = total
        self.shown = -1
        self.on = total >= PROGRESS_FROM and _isatty(self.stream)
        self.start = time.monotonic()

    def update(self, done: int) -> None:
        if not self.on:
            return
        pct = done * 100 // self.total
        if pct == self.shown:
            return
        self.shown = pct
        width = 30
        filled = width * done // self.total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r  [{bar}] {pct:3d}%  {done}/{self.total} runs")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _many(
    rule: Rule,
    given: dict[str, Any],
    seed: int,
    options: argparse.Namespace,
    once: Callable[[Any], Any],
) -> int:
    runs = options.runs
    if not 1 <= runs <= MAX_RUNS:
        raise UsageError(f"--runs takes 1 to {MAX_RUNS}, not {runs}")
    rng = random.Random(seed)
    progress = Progress(runs)
    budget = Budget(rule.qualified_id, runs)
    answers = []
    try:
        for done in range(runs):
            try:
                answers.append(once(rng))
            except Overrun:  # the first run: the inputs are to blame
                if not done:
                    raise
                raise budget.refusal(done) from None  # later: so many runs are
            if done % 16 == 0:
                progress.update(done)
                budget.check(done + 1)
        progress.update(runs)
    finally:
        progress.close()
    summary, when = kind_of(rule).summary(rule, answers)
    if options.json:
        doc = {
            "rule": rule.qualified_id,
            "inputs": given,
            "seed": seed,
            "runs": runs,
            "summary": {k: _json_ready(v) for k, v in summary.items()},
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    print(f"{rule.qualified_id}: {rule.title}")
    print(f"  {_inputs_text(given)}; {runs} runs from seed {seed}")
    for title, value in summary.items():
        print()
        print(title)
        for line in _summary_lines(value, runs, when):
            print(line)
    return 0


def _json_ready(value: Any) -> Any:
    if isinstance(value, Counter):
        return {
            str(k): v for k, v in sorted(value.items(), key=lambda kv: _sort_key(kv[0]))
        }
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    return value


def _sort_key(value: Any) -> tuple[int, Any]:
    if isinstance(value, bool) or value is None:
        return (0, str(value))
    if isinstance(value, int):
        return (1, value)
    return (2, str(value))


def _summary_lines(value: Any, runs: int, when: Callable[[int], str]) -> list[str]:
    if isinstance(value, Counter):
        return counter_lines(value, runs)
    if "times" in value:
        times = sorted(value["times"])
        lines = []
        if times:
            lines.append(
                f"  earliest {when(times[0])}, median {when(int(statistics.median(times)))}, "
                f"mean {when(round(statistics.fmean(times)))}, latest {when(times[-1])}"
            )
            lines += counter_lines(Counter(times), runs, label=when)[1:]
        if value["never"]:
            lines.append(
                f"  never, in {value['never']} of {runs} runs ({percent(Fraction(value['never'], runs))})"
            )
        return lines
    share: Counter[str] = value["share"]
    rows = [(str(k), Fraction(v, runs)) for k, v in share.most_common()]
    return bar_chart(rows, width=30) if rows else ["  (none)"]


MAX_ROWS = 30


def counter_lines(
    counts: Counter[Any], runs: int, label: Callable[[Any], str] = str
) -> list[str]:
    """A distribution as a chart, grouped into ranges when it has many values."""
    keys = sorted(counts, key=_sort_key)
    numeric = [k for k in keys if type(k) is int]
    lines = []
    if numeric and len(numeric) == len(keys):
        mean = sum(k * counts[k] for k in keys) / runs
        lines.append(
            f"  from {label(keys[0])} to {label(keys[-1])}, mean {number(mean) if label is str else label(round(mean))}"
        )
        if len(keys) > MAX_ROWS:
            size = -(-(keys[-1] - keys[0] + 1) // MAX_ROWS)
            grouped: Counter[int] = Counter(
                {lo: 0 for lo in range(keys[0], keys[-1] + 1, size)}
            )
            for k in keys:
                grouped[keys[0] + (k - keys[0]) // size * size] += counts[k]
            rows = [
                (
                    f"{label(lo)}-{label(min(lo + size - 1, keys[-1]))}",
                    Fraction(n, runs),
                )
                for lo, n in sorted(grouped.items())
            ]
            return lines + bar_chart(rows, width=30)
    rows = [
        (label(k) if k is not None else "none", Fraction(counts[k], runs)) for k in keys
    ]
    return lines + bar_chart(rows, width=30)
