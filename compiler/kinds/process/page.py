"""process, on its page: the steps of a run, its courses and totals, in the rules' own figures and names."""

from __future__ import annotations

import re

from ...core.ir import Block, DiceShown, Grid, Listed, Prose, RunShown
from ...core.viewkit import duration
from ...front.model import System
from ...kinds.dice.model import DiceRule
from ...lang.naming import words_of
from ...runtime.dice import Dice
from .model import ProcessRule, ProcessStep


def page(system: System, rule: ProcessRule) -> tuple[Block, ...]:
    """What the page shows: how time is counted, the steps, the courses (where
    the rules list them), the totals, the dice, and the first example's run."""
    blocks: list[Block] = [
        Prose(
            f"Time is counted in {rule.clock} from the start; events at the same "
            "time happen in the order they were scheduled."
        ),
        Listed(tuple(_steps(rule)), numbered=True),
    ]
    if rule.courses:
        blocks.append(_courses(rule))
    blocks.append(Prose("The result lists every event in time order, then:"))
    blocks.append(
        Listed(tuple(f"``{t.name}``: {t.description}" for t in rule.totals), False)
    )
    dice = [rule.check, *(c.onset for c in rule.courses if c.onset)]
    blocks.append(
        DiceShown(
            "The same dice give the same events. The dice:",
            tuple(dict.fromkeys(dice)),
        )
    )
    if rule.examples:
        blocks.append(
            RunShown("events", rule.time_field, "kind", rule.ticks, rule.singular)
        )
    return tuple(blocks)


def _steps(rule: ProcessRule) -> list[str]:
    steps: list[str] = []
    if rule.held is not None and rule.state is not None:
        text = f"The state [[{rule.state.id}]] is made as ``{rule.held.start_text}``"
        if rule.held.stops_text is not None:
            text += (
                f"; once ``{rule.held.stops_text}`` holds, no course is checked again"
            )
        steps.append(text + ".")
    if rule.enter_event:
        text = f"At 0 the subject meets the source (``{rule.enter_event}``)"
        if rule.leave_event and rule.leave_param:
            text += (
                f" and leaves it after ``{rule.leave_param}`` (``{rule.leave_event}``)"
            )
        steps.append(text + ".")
    origin = rule.origin
    if origin is not None:
        args = ", ".join(
            f"``{n}`` rolled on [[{v.id}]]"
            if isinstance(v, DiceRule)
            else f"``{n}`` given as ``{v}``"
            for n, v in origin.args
        )
        text = f"The courses are the records [[{origin.rule.id}]] answers ({args})"
        if origin.onset:
            text += (
                f"; each course's onset (``{origin.onset}``) is rolled, in that order"
            )
        steps.append(text + ".")
    else:
        plural = "s" if len(rule.courses) != 1 else ""
        steps.append(
            f"The process has {len(rule.courses)} course{plural}, listed below; "
            "each onset is rolled when the process starts, in that order."
        )
    check = f"``{rule.check}``" + (
        f" plus ``{rule.bonus_param}``" if rule.bonus_param else ""
    )
    target = (
        f"the course's target (``{origin.target}``)"
        if origin
        else "the course's target"
    )
    text = ""
    if rule.onset_event:
        text = f"When an onset ends (``{rule.onset_event}``), "
    pool_field = origin.pool if origin else None
    if rule.pool is not None:
        text += (
            "the course's pool"
            + (f" (``{pool_field}``)" if pool_field else "")
            + " is rolled, then "
        )
    text += (
        f"the course is checked (``{rule.check_event}``): {check} against {target}, "
        "succeeding at or above it."
    )
    if rule.always_fails is not None:
        text += f" A roll of {rule.always_fails} or less on the die always fails."
    if rule.always_succeeds is not None:
        text += f" A roll of {rule.always_succeeds} or more on the die always succeeds."
    steps.append(text)
    if rule.pool is not None:
        score = rule.scores[rule.pool_score]
        steps.append(
            f"A success shrinks the pool as [[{rule.pool.id}]] says; the pool is then "
            f"dealt to ``{score}`` as that rule says "
            f"(``{rule.score_events[rule.pool_score]}`` events)."
        )
    if origin and (origin.on_failure or origin.steps):
        steps.append(
            "A failed check "
            + _failure_text(rule, origin.on_failure, origin.steps)
            + "."
        )
    if origin and origin.every:
        steps.append(
            f"The course is checked again every {_interval(origin.every, rule)}."
        )
    if rule.end_event:
        steps.append(
            f"A course that succeeds often enough in a row ends (``{rule.end_event}``)."
        )
    if rule.track is not None and rule.track_score is not None:
        steps.append(
            f"Every {rule.track.every} points of ``{rule.scores[rule.track_score]}`` "
            f"dealt, counted over all courses, roll on [[{rule.track.id}]] (again "
            f"when it says so), as ``{rule.track_event or ''}`` events."
        )
    if rule.recovery is not None and rule.recover_score is not None:
        steps.append(
            "Once the source is left and everything is dealt, "
            f"``{rule.scores[rule.recover_score]}`` recovers as "
            f"[[{rule.recovery.id}]] says (``{rule.recover_event or ''}`` events), "
            "except points the track marked."
        )
        if rule.ends_event is not None:
            steps.append(
                "When recovery may begin (the source left and everything dealt), "
                "each condition of the track still suffered ends "
                f"(``{rule.ends_event}`` events); one that its effect's next stage "
                "replaced ended with that roll."
            )
    return steps


def _courses(rule: ProcessRule) -> Grid:
    rows = [
        (
            ", ".join(str(v) for v in c.labels) or str(i + 1),
            _interval(c.start, rule),
            f"{c.onset} {c.onset.unit}" if c.onset else "—",
            str(c.target),
            str(c.pool) if c.pool else "—",
            _interval(c.every, rule) if c.every else "once",
            f"{c.until} in a row" if c.until else "—",
            _failure_plain(rule, c.on_failure, c.steps)
            if c.on_failure or c.steps
            else "—",
        )
        for i, c in enumerate(rule.courses)
    ]
    return Grid(
        (
            "Course",
            "Starts",
            "Onset",
            "Target",
            "Pool",
            "Checked",
            "Ends after",
            "On a failed check",
        ),
        tuple(rows),
    )


def _interval(ticks: int, rule: ProcessRule) -> str:
    return duration(ticks, rule.ticks, rule.singular)


def _effects_text(rule: ProcessRule, effects: tuple[tuple[int, Dice], ...]) -> str:
    return ", then ".join(f"``{d}`` to ``{rule.scores[s]}``" for s, d in effects)


def _failure_text(
    rule: ProcessRule,
    effects: tuple[tuple[int, Dice], ...],
    steps: tuple[ProcessStep, ...],
) -> str:
    parts = []
    if effects:
        parts.append("deals " + _effects_text(rule, effects))
    if steps and rule.state is not None:
        parts.append(
            ", then ".join(f"``{s.name}({s.args_text})``" for s in steps)
            + f" on [[{rule.state.id}]] (``{rule.state_event or ''}`` events)"
        )
    return ", then ".join(parts)


def _failure_plain(
    rule: ProcessRule,
    effects: tuple[tuple[int, Dice], ...],
    steps: tuple[ProcessStep, ...],
) -> str:
    """The same, as a table's cell holds it (plain text)."""
    text = re.sub(
        r"``([a-z][a-z0-9_]*)``",  # a name, in words
        lambda m: words_of(m.group(1)),
        _failure_text(rule, effects, steps),
    ).replace("``", "")
    return re.sub(r"\[\[(\w+)\]\]", r"\1", text)
