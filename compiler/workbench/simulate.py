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
import functools
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..model import DiceRule, ProcessRule, Rule, SuccessPoolRule, TrackRule
from .commands import cache_dir
from .common import (
    Input,
    UsageError,
    columns_of,
    humanize,
    inputs_of,
    number,
    open_workspace,
    percent,
    plain,
    read_value,
    record_lines,
    show,
    wrap,
)
from .explain import Recorder
from .text import bar_chart

MAX_RUNS = 1_000_000
PROGRESS_FROM = 200  # fewer runs than this finish before a bar is worth drawing


def run(args: argparse.Namespace) -> int:
    ws = open_workspace(args.rules, cache_dir(args))
    system, rule = ws.find(args.rule)
    with ws.runtime() as runtime:
        module = runtime.module(system.id)
        function = _callable(rule, module)
        specs = inputs_of(function, rule)
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

        def once(rng: Any) -> Any:
            try:
                return function(**given, **{rng_name: rng})
            except runtime.input_error as exc:
                raise UsageError(
                    f"{rule.qualified_id} refuses these inputs: {exc}"
                ) from None

        if options.runs is not None:
            return _many(rule, given, seed, options, once)
        recorder = Recorder(random.Random(seed))
        answer = once(recorder)
        if options.json:
            doc = {
                "rule": rule.qualified_id,
                "inputs": given,
                "seed": seed,
                "answer": plain(answer),
            }
            print(json.dumps(doc, indent=2, ensure_ascii=False))
            return 0
        print(f"{rule.qualified_id}: {rule.title}")
        print(
            f"  {_inputs_text(given)}; seed {seed}"
            + ("" if options.seed is not None else f" (--seed {seed} repeats this run)")
        )
        print()
        if isinstance(rule, ProcessRule):
            for line in process_lines(rule, answer):
                print(line)
        else:
            for line in record_lines(answer, columns_of(rule)):
                print(line)
            rolled = ", ".join(f"d{sides}: {value}" for sides, value in recorder.rolled)
            print()
            print("Dice rolled, in order:")
            for line in wrap(rolled or "(none)"):
                print(line)
    return 0


def _callable(rule: Rule, module: Any) -> Callable[..., Any]:
    if isinstance(rule, DiceRule):
        return _dice_roller(getattr(module, rule.constant))
    if isinstance(rule, SuccessPoolRule):
        found: Callable[..., Any] = getattr(module, rule.roll_function)
        return found
    if isinstance(rule, TrackRule) or not hasattr(rule, "function"):
        raise UsageError(
            f"{rule.qualified_id} is not a rule that can be run on its own",
            f"rulesc explain {rule.qualified_id} shows it",
        )
    found = getattr(module, rule.function)
    return found


def _dice_roller(dice: Any) -> Callable[..., Any]:
    from ..runtime.dice import RNG

    def roll(rng: RNG) -> int:
        value: int = dice.roll(rng)
        return value

    roll.__annotations__ = {"rng": RNG, "return": int}  # resolved, not strings
    return roll


def _options(rule: Rule, specs: Sequence[Input]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"rulesc simulate {rule.qualified_id}",
        description=f"{rule.title}. " + " ".join(rule.summary.split()),
    )
    parser.add_argument("--seed", type=int, help="seed the dice, to repeat a run")
    parser.add_argument(
        "--runs",
        type=int,
        metavar="N",
        help="run it N times and print a summary instead of one run",
    )
    parser.add_argument(
        "--json", action="store_true", help="print JSON instead of text"
    )
    for spec in specs:
        if spec.kind == "rng":
            continue
        flags = [f"--{spec.name.replace('_', '-')}"]
        if "_" in spec.name:
            flags.append(f"--{spec.name}")
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


# -- one process run ----------------------------------------------------------------


