"""A record state in the workbench: ``rulesc explain`` (transitions given as
NAME, or NAME=N for one that takes one number), rulesc diff's samples and answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...front.model import Param
from ...kinds.state.record import lower
from ...kinds.state.record_model import RecordStateRule
from ...kinds.state.workbench import transition_word
from ...lang.py_names import (
    field_of,
    py_kwargs,
    pyname,
)
from ...workbench.common import Input, UsageError, show
from ...workbench.context import Context
from ...workbench.samples import Sample, frozen, thawed
from ...workbench.trace import traced_call
from ...workbench.usage import whole_number


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, RecordStateRule)
    made = {p.name: p for p in rule.params}
    given = [w for w in ctx.args.inputs if w.partition("=")[0] in made]
    words = [w for w in ctx.args.inputs if w not in given]
    kwargs = {
        pyname(w.partition("=")[0]): _value(
            made[w.partition("=")[0]], w.partition("=")[2]
        )
        for w in given
    }
    try:
        state = getattr(ctx.module, pyname(rule.class_name))(**kwargs)
    except (ctx.runtime.input_error, TypeError) as exc:
        raise UsageError(f"{rule.qualified_id} is not made so: {exc}") from None
    names = {t.name: t for t in rule.transitions}
    unit = lower(ctx.system, rule)
    lines = []
    for word in words:
        name, amount, transition = transition_word(rule.qualified_id, names, word)
        given_args = amount.split(",") if amount else []
        if len(given_args) != len(transition.params):
            wanted = ",".join(p.name.upper() for p in transition.params)
            raise UsageError(
                f"{name} takes {len(transition.params)} argument(s): "
                + (f"{name}={wanted}" if wanted else name)
            )
        args = {
            p.name: _value(p, text)
            for p, text in zip(transition.params, given_args, strict=True)
        }
        try:
            _, steps = traced_call(ctx, unit, name, state, args)
        except ctx.runtime.input_error as exc:
            raise UsageError(f"{rule.qualified_id} refuses {word}: {exc}") from None
        lines.append(f"  {word}: " + _fields(rule, state))
        lines += [f"  {line}" for line in steps]
    ctx.out.section("Transitions, in order", lines or ["  (none given)"])
    body = [
        f"  {f.name}: {show(getattr(state, field_of(state, f.name)))}"
        for f in rule.fields
    ]
    body += [
        f"  {d.name}: {show(getattr(state, field_of(state, d.name)))}"
        for d in rule.derived
    ]
    ctx.out.section("State", body)


def _value(param: Param, text: str) -> Any:
    """An argument written on the command line: a whole number, a flag, a
    label or a text (a list, a record or a state is none of those)."""
    if param.type == "int":
        return whole_number(text, param.name)
    if param.type == "bool":
        return text.strip().casefold() in ("true", "yes", "1")
    if param.type in ("choice", "text"):
        return text.strip()
    raise UsageError(f"{param.name} cannot be given on the command line")


def _fields(rule: RecordStateRule, state: Any) -> str:
    return ", ".join(
        f"{f.name} {show(getattr(state, field_of(state, f.name)))}" for f in rule.fields
    )


def _sample(param: Param) -> Any:
    """A value to try an argument at: a whole number at its highest (lowest
    where unbounded above; 0 where unbounded), true for a flag, a choice's
    first label, a text; None where there is none to make (a list, a record)."""
    if param.type == "bool":
        return True
    if param.type == "int":
        return param.max if param.max is not None else param.min or 0
    if param.type == "choice" and param.enum is not None:
        return param.enum.members[0].label
    if param.type == "text":
        return "x"
    return None


def _calls(rule: RecordStateRule) -> list[Any]:
    """An action of each transition: its arguments at ``_sample``'s values
    (none of a transition that takes a list, a record or a state)."""
    calls: list[Any] = []
    for t in rule.transitions:
        args = {p.name: _sample(p) for p in t.params}
        if any(v is None for v in args.values()):
            continue
        # frozen, as a sample's inputs are: ((name, ((argument, value), ...)),)
        calls.append(((t.name, tuple(args.items())),) if args else t.name)
    return calls


def action(item: Any) -> tuple[str, dict[str, Any]]:
    """An action (a name, a name with its arguments, or that frozen) as the
    transition's name and its arguments by name."""
    if isinstance(item, str):
        return item, {}
    if isinstance(item, tuple):
        item = thawed(item)
    ((name, kwargs),) = item.items()
    return str(name), dict(kwargs or {})


def samples(rule: RecordStateRule, specs: Sequence[Input]) -> list[Sample]:
    """Each transition once and five times, then each pair in turn, of a new
    state made as its first worked example makes it (else with each
    parameter's default or ``_sample``'s value)."""
    calls = _calls(rule)
    made = _made(rule)
    moves = [Sample((*made, ("actions", ())))]
    moves += [Sample((*made, ("actions", (c,) * k))) for c in calls for k in (1, 5)]
    moves += [
        Sample((*made, ("actions", (a,) * 5 + (b,))))
        for a in calls
        for b in calls
        if a is not b
    ]
    return moves


def _made(rule: RecordStateRule) -> tuple[tuple[str, Any], ...]:
    """The sample's ``create`` (none for a state that takes no argument)."""
    if not rule.params:
        return ()
    given = next(
        (dict(ex.args)["create"] for ex in rule.examples if "create" in dict(ex.args)),
        None,
    )
    if given is None:
        given = {
            p.name: p.default if p.has_default else _sample(p) for p in rule.params
        }
    return (("create", frozen(given)),)


def state_plain(rule: RecordStateRule, state: Any) -> Any:
    """A state as plain JSON: its fields and derived properties."""
    return {
        **{f.name: getattr(state, field_of(state, f.name)) for f in rule.fields},
        **{d.name: getattr(state, field_of(state, d.name)) for d in rule.derived},
    }


def sample_answer(
    runtime: Any,
    module: Any,
    rule: RecordStateRule,
    kwargs: dict[str, Any],
    seed: int | None,
) -> Any:
    made = py_kwargs(dict(kwargs.get("create") or {}))
    state = getattr(module, pyname(rule.class_name))(**made)
    for item in kwargs.get("actions", ()):
        name, args = action(item)
        getattr(state, field_of(state, name))(**args)
    return state_plain(rule, state)
