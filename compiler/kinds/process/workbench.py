"""A simulation, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ...kinds.process.model import ProcessRule
from ...workbench.common import humanize, plain, show
from ...workbench.context import Context, Recorder


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, ProcessRule)

    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    ctx.out.section(f"Events ({ctx.rng_how})", process_lines(rule, answer))
    ctx.out.lines += [
        "",
        f"  (rulesc simulate {rule.qualified_id} --runs 1000 summarises many runs)",
    ]


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
    if kind == rule.ends_event:
        return f"{humanize(kind)}: {event.condition} (no longer suffered)"
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


def process_summary(rule: ProcessRule, answers: Sequence[Any]) -> dict[str, Any]:
    """Many runs of a process: each total, and when each score is first dealt."""
    summary: dict[str, Any] = {}
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


def run_lines(rule: ProcessRule, answer: Any, recorder: Recorder) -> list[str]:
    return process_lines(rule, answer)


def summary(
    rule: ProcessRule, answers: Sequence[Any]
) -> tuple[dict[str, Any], Callable[[int], str]]:
    """Many runs: each total, and when each score is first dealt, in the rule's units."""
    return process_summary(rule, answers), functools.partial(clock, units=_units(rule))
