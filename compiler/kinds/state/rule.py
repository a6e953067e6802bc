"""state: a level on a ladder, each level with an effect, moved by named transitions."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.exprs import checked
from ...core.ir import Change, Derived, Field, Grid, Prose, State, Transition, Unit
from ...core.viewkit import where_doc
from ...front.model import (
    Example,
    Param,
    System,
)
from ...kinds.state.model import StateFlag, StateRule, StateTransition
from ...lang.expr import Checked
from ...lang.py_names import (
    field_of,
    py_kwargs,
    pyname,
)

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def _called(action: object) -> str | None:
    """The transition an example's action calls, or None when it is neither a
    name nor one name with a mapping of its arguments (or nothing)."""
    if isinstance(action, str):
        return action
    if isinstance(action, dict) and len(action) == 1:
        ((name, args),) = action.items()
        if isinstance(args, dict | None):
            return str(name)
    return None


# The names a ladder's state has of its own, besides its flags and transitions:
# its level and what that level means (each target spells them alike).
OWN_MEMBERS = ("level", "effects")


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> StateRule | None:
    b.claim(src, (*path, "class"), raw["class"], "state class")
    ok = True
    effects = tuple(level["effect"] for level in raw["levels"])
    ceiling = len(effects)
    floor = raw.get("floor", 0)
    if floor > ceiling:
        b.err(src, (*path, "floor"), f"floor {floor} is above the top level, {ceiling}")
        ok = False
    # the state's own names (a name either target has already is spelt
    # otherwise there: py_names, js_naming)
    members = set(OWN_MEMBERS)
    transitions = []
    for index, t in enumerate(raw["transitions"]):
        tpath = (*path, "transitions", index)
        name = t["name"]
        if not b.local_name(src, (*tpath, "name"), name, "transition name"):
            ok = False
        elif name in members:
            b.err(
                src,
                (*tpath, "name"),
                f"{name!r} is already a member of the state class",
                "choose another name",
            )
            ok = False
        members.add(name)
        if ("step" in t) == ("to" in t):
            b.err(src, tpath, "a transition has exactly one of 'step' and 'to'")
            ok = False
            continue
        by = t.get("by", 1 if "step" in t else None)
        if "by" in t and "step" not in t:
            b.err(src, (*tpath, "by"), "'by' goes with 'step'", key=True)
            ok = False
        param = default = most = None
        fixed: int | None = None
        to = t.get("to")
        if isinstance(by, dict):
            param, default, most = (
                by["param"],
                by.get("default"),
                by.get("max", ceiling),
            )
            if default is not None and default > most:
                b.err(
                    src,
                    (*tpath, "by", "default"),
                    f"default {default} is above the largest allowed, {most}",
                )
                ok = False
        else:
            fixed = by
        if isinstance(to, dict):
            param, to = to["param"], "param"
        if param is not None and not b.local_name(src, tpath, param, "parameter name"):
            ok = False
        transitions.append(
            StateTransition(
                name, t.get("step"), to, fixed, param, default, most, t["description"]
            )
        )
    flags = []
    for index, f in enumerate(raw.get("flags", [])):
        fpath = (*path, "flags", index)
        if not b.local_name(src, (*fpath, "name"), f["name"], "flag name"):
            ok = False
        elif f["name"] in members:
            b.err(
                src,
                (*fpath, "name"),
                f"{f['name']!r} is already a member of the state class",
                "choose another name",
            )
            ok = False
        members.add(f["name"])
        if f["from_level"] > ceiling:
            b.err(
                src,
                (*fpath, "from_level"),
                f"level {f['from_level']} is above the top level, {ceiling}",
            )
            ok = False
        flags.append(StateFlag(f["name"], f["from_level"], f["description"]))
    if not check_actions(b, src, path, raw, [t.name for t in transitions]):
        ok = False
    examples = b.examples(src, path, raw, {"actions", "level"}, roll_columns=set())
    if not ok:
        return None
    return StateRule(
        **common,
        examples=examples,
        class_name=raw["class"],
        effects=effects,
        floor=floor,
        cumulative=raw.get("cumulative", True),
        transitions=tuple(transitions),
        flags=tuple(flags),
    )


def check_actions(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any], names: list[str]
) -> bool:
    """Whether every action of the examples calls a transition of the state
    (else the errors, at the actions)."""
    ok = True
    first = names[0] if names else "NAME"
    hint = f"write e.g. actions: [{first}, {{{first}: {{ARGUMENT: VALUE}}}}]"
    for index, ex in enumerate(raw.get("examples", [])):
        apath = (*path, "examples", index, "args", "actions")
        actions = ex.get("args", {}).get("actions", [])
        if not isinstance(actions, list):
            b.err(src, apath, "actions is a list of transitions", hint)
            ok = False
            continue
        for a, action in enumerate(actions):
            called = _called(action)
            if called is None:
                b.err(
                    src,
                    (*apath, a),
                    "an action is a transition's name, or one transition with "
                    "its arguments by name",
                    hint,
                )
                ok = False
            elif called not in names:
                b.err(
                    src,
                    (*apath, a, called) if isinstance(action, dict) else (*apath, a),
                    f"{called!r} is not a transition of this state",
                    _transition_hint(called, names),
                    key=isinstance(action, dict),
                )
                ok = False
    return ok


def call_text(rule: StateRule, ex: Example) -> str:
    """An example as the statements a reader would write."""
    args = dict(ex.args)
    made = args.get("create") or {}
    start = ", ".join(f"{pyname(k)}={v!r}" for k, v in made.items())
    start = f"level={args['level']!r}" if "level" in args else start
    lines = [f"state = {pyname(rule.class_name)}({start})"]
    for action in args.get("actions", []):
        if isinstance(action, str):
            lines.append(f"state.{field_of(0, action)}()")
        else:
            ((name, kwargs),) = action.items()
            call = ", ".join(f"{pyname(k)}={v!r}" for k, v in (kwargs or {}).items())
            lines.append(f"state.{field_of(0, name)}({call})")
    return "; ".join([*lines, "state"])


def run(module: Any, rule: StateRule, ex: Example, rng: Any) -> Any:
    """Run an example: make the state, apply its actions in order, answer the state."""
    args = dict(ex.args)
    made = py_kwargs(dict(args.get("create") or {}))
    state = getattr(module, pyname(rule.class_name))(
        *([args["level"]] if "level" in args else []), **made
    )
    for action in args.get("actions", []):
        if isinstance(action, str):
            getattr(state, field_of(state, action))()
        else:
            ((name, kwargs),) = action.items()
            getattr(state, field_of(state, name))(**py_kwargs(kwargs or {}))
    return state


def _transition_hint(called: str, names: set[str] | list[str]) -> str:
    """Did you mean the closest transition? Else all of them."""
    close = difflib.get_close_matches(called, sorted(names), n=1)
    if close:
        return f"did you mean {close[0]!r}?"
    return "transitions: " + ", ".join(sorted(names))


def lower(system: System, rule: StateRule) -> Unit:
    """A ladder as a state of the core: one field, the level (a new state
    takes it, the floor by default); its effects and flags derived from it;
    each transition a change of the level, answering the new one."""
    floor, ceiling = rule.floor, len(rule.effects)
    start = Param(
        "level",
        "int",
        floor,
        ceiling,
        floor,
        True,
        "The level the subject starts at.",
        None,
    )
    level = Param("level", "int", floor, ceiling, None, False, "", None)
    field = Field(
        "level",
        "int",
        checked("level", (start,)),
        floor,
        ceiling,
        "The current level (0: none).",
    )

    def c(text: str, *params: Param, texts: tuple[str, ...] = ()) -> Checked:
        return checked(text, (level, *params), (), texts)

    derived = (
        Derived(
            "effects",
            "texts",
            c(_effects_text(rule), texts=rule.effects),
            "What the current level means, lowest level first.",
        ),
        *(
            Derived(f.name, "bool", c(f"level >= {f.from_level}"), f.description)
            for f in rule.flags
        ),
    )
    transitions = tuple(_transition(rule, t, c) for t in rule.transitions)
    state = State(
        name=rule.class_name,
        fields=(field,),
        derived=derived,
        transitions=transitions,
        doc=f"{rule.title}.\n\n{rule.summary}",
        origin=where_doc(rule),
        rule_id=rule.qualified_id,
        params=(start,),
        shown=("effects",),
    )
    which = (
        "every level's effect up to the current one applies, lowest first (they "
        "are cumulative)"
        if rule.cumulative
        else "only the current level's effect applies"
    )
    page = (
        Prose(
            f"A subject's level runs from {floor} to {ceiling}, 0 meaning none; "
            f"{which}."
        ),
        Grid(
            ("Level", "Effect"),
            tuple((str(i), effect) for i, effect in enumerate(rule.effects, 1)),
        ),
    )
    return Unit((state,), rule.class_name, page)


def _effects_text(rule: StateRule) -> str:
    """The effects of the level, as an expression of it (each text a ``{n}``
    of the rules' own, put in as it is): each level's effect from that level
    up where they are cumulative, else only the current level's."""
    floor, ceiling = rule.floor, len(rule.effects)
    levels = range(max(floor, 1), ceiling + 1)
    if rule.cumulative:
        return " + ".join(f"([{{{n - 1}}}] if level >= {n} else [])" for n in levels)
    text = "[]"
    for n in levels:
        text = f"[{{{n - 1}}}] if level == {n} else {text}"
    return text


def _transition(
    rule: StateRule, t: StateTransition, c: Callable[..., Checked]
) -> Transition:
    floor, ceiling = rule.floor, len(rule.effects)
    params: tuple[Param, ...] = ()
    if t.step is not None:
        amount = str(t.by)
        if t.param is not None:
            way = "up" if t.step == "up" else "down"
            amount = t.param
            params = (
                Param(
                    t.param,
                    "int",
                    1,
                    t.max,
                    t.default,
                    t.default is not None,
                    f"How many levels to move {way}.",
                    None,
                ),
            )
        value = (
            f"min(level + {amount}, {ceiling})"
            if t.step == "up"
            else f"max(level - {amount}, {floor})"
        )
    elif t.to == "param":
        assert t.param is not None
        params = (
            Param(
                t.param,
                "int",
                floor,
                ceiling,
                None,
                False,
                "The level to move to.",
                None,
            ),
        )
        value = t.param
    else:
        value = str(floor if t.to == "floor" else ceiling)
    return Transition(
        name=t.name,
        params=params,
        unless=None,
        binds=(),
        changes=(Change("level", c(value, *params), clamp=False),),
        doc=t.description,
        answers="level",
    )
