"""A decision that repeats a turn: its state, its turn and its ending, read and checked.

All of them are in one key, ``repeat``: a decision repeats wholly or not at
all. The state is a set of named values carried from turn to turn, each started by
an expression of the parameters (its dice, if it rolls, rolled once before
the first turn, in the state's order); a number's every value is clamped into its
``min``..``max``; a list (``type: list`` of ``items``) starts as any list of
its type, ``[]`` the empty one, and grows as the turn joins to it. A turn binds its names in order (dice rolled each turn), then
works out every new value from the values before the turn and sets them all
at once. The ending (``until``) is a condition on the parameters and the state,
checked before each turn (the first included); ``max_turns`` bounds the turns.
The cases then read the parameters, the state as it ended and ``turns``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...kinds.decision import lists
from ...kinds.decision.model import TURNS, Repeat, SetValue, StateValue
from ...kinds.decision.reach import state_reach, turn_count
from ...lang import expr
from ...runtime._support import MAX_ENTRIES

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.model import EnumType
    from ...front.semantics import SystemBuilder

SlotType = Callable[
    ["Path", dict[str, Any], str], tuple[Any, "EnumType | None", str | None]
]
_LIST = "a list of the state"


def _text(value: Any) -> str:
    """A value written as YAML gives it (``0``, ``false``), as expression text."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def state_param(value: StateValue, items: expr.Interval | None = None) -> expr.Param:
    """How the expressions read a state value (a list as a name bound to one
    of its type, of any length); ``items``: the range of its number (of its
    list's numbers), as a call can give it, where it is known (``reach``)."""
    if value.type in ("record", "state", "text") or (
        value.type == "list" and value.items in ("record", "choice")
    ):
        return expr.Param(value.name, value.type, slot=_field(value))
    if value.type == "list":
        ints = expr.Interval(None, None) if value.items == "int" else None
        held = expr.Checked(
            expr.Name(value.name, 0, 0),
            "list",
            ints,
            item=value.items,
            length=expr.Interval(0, None),
        )
        if items is not None and value.items == "int":
            held = replace(held, exact=replace(held, interval=items))
        return expr.Param(value.name, "int", bound=held)
    if value.type == "int" and items is not None:  # a number, as a call can give it
        held = expr.Checked(
            expr.Name(value.name, 0, 0), "int", expr.Interval(value.min, value.max)
        )
        exact = replace(held, interval=items)
        return expr.Param(value.name, "int", bound=replace(held, exact=exact))
    if value.type == "choice" and value.enum is not None:
        labels = tuple(m.label for m in value.enum.members)
        return expr.Param(value.name, "choice", choices=labels, enum=value.enum.name)
    return expr.Param(value.name, value.type, min=value.min, max=value.max)


def _field(value: StateValue) -> expr.Field:
    labels = tuple(m.label for m in value.enum.members) if value.enum else ()
    enum = value.enum.name if value.enum is not None else None
    if value.type == "list":
        return expr.Field(
            "list",
            False,
            choices=labels,
            enum=enum,
            items=value.items,
            record=value.record,
        )
    if value.type == "choice" and value.enum is not None:
        return expr.Field("choice", choices=labels, enum=enum)
    return expr.Field(value.type, record=value.record)


def _named(raw: dict[str, Any]) -> bool:
    """Whether a state value (or its list's items) is a record or a state."""
    value = raw.get("items") if raw["type"] == "list" else raw["type"]
    return value in ("record", "state")


def misfit(checked: expr.Checked, value: StateValue) -> str | None:
    """Why ``checked`` cannot be a value of ``value`` ("gives ..., but it is
    ..."), or None (the empty list is a list of any type)."""
    if value.type != "list":
        problem = expr.fits(checked, _field(value))
        return None if problem is None else problem.replace("the field is", "it is")
    if checked.type == "list" and checked.item is None:
        return None
    if checked.type == "list" and checked.item == value.items:
        problem = expr.fits(checked, _field(value))
        return None if problem is None else problem.replace("the field is", "it is")
    shown = value.record if value.items == "record" else value.items
    return f"gives {expr.describe(checked)}, but it is a list of {shown}"