def clock(ticks: int, units: Sequence[tuple[str, int]]) -> str:
    """A time in a process's own units, largest first: ``12m``, ``3h 07m``.

    Each unit is shown by its first letter (its whole name where two share one);
    the parts below the largest are padded to the width they can reach.
    """
    ordered = sorted(units, key=lambda u: -u[1])
    letters = [name[0] for name, _ in ordered]
    short = len(set(letters)) == len(letters)
    parts: list[str] = []
    rest = ticks
    for index, (name, size) in enumerate(ordered):
        count, rest = divmod(rest, size)
        if not parts and not count and index < len(ordered) - 1:
            continue
        width = len(str(ordered[index - 1][1] // size - 1)) if parts else 1
        mark = letters[index] if short else f" {name}"
        parts.append(f"{count:0{width}d}{mark}")
    return " ".join(parts)


def _units(rule: ProcessRule) -> list[tuple[str, int]]:
    return [(u, t) for u, t in rule.ticks if t >= 1]


def _track_line(rule: ProcessRule, event: Any) -> str:
    track = rule.track
    assert track is not None
    text = f"{humanize(event.kind)} ({track.roll} rolls {event.roll}): {event.effect}, stage {event.stage}"
    if event.condition:
        text += f": {event.condition}"
    if event.reroll:
        text += f"; {track.reroll_label}"
    if getattr(event, track.mark_field):
        text += "; a point is marked (it never recovers)"
    return text


_MARKED = " marked"  # not a score name: those are identifiers


def _event_line(rule: ProcessRule, event: Any, dealt: dict[str, int]) -> str:
    """One event in words, from the names the rules data gives."""
    kind = event.kind
    labels = ", ".join(
        str(getattr(event, name))
        for name, _ in rule.labels
        if getattr(event, name) is not None
    )
    lead = f"{labels}: " if labels else ""
    amount, roll, total, target, success, pool = (
        getattr(event, n) for n in rule.role_fields
    )
    target_name = rule.role_fields[3]
    if kind == rule.onset_event:
        return f"{lead}{humanize(kind)}" + (
            f"; pool of {pool}" if pool is not None else ""
        )
    if kind == rule.check_event:
        bonus = total - roll
        natural = ""
        if rule.always_succeeds is not None and roll >= rule.always_succeeds:
            natural = f" (a roll of {rule.always_succeeds} or more always succeeds)"
        elif rule.always_fails is not None and roll <= rule.always_fails:
            natural = f" (a roll of {rule.always_fails} or less always fails)"
        text = (
            f"{lead}{humanize(kind)} {rule.check} rolls {roll} {'+' if bonus >= 0 else '-'} "
            f"{abs(bonus)} = {total} vs {target_name} {target}: "
            f"{'success' if success else 'failure'}{natural}"
        )
        return text + (f"; {pool} to come" if pool is not None else "")
    if kind in rule.score_events:
        score = rule.scores[rule.score_events.index(kind)]
        dealt[score] = dealt.get(score, 0) + amount
        return f"{lead}{amount} {humanize(score)} (total {dealt[score]})"
    if kind == rule.track_event:
        if rule.track is not None and getattr(event, rule.track.mark_field):
            dealt[_MARKED] = dealt.get(_MARKED, 0) + 1
        return _track_line(rule, event)
    if kind == rule.recover_event and rule.recover_score is not None:
        score = rule.scores[rule.recover_score]
        dealt[score] = dealt.get(score, 0) - amount
        left = dealt[score] - dealt.get(_MARKED, 0)
        return f"{humanize(kind)} {amount} {humanize(score)} (left: {left})"
    figures = ", ".join(
        f"{k} {v}"
        for k, v in plain(event).items()
        if v is not None and k not in (rule.time_field, "kind")
    )
    return f"{lead}{humanize(kind)}" + (f": {figures}" if figures else "")


def process_lines(rule: ProcessRule, answer: Any) -> list[str]:
    """A process run, one event a line, then its totals."""
    units = _units(rule)
    dealt: dict[str, int] = {}
    rows = [
        (clock(getattr(e, rule.time_field), units), _event_line(rule, e, dealt))
        for e in answer.events
    ]
    width = max(len(t) for t, _ in rows) if rows else 4
    lines = [f"  {'time'.rjust(width)}   event (time since the start)"]
    lines += [f"  {t.rjust(width)}   {text}" for t, text in rows]
    totals = [(humanize(t.name), show(getattr(answer, t.name))) for t in rule.totals]
    for kind in (*rule.score_events, rule.track_event):
        if kind is not None:
            first = _first(rule, answer, kind)
            totals.append(
                (
                    f"first {humanize(kind)} at",
                    clock(first, units) if first is not None else "never",
                )
            )
    if totals:
        width2 = max(len(a) for a, _ in totals)
        lines += ["", "Totals"] + [f"  {a.ljust(width2)}   {b}" for a, b in totals]
    return lines


def _first(rule: ProcessRule, answer: Any, kind: str) -> int | None:
    return next(
        (getattr(e, rule.time_field) for e in answer.events if e.kind == kind), None
    )


# -- many runs ----------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a terminal (nothing when output is piped)."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.stream = stream or sys.stdout
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
    answers = []
    try:
        for done in range(runs):
            answers.append(once(rng))
            if done % 16 == 0:
                progress.update(done)
        progress.update(runs)
    finally:
        progress.close()
    when: Callable[[int], str] = str
    if isinstance(rule, ProcessRule):
        summary = process_summary(rule, answers)
        when = functools.partial(clock, units=_units(rule))
    else:
        summary = answers_summary(answers)
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


Summary = dict[str, Any]


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


def process_summary(rule: ProcessRule, answers: Sequence[Any]) -> Summary:
    """Many runs of a process: each total, and when each score is first dealt."""
    summary: Summary = {}
    for t in rule.totals:
        values = [getattr(a, t.name) for a in answers]
        if t.of == "conditions":
            share: Counter[str] = Counter()
            for value in values:
                share.update({str(v) for v in value})
            summary[f"{humanize(t.name)} (share of runs)"] = {"share": share}
        elif t.of == "time":
            summary[f"{humanize(t.name)}"] = {
                "times": [v for v in values if v is not None],
                "never": sum(v is None for v in values),
            }
        else:
            summary[f"{humanize(t.name)}, distribution"] = Counter(values)
    for kind in (*rule.score_events, rule.track_event):
        if kind is not None:
            first = [_first(rule, a, kind) for a in answers]
            summary[f"time to the first {humanize(kind)}"] = {
                "times": [t for t in first if t is not None],
                "never": sum(t is None for t in first),
            }
    return summary


def answers_summary(answers: Sequence[Any]) -> Summary:
    """Each figure of the answers: a distribution, a share, or how often each value."""
    first = answers[0]
    fields: dict[str, list[Any]] = {}
    if hasattr(first, "__dataclass_fields__"):
        for name in first.__dataclass_fields__:
            if name.startswith("_"):
                continue
            values = [getattr(a, name) for a in answers]
            if all(isinstance(v, list | tuple) for v in values):
                fields[f"{name} (how many)"] = [len(v) for v in values]
            else:
                fields[name] = values
    else:
        fields["answer"] = list(answers)
    summary: Summary = {}
    for name, values in fields.items():
        values = [_figure(v) for v in values]
        if all(isinstance(v, bool) for v in values):
            summary[f"{humanize(name)}: how often yes"] = {
                "share": Counter({"yes": sum(values)})
            }
        elif all(type(v) is int or v is None for v in values):
            summary[f"{humanize(name)}, distribution"] = Counter(values)
        else:
            summary[f"{humanize(name)}, how often each"] = Counter(
                str(v) for v in values
            )
    return summary


def _figure(value: Any) -> Any:
    """A value a summary counts: labels for choices, the sum of a list of numbers."""
    plain_value = plain(value)
    if isinstance(plain_value, list) and all(type(v) is int for v in plain_value):
        return sum(plain_value)
    if isinstance(plain_value, list | dict):
        return json.dumps(plain_value, ensure_ascii=False)
    return plain_value


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
