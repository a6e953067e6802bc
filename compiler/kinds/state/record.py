"""state with fields: a record of named fields, derived properties and
transitions written as expressions; its build and checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import ir
from ...core.viewkit import where_doc
from ...front.model import (
    EnumType,
    Param,
    System,
)
from ...front.scope import param_spec
from ...kinds.formula.model import Let
from ...kinds.state import values
from ...kinds.state.record_model import (
    Assignment,
    Derived,
    RecordField,
    RecordStateRule,
    RecordTransition,
)
from ...kinds.state.rule import check_actions
from ...lang import expr

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

# The keys of each shape the other has not: (the rule's, its transitions').
LADDER_KEYS = (("floor", "cumulative", "flags"), ("step", "by", "to"))
RECORD_KEYS = (("derived", "parameters"), ("parameters", "unless", "let", "set"))


def other_shape(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    keys: tuple[tuple[str, ...], tuple[str, ...]],
    shape: str,
) -> bool:
    """Whether the rule has none of the keys of the other shape (``keys``;
    ``shape``: this one's key); else the errors, at the keys."""
    ok = True
    what = "a state with levels" if shape == "fields" else "a state with fields"
    places = [((*path, key), key) for key in keys[0] if key in raw]
    for index, t in enumerate(raw.get("transitions", [])):
        places += [
            ((*path, "transitions", index, key), key) for key in keys[1] if key in t
        ]
    for at, key in places:
        b.err(
            src,
            at,
            f"'{key}' belongs to {what}, and this state has '{shape}'",
            "remove it",
            key=True,
        )
        ok = False
    return ok


class Members:
    """The names of the class's members so far (a name either target has
    already, ``self`` or ``to_dict``, is spelt otherwise there: py_names,
    js_naming)."""

    def __init__(self, b: SystemBuilder, src: SourceFile) -> None:
        self.b, self.src = b, src
        self.names: set[str] = set()

    def add(self, path: Path, name: str, what: str) -> bool:
        b, src = self.b, self.src
        if not b.local_name(src, path, name, what):
            return False
        if name in self.names:
            b.err(
                src,
                path,
                f"{name!r} is already a member of the state class",
                "choose another name",
            )
            return False
        self.names.add(name)
        return True


def _compile(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    text: str,
    scope: dict[str, expr.Param],
    what: str,
) -> expr.Checked | None:
    """One expression of the state, which rolls no dice (else reported)."""
    _, checked = b.compile_expression(
        src, path, text, scope, what, rolls=True, skip_failed=True
    )
    if checked is None:
        return None
    dice = expr.dice_in(checked.node)
    if dice is not None:
        error = expr.ExprError(
            f"a state rolls no dice: {expr.rolled_text(dice)}",
            dice.start,
            dice.end,
            "roll in a formula or a decision, and pass the result to the transition",
        )
        b.expr_error(src, path, text, error, what)
        return None
    return checked


def _typed(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    checked: expr.Checked,
    want: str,
    what: str,
) -> bool:
    """Whether ``checked`` is a value of type ``want`` (int or bool), never null."""
    if checked.type == want and not checked.nullable:
        return True
    words = {"int": "a whole number", "bool": "a flag (true or false)"}
    b.err(src, path, f"{what} is {words[want]}, not {expr.describe(checked)}")
    return False


def _within(iv: expr.Interval | None, lo: int | None, hi: int | None) -> bool:
    """Whether every value of ``iv`` is within lo..hi (None: no bound)."""
    if iv is None:
        return lo is None and hi is None
    low = lo is None or (iv.lo is not None and iv.lo >= lo)
    return low and (hi is None or (iv.hi is not None and iv.hi <= hi))


def _spec(name: str, kind: str, iv: expr.Interval | None) -> expr.Param:
    if kind == "bool":
        return expr.Param(name, "bool")
    return expr.Param(name, "int", iv.lo if iv else None, iv.hi if iv else None)


def _field(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    f: dict[str, Any],
    made: dict[str, expr.Param],
    owned: list[EnumType],
) -> RecordField | None:
    """A field: a whole number or a flag (as it always was), or a value of
    any other type (``values.held``); its start reads ``made``, the
    constructor's parameters."""
    if f["type"] not in ("int", "bool"):
        found = values.held(b, src, path, f, made, owned, _compile)
        assert found is None or isinstance(found, RecordField)
        return found
    kind, lo, hi = f["type"], f.get("min"), f.get("max")
    ok = True
    if kind != "int" and (lo is not None or hi is not None):
        key = "min" if lo is not None else "max"
        b.err(src, (*path, key), "a flag has no min or max", "remove it", key=True)
        ok = False
    elif lo is not None and hi is not None and lo > hi:
        b.err(src, (*path, "min"), f"min {lo} is above max {hi}")
        ok = False
    start = f["start"]
    text = ("true" if start else "false") if isinstance(start, bool) else str(start)
    checked = _compile(b, src, (*path, "start"), text, made, "start value")
    if checked is None or not _typed(
        b, src, (*path, "start"), checked, kind, "the start value"
    ):
        return None
    if kind == "int" and ok and not _within(checked.interval, lo, hi):
        b.err(
            src,
            (*path, "start"),
            f"the start value ({checked.interval}) is outside the field's "
            f"{expr.Interval(lo, hi)}",
        )
        ok = False
    return (
        RecordField(f["name"], kind, checked, lo, hi, f.get("description"))
        if ok
        else None
    )


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> RecordStateRule | None:
    b.claim(src, (*path, "class"), raw["class"], "state class")
    shaped = other_shape(b, src, path, raw, LADDER_KEYS, "fields")
    ok = True
    members = Members(b, src)
    fields: list[RecordField] = []
    scope: dict[str, expr.Param] = {}
    owned: list[EnumType] = []
    made = values.constructor(b, src, path, raw)
    params, made_scope = made if made is not None else ((), {})
    ok, unread = made is not None, False
    for index, f in enumerate(raw["fields"]):
        fpath = (*path, "fields", index)
        if not members.add((*fpath, "name"), f["name"], "field name"):
            ok = False
            continue
        field = _field(b, src, fpath, f, made_scope, owned)
        if field is None:  # reported: its readers are not (skip_failed)
            b.failed.add(f["name"])
            ok = False
            continue
        fields.append(field)
        scope[field.name] = (
            values.spec_of(field.name, field.held)
            if field.held is not None
            else _spec(field.name, field.type, expr.Interval(field.min, field.max))
        )
    for index, p in enumerate(params):
        if not any(p.name in expr.names_used(f.start.node) for f in fields):
            b.err(
                src,
                (*path, "parameters", index, "name"),
                f"parameter {p.name!r} is not read by any field's start",
                "remove it, or start a field from it",
            )
            unread = True  # the rest is still checked: nothing reads it
    derived: list[Derived] = []
    fields_only = scope  # the fields, then the derived properties before each
    for index, d in enumerate(raw.get("derived", [])):
        dpath = (*path, "derived", index)
        if not members.add((*dpath, "name"), d["name"], "derived property name"):
            ok = False
            continue
        if d["type"] not in ("int", "bool"):
            held = values.held(b, src, dpath, d, fields_only, owned, _compile)
            assert held is None or isinstance(held, Derived)
            if held is None or held.held is None:
                ok = False
                continue
            derived.append(held)
            scope[d["name"]] = values.spec_of(d["name"], held.held)
            continue
        checked = _compile(
            b, src, (*dpath, "value"), d["value"], fields_only, "derived value"
        )
        if checked is None or not _typed(
            b, src, (*dpath, "value"), checked, d["type"], "the value"
        ):
            ok = False
            continue
        derived.append(Derived(d["name"], d["type"], checked, d.get("description")))
        scope[d["name"]] = _spec(d["name"], d["type"], checked.interval)
    if not ok:
        # the transitions read every field and property: checked once all hold
        b.examples(src, path, raw, {"actions", "create"}, roll_columns=set())
        return None
    transitions = []
    for index, t in enumerate(raw["transitions"]):
        tpath = (*path, "transitions", index)
        if not members.add((*tpath, "name"), t["name"], "transition name"):
            ok = False
            continue
        found = _transition(b, src, tpath, t, scope, {f.name: f for f in fields})
        if found is None:
            ok = False
            continue
        transitions.append(found)
    if not check_actions(b, src, path, raw, [t["name"] for t in raw["transitions"]]):
        ok = False
    examples = b.examples(src, path, raw, {"actions", "create"}, roll_columns=set())
    if not ok or unread or not shaped:
        return None
    owned += [
        p.enum
        for t in transitions
        for p in t.params
        if p.enum is not None and p.owns_enum
    ]
    owned += [p.enum for p in params if p.enum is not None and p.owns_enum]
    return RecordStateRule(
        **common,
        examples=examples,
        class_name=raw["class"],
        fields=tuple(fields),
        derived=tuple(derived),
        transitions=tuple(transitions),
        params=params,
        owned_enums=tuple(owned),
    )


def _params(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: list[dict[str, Any]],
    state: dict[str, expr.Param],
) -> tuple[Param, ...] | None:
    """A transition's parameters; None when one is wrong (reported)."""
    params: list[Param] = []
    specs: dict[str, expr.Param] = {}
    ok = True
    for index, p in enumerate(raw):
        ppath = (*path, "parameters", index)
        if p["name"] in state:
            b.err(
                src,
                (*ppath, "name"),
                f"parameter {p['name']!r} has the name of a field or property "
                "of the state",
                "choose another name: in the transition's expressions the name "
                "reads the state",
            )
            ok = False
            continue
        if p["name"] == "self":
            b.err(
                src,
                (*ppath, "name"),
                "parameter 'self' is the instance's own name",
                "choose another name",
            )
            ok = False
            continue
        param = b.param(src, ppath, p, specs)
        if param is None:
            ok = False
            continue
        params.append(param)
        specs[param.name] = param_spec(param)
    return tuple(params) if ok else None


def _transition(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    t: dict[str, Any],
    state: dict[str, expr.Param],
    fields: dict[str, RecordField],
) -> RecordTransition | None:
    params = _params(b, src, path, t.get("parameters", []), state)
    if params is None:
        return None
    scope = {**state, **{p.name: param_spec(p) for p in params}}
    ok = True
    unless = None
    if "unless" in t:
        unless = _compile(b, src, (*path, "unless"), t["unless"], scope, "unless")
        if unless is None or not _typed(
            b, src, (*path, "unless"), unless, "bool", "'unless'"
        ):
            ok = False
    lets = _lets(b, src, path, t, scope)
    if lets is None:
        return None
    with_lets = dict(scope)
    for let in lets:
        with_lets[let.name] = expr.Param(
            let.name,
            "bool" if let.checked.type == "bool" else "int",
            bound=let.checked,
        )
    sets: list[Assignment] = []
    seen: dict[str, int] = {}
    if "set" not in t:
        b.err(
            src,
            path,
            "a transition sets at least one field",
            "add set: [{name: FIELD, value: EXPRESSION}]",
        )
        ok = False
    for index, s in enumerate(t.get("set", [])):
        spath = (*path, "set", index)
        name = s["name"]
        field = fields.get(name)
        if field is None:
            b.err(
                src,
                (*spath, "name"),
                f"{name!r} is not a field of the state",
                "fields: " + ", ".join(fields),
            )
            ok = False
            continue
        if name in seen:
            b.err(
                src,
                (*spath, "name"),
                f"field {name!r} is set twice "
                f"({b.first_at(src, src, (*path, 'set', seen[name], 'name'), (*spath, 'name'))})",
                "set each field once: every value is worked out from the values before",
            )
            ok = False
            continue
        seen[name] = index
        checked = _compile(
            b, src, (*spath, "value"), s["value"], with_lets, "new value"
        )
        if checked is not None and field.held is not None:
            what = f"field {name!r}"
            checked = values.typed_value(
                b, src, (*spath, "value"), checked, field.held, what
            )
            if checked is None:
                ok = False
                continue
        elif checked is None or not _typed(
            b, src, (*spath, "value"), checked, field.type, f"field {name!r}"
        ):
            ok = False
            continue
        clamp = field.type == "int" and not _within(
            checked.interval, field.min, field.max
        )
        sets.append(Assignment(name, checked, clamp))
    nodes = [*(s.checked.node for s in sets), *([unless.node] if unless else [])]
    used = (
        b.unused_lets(src, path, t, lets, nodes)
        if "let" in t
        else set[str]().union(*(expr.names_used(n) for n in nodes))
    )
    for index, p in enumerate(params):
        if p.name not in used:
            b.err(
                src,
                (*path, "parameters", index, "name"),
                f"parameter {p.name!r} is not used by the transition",
                "remove it or use it",
            )
            ok = False
    if not ok:
        return None
    return RecordTransition(
        t["name"], params, unless, lets, tuple(sets), t["description"]
    )


def _lets(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    t: dict[str, Any],
    scope: dict[str, expr.Param],
) -> tuple[Let, ...] | None:
    """A transition's names, in order; None when one is wrong (reported)."""
    raw = t.get("let", [])
    for index, item in enumerate(raw):
        if item["name"] in scope or item["name"] == "self":
            b.err(
                src,
                (*path, "let", index, "name"),
                f"{item['name']!r} is already a name of the state or the transition",
                "choose another name",
            )
            return None
    lets, _ = b.lets(src, path, raw, scope)
    if lets is None:
        return None
    for index, let in enumerate(lets):
        dice = expr.dice_in(let.checked.node)
        if dice is not None:
            text = raw[index]["value"]
            error = expr.ExprError(
                f"a state rolls no dice: {expr.rolled_text(dice)}",
                dice.start,
                dice.end,
                "roll in a formula or a decision, and pass the result to the transition",
            )
            b.expr_error(src, (*path, "let", index, "value"), text, error, "let value")
            return None
    return lets


def lower(system: System, rule: RecordStateRule) -> ir.Unit:
    """A record state as a state of the core: its fields, derived properties
    and transitions, as the rules write them."""
    state = ir.State(
        name=rule.class_name,
        fields=tuple(
            ir.Field(
                f.name,
                "value" if f.held is not None else f.type,  # type: ignore[arg-type]
                f.start,
                f.min,
                f.max,
                f.description,
                f.held.column if f.held is not None else None,
            )
            for f in rule.fields
        ),
        derived=tuple(
            ir.Derived(
                d.name,
                "value" if d.held is not None else d.type,  # type: ignore[arg-type]
                d.checked,
                d.description,
                held=d.held.column if d.held is not None else None,
            )
            for d in rule.derived
        ),
        transitions=tuple(
            ir.Transition(
                name=t.name,
                params=t.params,
                unless=t.unless,
                binds=tuple(
                    ir.Bind(let.name, let.checked, let.description) for let in t.lets
                ),
                changes=tuple(ir.Change(s.field, s.checked, s.clamp) for s in t.sets),
                doc=t.description,
            )
            for t in rule.transitions
        ),
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        rule_id=rule.qualified_id,
        params=rule.params,
    )
    enums = tuple(
        ir.Enum(e, f"The labels of state ``{rule.class_name}``")
        for e in rule.owned_enums
    )
    return ir.Unit((*enums, state), rule.class_name)