class RepeatBuilder:
    """Reads a decision's ``repeat``: its state and its turn (the parameters read already)."""

    def __init__(
        self,
        b: SystemBuilder,
        src: SourceFile,
        path: Path,
        raw: dict[str, Any],
        specs: dict[str, expr.Param],
        slot_type: SlotType,
    ) -> None:
        self.b, self.src, self.path, self.raw = b, src, path, raw
        self.specs = specs
        self.slot_type = slot_type
        self.ok = True
        self.declared: set[str] = set()  # every state value's name, built or not

    def err(self, path: Path, message: str, hint: str | None = None) -> None:
        self.ok = False
        self.b.err(self.src, path, message, hint)

    def compile(
        self,
        path: Path,
        text: str,
        scope: dict[str, expr.Param],
        what: str,
        rolls: bool = False,
    ) -> expr.Checked | None:
        checked = self.b.compile_expression(
            self.src, path, text, scope, what, skip_failed=True, rolls=rolls
        )[1]
        if checked is None:
            self.ok = False
        return checked

    def build(self) -> tuple[Repeat | None, dict[str, expr.Param]]:
        """The turn (with its state) and the scope the cases read (the
        parameters, the state and ``turns``); a mistake is reported (``ok`` False)."""
        raw = self.raw
        if "let" in raw:
            self.err(
                (*self.path, "let"),
                "a repeating decision binds its names in the turn: 'repeat: let:'",
                "move the names into repeat's let",
            )
        if any("refuse" in case for case in raw["cases"]):
            index = next(i for i, c in enumerate(raw["cases"]) if "refuse" in c)
            self.err(
                (*self.path, "cases", index, "refuse"),
                "a repeating decision answers every call: its cases cannot refuse",
                "refuse an input with the parameters' min and max",
            )
        state = self.state()
        reach = state_reach(self.b, self.specs, state, raw["repeat"], state_param)
        scope = dict(self.specs) | {
            v.name: state_param(v, reach.get(v.name)) for v in state
        }
        repeat = self.repeat(state, scope)
        return repeat, scope | {TURNS: _turns(raw["repeat"].get("max_turns"))}

    def name(self, path: Path, name: str, taken: set[str], what: str) -> bool:
        """A new name of the state or the turn: not a parameter, not taken."""
        if name == TURNS:
            self.err(
                path, f"'{TURNS}' is the count of turns taken", "choose another name"
            )
            return False
        if name in self.specs or name in taken:
            what_is = "a parameter" if name in self.specs else "a name bound before"
            self.err(path, f"{name!r} is already {what_is}", "choose another name")
            return False
        if not self.b.local_name(self.src, path, name, what):
            self.ok = False
            return False
        taken.add(name)
        return True

    def state(self) -> list[StateValue]:
        found: list[StateValue] = []
        taken: set[str] = set()
        for index, item in enumerate(self.raw["repeat"]["state"]):
            at = (*self.path, "repeat", "state", index)
            self.declared.add(item["name"])
            if not self.name((*at, "name"), item["name"], taken, "state name"):
                continue
            kind, enum, record = self.slot_type(at, item, _LIST)
            low, high = item.get("min"), item.get("max")
            if kind != "int" and (low is not None or high is not None):
                key = "min" if low is not None else "max"
                self.err((*at, key), f"only a number has bounds, not {kind}")
                continue
            if low is not None and high is not None and low > high:
                self.err((*at, "min"), f"min ({low}) is above max ({high})")
                continue
            if (
                (kind == "choice" and enum is None)
                or lists.declaration_problems(item, _LIST)
                or (_named(item) and record is None)
            ):
                self.ok = False  # reported by slot_type
                continue
            start = self.compile(  # (its dice rolled once, before the first turn)
                (*at, "value"),
                _text(item["value"]),
                dict(self.specs),
                "state start",
                rolls=True,
            )
            if start is None:
                continue
            value = StateValue(
                item["name"],
                kind,
                start,
                low,
                high,
                enum,
                item.get("description"),
                self.b.loc(self.src, (*at, "name")),
                item.get("items") if kind == "list" else None,
                record,
            )
            if problem := misfit(start, value):
                hint = 'the empty list is "[]"' if kind == "list" else None
                self.err((*at, "value"), f"the start {problem}", hint)
                continue
            text = _text(item["value"])
            found.append(
                replace(value, start=self.clamped(value, start, text, self.specs))
            )
        return found

    def clamped(
        self,
        value: StateValue,
        checked: expr.Checked,
        text: str,
        scope: dict[str, expr.Param],
    ) -> expr.Checked:
        """``checked`` clamped into the value's bounds, where it may pass them."""
        iv = checked.interval or expr.Interval(None, None)
        low = value.min is not None and (iv.lo is None or iv.lo < value.min)
        high = value.max is not None and (iv.hi is None or iv.hi > value.max)
        if value.type != "int" or not (low or high):
            return checked
        if low and high:
            wrapped = f"clamp(({text}), {value.min}, {value.max})"
        elif low:
            wrapped = f"max(({text}), {value.min})"
        else:
            wrapped = f"min(({text}), {value.max})"
        tables, functions = self.b.expression_scope()
        tables = {n: t for n, t in tables.items() if n not in scope}
        return expr.compile_formula(
            wrapped,
            scope,
            tables=tables,
            functions=functions,
            ladders=self.b.ladders(),
            records=self.b.record_types(),
            dies=self.b.dies(),
        )

    def repeat(
        self, state: list[StateValue], scope: dict[str, expr.Param]
    ) -> Repeat | None:
        raw = self.raw["repeat"]
        at = (*self.path, "repeat")
        for bound in raw.get("let", []):
            if bound["name"] == TURNS or bound["name"] in {v.name for v in state}:
                self.err(
                    (*at, "let", raw["let"].index(bound), "name"),
                    f"{bound['name']!r} is already a state value"
                    if bound["name"] != TURNS
                    else f"'{TURNS}' is the count of turns taken",
                    "choose another name",
                )
                return None
        # a turn reads the count of turns with its own (from 1)
        scope = scope | {TURNS: turn_count(raw.get("max_turns"))}
        lets, turn = self.b.lets(self.src, at, raw.get("let", []), scope)
        if lets is None:
            self.ok = False
            return None
        values = {v.name: v for v in state}
        sets: list[SetValue] = []
        for index, item in enumerate(raw["set"]):
            spath = (*at, "set", index)
            value = values.get(item["name"])
            if value is None and item["name"] in self.declared:
                continue  # a state value that failed: reported where it is declared
            if value is None:
                self.err(
                    (*spath, "name"),
                    f"{item['name']!r} is not a state value",
                    "state: " + ", ".join(values),
                )
                continue
            if any(s.name == value.name for s in sets):
                self.err((*spath, "name"), f"{value.name!r} is set twice in a turn")
                continue
            text = _text(item["value"])
            checked = self.compile((*spath, "value"), text, turn, "new value")
            if checked is None:
                continue
            if problem := misfit(checked, value):
                hint = f"join to it: {value.name} + [x]" if value.items else None
                self.err((*spath, "value"), f"the new value {problem}", hint)
                continue
            sets.append(
                SetValue(
                    value.name,
                    text,
                    checked,
                    self.clamped(value, checked, text, turn),
                    self.b.loc(self.src, (*spath, "name")),
                )
            )
        until_text = _text(raw["until"]).strip()
        before = {n: p for n, p in scope.items() if n != TURNS}
        until = self.compile((*at, "until"), until_text, before, "ending")
        if until is not None and (until.type != "bool" or until.nullable):
            self.err(
                (*at, "until"), f"the ending must be a bool, not {expr.describe(until)}"
            )
        self.unused(at, raw, lets, sets, until)
        if until is None or not self.ok:
            return None
        return Repeat(
            tuple(state),
            lets,
            tuple(sets),
            until,
            until_text,
            raw.get("max_turns"),
            self.b.loc(self.src, at),
        )

    def unused(
        self,
        at: Path,
        raw: dict[str, Any],
        lets: tuple[Any, ...],
        sets: list[SetValue],
        until: expr.Checked | None,
    ) -> None:
        """Each name of the turn that nothing after it reads is an error."""
        if not lets or not self.ok:
            return
        nodes = [s.checked.node for s in sets] + ([until.node] if until else [])
        before = len(self.b.errors)
        self.b.unused_lets(self.src, at, raw, lets, nodes)
        if len(self.b.errors) > before:
            self.ok = False


def _turns(most: int | None) -> expr.Param:
    """How the cases read the count of turns taken: at least 0 (as a call can
    give it, at most ``max_turns``, or the turns the runtime takes at most)."""
    held = expr.Checked(expr.Name(TURNS, 0, 0), "int", expr.Interval(0, None))
    taken = expr.Interval(0, MAX_ENTRIES if most is None else most)
    return expr.Param(
        TURNS, "int", bound=replace(held, exact=replace(held, interval=taken))
    )
