"""A state in JavaScript: a LevelState subclass with its ladder, transitions and flags."""

from __future__ import annotations

from typing import Any

from ...js_kit import View, doc, js, js_string, where
from ...js_naming import camel
from ...js_plan import call_step, fields_step, instance_plan
from ...kinds.state.model import StateRule, StateTransition
from ...model import System
from ...naming import private_constant

_CHECKED = "$state.LevelState.$checked"


def _method(rule: StateRule, t: StateTransition) -> View:
    ceiling = len(rule.effects)
    view: View = {
        "name": camel(t.name),
        "params": "",
        "ts": "",
        "doc": doc(f"{t.description} Answers the new level.", "  "),
    }
    param = camel(t.param) if t.param is not None else None
    if t.step is not None:
        sign = "" if t.step == "up" else "-"
        if param is None:
            return view | {"lines": [f"return this.$move({sign}{js(t.by)});"]}
        optional = t.default is not None
        check = f"{_CHECKED}({param}, {js_string(param)}, 1, {js(t.max)})"
        return view | {
            "params": param + (f" = {js(t.default)}" if optional else ""),
            "ts": f"{param}{'?' * optional}: number",
            "lines": [f"{param} = {check};", f"return this.$move({sign}{param});"],
        }
    if t.to == "param":
        assert param is not None
        check = (
            f"{_CHECKED}({param}, {js_string(param)}, {js(rule.floor)}, {js(ceiling)})"
        )
        return view | {
            "params": param,
            "ts": f"{param}: number",
            "lines": [f"return this.$set({check});"],
        }
    level = rule.floor if t.to == "floor" else ceiling
    return view | {"lines": [f"return this.$set({js(level)});"]}


def js_view(system: System, rule: StateRule) -> View:
    return {
        "class_name": rule.class_name,
        "effects_name": private_constant(rule.id, "effects"),
        "effects": [js_string(e) for e in rule.effects],
        "floor": js(rule.floor),
        "ceiling": js(len(rule.effects)),
        "cumulative": js(rule.cumulative),
        "methods": [_method(rule, t) for t in rule.transitions],
        "flags": [
            {
                "name": camel(f.name),
                "level": js(f.from_level),
                "doc": doc(f"{f.description} (From level {f.from_level}.)", "  "),
            }
            for f in rule.flags
        ],
        "doc": doc(
            f"{rule.title}.\n\n{rule.summary}\n\n{where(rule)} Each instance holds one "
            f"subject's level, {rule.floor} to {len(rule.effects)}; "
            "transitions stop at the floor and the ceiling."
        ),
    }


def js_plan(
    module: Any, rule: StateRule, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A state (at the example's level), its actions made in order; answered as
    its level, effects and flags."""
    cls = getattr(module, rule.class_name)
    start = {"level": args["level"]} if "level" in args else {}
    steps = []
    for action in args.get("actions", ()):
        if isinstance(action, str):
            steps.append(call_step(cls, action, {}))
        else:
            ((name, kwargs),) = action.items()
            steps.append(call_step(cls, name, dict(kwargs or {})))
    names = ["level", "effects", *(f.name for f in rule.flags)]
    return instance_plan(cls, start, [*steps, fields_step(names)])
