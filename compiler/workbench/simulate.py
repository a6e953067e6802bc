"""``rulesc simulate SYSTEM.RULE [--seed N] [--runs N] [--json] [--INPUT VALUE...]``.

Runs a rule that rolls dice (a timeline, a pool, a covered roll, a success
pool, a dice rule) with its inputs given as options, and prints what happened:
a timeline event by event, any other answer field by field with the dice
rolled. ``--runs N`` runs it N times on one seeded stream of dice and prints a
summary instead: for a timeline, the distribution of the damage dealt, the
time to the first damage and to the first secondary effect, the conditions
suffered; for other rules, the distribution of each figure of the answer.
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
from typing import Any

from ..model import DiceRule, Rule, SuccessPoolRule, TimelineRule, TrackRule
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
        if isinstance(rule, TimelineRule):
            for line in timeline_lines(rule, answer):
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


# -- one timeline -------------------------------------------------------------------


def clock(minute: int) -> str:
    """Minutes since first contact: ``12m``, ``3h 07m``, ``3d 05h 00m``."""
    days, rest = divmod(minute, 1440)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02d}h {minutes:02d}m"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m"


def _damage_unit(rule: TimelineRule) -> str:
    table = rule.exposures.table
    column = next((c for c in table.columns if c.name == rule.effect_column), None)
    return (column.unit if column is not None and column.unit else "points").strip()


def timeline_lines(rule: TimelineRule, answer: Any) -> list[str]:
    """A timeline, one event a line, then its totals."""
    unit = _damage_unit(rule)
    dealt = 0
    healed = 0
    total_dealt = getattr(answer, rule.damage_total, None)
    rows: list[tuple[str, str]] = []
    for event in answer.events:
        kind = event.kind
        what = f"{event.exposure} exposure ({event.level})" if event.exposure else ""
        if kind == "contaminated":
            text = "contaminated: the encounter starts"
        elif kind == "decontaminated":
            text = "decontaminated: contact ends"
        elif kind == "incubation_end":
            text = (
                f"{what}: incubation ends; the primary effect rolls {event.pool} {unit}"
            )
        elif kind == "save":
            natural = (
                " (a natural 1 always fails)"
                if event.roll <= rule.auto_fail
                else " (a natural 20 always succeeds)"
                if event.roll >= rule.auto_succeed
                else ""
            )
            bonus = event.total - event.roll
            verdict = "saved" if event.success else "failed"
            text = (
                f"{what}: save {rule.save_dice} rolls {event.roll} {'+' if bonus >= 0 else '-'} "
                f"{abs(bonus)} = {event.total} vs DC {event.dc}: {verdict}{natural}; "
                f"{event.pool} {unit} to come"
            )
        elif kind == rule.damage_event:
            dealt += event.amount or 0
            text = f"{what}: {event.amount} {unit} (total {dealt})"
        elif kind == "secondary_effect":
            text = f"secondary effect ({rule.track.roll} rolls {event.roll}): {event.effect}, stage {event.stage}"
            if event.condition:
                text += f": {event.condition}"
            if event.reroll:
                text += f"; {rule.track.reroll_label}"
            if event.permanent_point:
                text += "; a point of damage becomes permanent"
        elif kind == "heal":
            healed += event.amount or 0
            left = (total_dealt or 0) - getattr(answer, "permanent", 0) - healed
            text = f"heals {event.amount} (left to heal: {left})"
        else:
            text = (
                kind.replace("_", " ")
                + ": "
                + ", ".join(
                    f"{k} {v}"
                    for k, v in plain(event).items()
                    if v is not None and k not in ("minute", "kind")
                )
            )
        rows.append((clock(event.minute), text))
    width = max(len(t) for t, _ in rows) if rows else 4
    lines = [f"  {'time'.rjust(width)}   event (time since first contact)"]
    lines += [f"  {t.rjust(width)}   {text}" for t, text in rows]
    totals = {
        f.name: getattr(answer, f.name)
        for f in type(answer).__dataclass_fields__.values()
        if f.name != "events" and not f.name.startswith("_")
    }
    lines += ["", "Totals"]
    first = _first(answer, rule.damage_event)
    second = _first(answer, "secondary_effect")
    rows2 = [(humanize(k), show(v)) for k, v in totals.items()]
    rows2.append(("first damage at", clock(first) if first is not None else "never"))
    rows2.append(
        ("first secondary effect at", clock(second) if second is not None else "never")
    )
    last_heal = _last(answer, "heal")
    if last_heal is not None:
        rows2.append(("last point healed at", clock(last_heal)))
    width2 = max(len(a) for a, _ in rows2)
    lines += [f"  {a.ljust(width2)}   {b}" for a, b in rows2]
    return lines


def _first(answer: Any, kind: str) -> int | None:
    return next((e.minute for e in answer.events if e.kind == kind), None)


def _last(answer: Any, kind: str) -> int | None:
    found = [e.minute for e in answer.events if e.kind == kind]
    return found[-1] if found else None


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
    if isinstance(rule, TimelineRule):
        summary = timeline_summary(rule, answers)
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
        for line in _summary_lines(value, runs):
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


def timeline_summary(rule: TimelineRule, answers: Sequence[Any]) -> Summary:
    unit = _damage_unit(rule)
    total = Counter(getattr(a, rule.damage_total) for a in answers)
    first_damage = [_first(a, rule.damage_event) for a in answers]
    first_effect = [_first(a, "secondary_effect") for a in answers]
    permanent = Counter(getattr(a, "permanent", 0) for a in answers)
    conditions: Counter[str] = Counter()
    for a in answers:
        conditions.update(set(a.conditions))
    return {
        f"{humanize(rule.damage_total)} ({unit}), distribution": total,
        f"time to the first {humanize(rule.damage_event)}": {
            "times": [t for t in first_damage if t is not None],
            "never": sum(t is None for t in first_damage),
        },
        "time to the first secondary effect": {
            "times": [t for t in first_effect if t is not None],
            "never": sum(t is None for t in first_effect),
        },
        "permanent points, distribution": permanent,
        "conditions suffered (share of runs)": {"share": conditions},
    }


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


def _summary_lines(value: Any, runs: int) -> list[str]:
    if isinstance(value, Counter):
        return counter_lines(value, runs)
    if "times" in value:
        times = sorted(value["times"])
        lines = []
        if times:
            lines.append(
                f"  earliest {clock(times[0])}, median {clock(int(statistics.median(times)))}, "
                f"mean {clock(round(statistics.fmean(times)))}, latest {clock(times[-1])}"
            )
            lines += counter_lines(Counter(times), runs, label=clock)[1:]
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
            f"  from {label(keys[0])} to {label(keys[-1])}, mean {number(mean) if label is str else clock(round(mean))}"
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
