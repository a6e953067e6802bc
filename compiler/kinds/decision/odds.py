"""Decision odds: which parts of a decision's answer its odds are of, and their options, checked at build.

A decision that rolls and answers one value has odds of that value; one
answering fields has the odds its ``odds`` names: one field (its chances),
a list of fields (each field's own chances, from one working out), or
``{joint: [a, b]}`` (the fields' chances together). Each is a number, a flag
or a label, never null. The options of its odds: its odds function's name,
how many dice deep they follow an explosion (``depth``) and a table of them
on its page (``odds_chart``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ...common.limits import (
    MAX_CHART_COLUMNS,
    MAX_CHART_ROWS,
)
from ...kinds.decision.model import (
    TURNS,
    DecisionCase,
    DecisionRule,
    OddsChart,
    Repeat,
    Slot,
    StateValue,
)
from ...kinds.decision.turns import relevant
from ...kinds.formula.model import Let
from ...lang import expr
from ...lang.nodes import walk
from ...runtime.dice_odds import MAX_DEPTH

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

__all__ = ["chain", "depth_problem", "fields", "options", "unbounded"]

_ODDS_TYPES = ("int", "bool", "choice")


class Compiler(Protocol):
    """What compiles an expression of the decision (its builder)."""

    def compile(
        self, path: Path, text: str, given: expr.Node | None = None
    ) -> expr.Checked | None: ...


def _shown(fields: Sequence[str]) -> str:
    """Fields as a message names them."""
    return ", ".join(repr(f) for f in fields)


def fields(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    slots: list[Slot],
    lets: tuple[Let, ...],
) -> tuple[tuple[str, ...], bool]:
    """The slots a rolling decision's odds are of (its one value, or the
    fields ``odds`` names) and whether together; none for a decision
    without odds (a located error where ``odds`` asks for what cannot be)."""
    rolls = any(expr.dice_in(let.checked.node) is not None for let in lets)
    collect = raw.get("hit_policy") == "collect"
    if "odds" not in raw:
        value = slots[0] if "value" in raw and slots else None
        fits = value is not None and value.type in _ODDS_TYPES and not value.nullable
        return (("value",), False) if rolls and fits and not collect else ((), False)
    at = (*path, "odds")
    problem = None
    if "fields" not in raw:
        problem = (
            "'odds' names a field of the answer: this decision has no fields",
            "remove 'odds' (a decision answering one value has odds of it)",
        )
    elif collect:
        problem = (
            "a decision that collects answers a list: it has no odds",
            "remove 'odds'",
        )
    elif not rolls:
        problem = (
            "this decision rolls no dice: it has no odds",
            "roll the dice in a let, or remove 'odds'",
        )
    if problem is not None:
        b.err(src, at, *problem, key=True)
        return (), False
    written = raw["odds"]
    joint = isinstance(written, dict)
    if joint:
        names, where = list(written["joint"]), (*at, "joint")
    elif isinstance(written, list):
        names, where = list(written), at
    else:
        names, where = [written], None
    by_name = {s.name: s for s in slots}
    found: list[str] = []
    for index, name in enumerate(names):
        place = at if where is None else (*where, index)
        slot = by_name.get(name)
        if slot is None:
            b.err(src, place, f"no field {name!r}", "fields: " + ", ".join(by_name))
            continue
        if slot.type not in _ODDS_TYPES or slot.nullable:
            shown = f"a list of {slot.items}" if slot.type == "list" else slot.type
            shown += " that may be null" if slot.nullable else ""
            b.err(
                src,
                place,
                f"field {slot.name!r} is {shown}: its odds are not worked out",
                "name a number, a flag or a label that is never null",
            )
            continue
        found.append(slot.name)
    if len(found) != len(names):
        return (), False
    return tuple(found), joint


def _chart(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    built: DecisionRule,
) -> OddsChart | None:
    """The table of its odds on its page: over a parameter that is a whole
    number, the others defaulted; odds of a whole number; spans in order."""
    at = (*path, "odds_chart")
    chart = raw["odds_chart"]
    slots = {s.name: s for s in built.slots}
    numbers = [f for f in built.odds_of if slots[f].type == "int"]
    field = chart.get("field", numbers[0] if numbers else built.odds_of[0])
    params = {p.name: p for p in built.params}
    over = params.get(chart["over"])
    problem = None
    if built.joint:
        problem = "its odds are of fields together, not of a whole number"
    elif field not in built.odds_of:
        problem = f"its odds are not of {field!r}: " + ", ".join(built.odds_of)
    elif slots[field].type != "int":
        problem = f"its odds of {field!r} are of {slots[field].type} answers, not whole numbers"
    elif over is None or over.type != "int":
        problem = f"{chart['over']!r} is not a parameter that is a whole number"
    elif others := [
        p.name for p in built.params if p is not over and not p.has_default
    ]:
        problem = f"the other parameters need defaults: {', '.join(others)}"
    if problem is not None:
        b.err(
            src,
            at,
            f"odds_chart: {problem}",
            "chart the odds of a number over one parameter",
        )
        return None
    assert over is not None
    low, high = chart["values"]
    allowed = (
        over.min if over.min is not None else low,
        over.max if over.max is not None else high,
    )
    if not allowed[0] <= low <= high <= allowed[1] or high - low >= MAX_CHART_ROWS:
        b.err(
            src,
            (*at, "values"),
            f"values must be [low, high] with low <= high, within {over.name}'s "
            f"{allowed[0]} to {allowed[1]}, at most {MAX_CHART_ROWS} rows",
        )
        return None
    beat = chart.get("beat")
    if beat is not None and not (
        beat[0] <= beat[1] and beat[1] - beat[0] < MAX_CHART_COLUMNS
    ):
        b.err(
            src,
            (*at, "beat"),
            f"beat must be [low, high] with low <= high, at most {MAX_CHART_COLUMNS} columns",
        )
        return None
    return OddsChart(
        chart["title"],
        over.name,
        (low, high),
        None if beat is None else (beat[0], beat[1]),
        field,
    )


def options(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    d: Compiler,
    built: DecisionRule,
    written: Mapping[str, Path],
) -> DecisionRule:
    """Its odds function's name and the depth its explosions are followed to
    (of a repeat without max_turns: how many turns deep its odds follow the
    turns, the runs still going the tail)."""
    if "odds_function" in raw:
        at = written.get("odds_function", (*path, "odds_function"))
        b.claim(src, at, raw["odds_function"], "function")
        built = replace(built, odds_name=raw["odds_function"])
    if "odds_chart" in raw:
        built = replace(built, odds_chart=_chart(b, src, path, raw, built))
    if "depth" not in raw:
        return built
    if built.repeat is not None and built.repeat.max_turns is not None:
        b.err(
            src,
            (*path, "depth"),
            "max_turns already bounds the turns its odds follow (a decision "
            "that repeats follows its explosions to the runtime's depth)",
            "remove 'depth', or remove max_turns to follow the turns 'depth' "
            "deep, the rest the tail",
            key=True,
        )
        return built
    text = str(raw["depth"])
    checked = d.compile((*path, "depth"), text)
    if checked is None:
        return built
    params = {p["name"] for p in raw["parameters"]}
    read = sorted(
        {n.name for n in walk(checked.node) if isinstance(n, expr.Name)} - params
    )
    if checked.type != "int" or checked.nullable or expr.dice_in(checked.node) or read:
        shown = f"reads {', '.join(read)}" if read else f"is {checked.type}"
        b.err(
            src,
            (*path, "depth"),
            f"depth must be a whole number of the parameters alone: this {shown}",
            "write a number from 0 to 100, or an expression of the parameters",
        )
        return built
    problem = depth_problem(checked.interval)
    if problem is not None:
        b.err(src, (*path, "depth"), *problem)
        return built
    return replace(built, depth=text, depth_checked=checked)


def depth_problem(interval: expr.Interval | None) -> tuple[str, str] | None:
    """Why the odds cannot follow explosions as deep as ``depth`` may be over
    the parameters' ranges (the runtime's 0 to ``MAX_DEPTH``), with the hint;
    or None."""
    iv = interval or expr.Interval(None, None)
    if iv.lo is not None and iv.hi is not None and 0 <= iv.lo <= iv.hi <= MAX_DEPTH:
        return None
    shown = f"is {iv.lo}" if iv.lo == iv.hi else f"may be {iv}"
    return (
        f"depth {shown} over the parameters' ranges: the odds follow "
        f"explosions 0 to {MAX_DEPTH} dice deep",
        f"bound it, e.g. clamp(..., 0, {MAX_DEPTH}), or narrow the parameters",
    )


def unbounded(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    rule: DecisionRule,
) -> bool:
    """Whether the odds would follow a number of the state without both bounds
    (its chain is not finite: max_turns only cuts it), or a list of the state
    without max_turns (it may grow without end), so there are no exact odds to
    give; where the rule asks for them with ``odds``, a located error."""
    assert rule.repeat is not None
    bounded = rule.repeat.max_turns is not None or "depth" in raw
    state, needed = relevant(rule)
    counted = _counted(rule.repeat, state, needed)
    if counted is not None:
        if "odds" in raw:
            b.err(
                src,
                (*path, "odds"),
                f"the odds of {_shown(rule.odds_of)} follow {counted!r}, which a "
                f"turn works out from '{TURNS}': its chain of chances is not "
                "followed by turn",
                f"keep '{TURNS}' out of what the ending and the odds read, or "
                "remove 'odds'",
                key=True,
            )
        return True
    loose = next(
        (
            v
            for v in state
            if (v.type == "int" and (v.min is None or v.max is None))
            or (v.type in ("list", "record", "text") and not bounded)
            or v.type == "state"
        ),
        None,
    )
    if loose is None:
        return False
    if "odds" in raw:
        what = "a number of the state without a min and a max"
        hint = f"give {loose.name!r} a min and a max"
        if loose.type in ("list", "record", "text"):
            what = f"a {loose.type} of the state, and the turns have no max_turns"
            hint = "give repeat a max_turns (or the decision a depth)"
        if loose.type == "state":
            what = "a state held by the state"
            hint = f"keep {loose.name!r} out of what the ending and the odds read"
        b.err(
            src,
            (*path, "odds"),
            f"the odds of {_shown(rule.odds_of)} follow {loose.name!r}, {what}: "
            "its chain of chances has no end",
            f"{hint}, or remove 'odds'",
            key=True,
        )
    return True


def _counted(
    repeat: Repeat, state: Sequence[StateValue], needed: Sequence[str]
) -> str | None:
    """A state value (or a turn's name) the odds follow that the turn works
    out from ``turns``, or None."""
    names = {v.name for v in state}
    for let in repeat.lets:
        if let.name in needed and TURNS in expr.names_used(let.checked.node):
            return let.name
    for s in repeat.sets:
        if s.name in names and TURNS in expr.names_used(s.checked.node):
            return s.name
    return None


def chain(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    cases: list[DecisionCase],
    odds: tuple[str, ...],
    repeat: Repeat,
) -> bool:
    """The odds of a repeating decision are an absorbing chain's: a field read
    with the count of turns needs max_turns or depth (else the chain has no
    end)."""
    if repeat.max_turns is not None or "depth" in raw:
        return True
    reads: set[str] = set()
    for case in cases:
        if case.when is not None:
            reads |= expr.names_used(case.when.node)
        for field in odds:
            kind, item = dict(case.values or ()).get(field, ("literal", None))
            if kind == "expr" and item is not None:
                reads |= expr.names_used(item.node)
    if TURNS not in reads:
        return True
    b.err(
        src,
        (*path, "odds") if "odds" in raw else (*path, "repeat"),
        f"the odds of {_shown(odds)} read '{TURNS}', which has no end without max_turns",
        "give repeat a max_turns (the odds then follow every turn up to it), "
        "or give the decision a depth (the turns followed that deep, the rest the tail)",
        key="odds" in raw,
    )
    return False
