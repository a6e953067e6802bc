"""Shared hooks: the answers many kinds give alike (a rule that is one generated
function, a rule with nothing to simulate...), for a kind's ``KIND`` to name."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..core import calls as rule_calls
from ..front.model import (
    Column,
    EnumType,
    Example,
    Param,
    Rolls,
)
from ..lang.py_names import (
    RNG,
    field_of,
    py_kwargs,
    pyname,
)
from ..workbench.common import (
    Input,
    UsageError,
    inputs_of,
    plain,
    record_lines,
    wrap,
)
from ..workbench.context import Recorder
from ..workbench.samples import Sample, spread
from ..workbench.summary import answers_summary
from ..workbench.trace import explain_lowered
from .base import Kind

# -- build --------------------------------------------------------------------------


def builder_method(name: str) -> Callable[..., Any]:
    """A build hook that is one of the system builder's own methods: the kinds
    (table, dice, formula) whose building others share."""

    def build(
        builder: Any, src: Any, path: Any, raw: dict[str, Any], common: dict[str, Any]
    ) -> Any:
        return getattr(builder, name)(src, path, raw, common)

    return build


def no_finish(builder: Any, rules: Sequence[Any]) -> None:
    """A kind whose checks need no other rule of the system."""


def declared_enums(rule: Any) -> Sequence[EnumType]:
    """The enums a rule's model holds: its key, its parameters' own choices, and
    any other it defines (``owned_enums``)."""
    found: list[EnumType] = []
    for attr in ("enum", "mapping_enum", "kind_enum", "effect_enum", "condition_enum"):
        enum = getattr(rule, attr, None)
        if isinstance(enum, EnumType):
            found.append(enum)
    for param in getattr(rule, "params", ()):
        if param.enum is not None and param.owns_enum:
            found.append(param.enum)
    found.extend(getattr(rule, "owned_enums", ()))
    return found


# -- a rule that is one generated function ---------------------------------------------


def function_call_text(rule: Any, ex: Example) -> str:
    """``function(arg=value, ..., rng=Scripted([...]))``, then ``.field.roll(...)``
    (by the names the generated Python has)."""
    rng = f"Scripted({list(ex.dice or [])!r})"
    args = [f"{pyname(name)}={value!r}" for name, value in ex.args]
    if ex.dice is not None and ex.roll is None:
        args.append(f"{RNG}={rng}")
    text = f"{pyname(rule.function)}({', '.join(args)})"
    if ex.roll:
        text += f".{field_of(None, ex.roll)}.roll({rng})"
    return text


def run_function(module: Any, rule: Any, ex: Example, rng: Any) -> Any:
    """Call the function with the example's arguments (and its dice, when it rolls)."""
    kwargs = py_kwargs(dict(ex.args))
    if rng is not None and ex.roll is None:
        kwargs[RNG] = rng
    value = getattr(module, pyname(rule.function))(**kwargs)
    if ex.roll is not None:
        value = getattr(value, field_of(value, ex.roll)).roll(
            rng or scripted(module, [])
        )
    return value


def scripted(module: Any, dice: list[int]) -> Any:
    """The generated package's scripted RNG, rolling ``dice`` in order."""
    import importlib

    package = module.__name__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.dice").Scripted(dice)


def function_entry(rule: Any) -> str | None:
    name: str = rule.function
    return name


def function_call_name(rule: Any) -> str:
    name: str = rule.function
    return name


def call_function(
    runtime: Any, module: Any, rule: Any, kwargs: dict[str, Any], seed: int | None
) -> Any:
    """A sample's answer from the function, its RNG seeded when it rolls."""
    from ..workbench.common import inputs_of

    function = getattr(module, pyname(rule.function))
    if seed is not None:
        rng_name = next(s.name for s in inputs_of(function) if s.kind == "rng")
        kwargs = {**kwargs, rng_name: random.Random(seed)}
    return plain(function(**kwargs))


def spread_samples(rule: Any, specs: Sequence[Any]) -> list[Sample]:
    return spread(rule, specs)


def one_sample(rule: Any, specs: Sequence[Any]) -> list[Sample]:
    """A rule that takes no inputs has one answer to compare."""
    return [Sample(())]


def plain_answer(rule: Any, value: Any) -> Any:
    return plain(value)


def params_of(rule: Any) -> dict[str, Param]:
    return {p.name: p for p in rule.params}


def no_params(rule: Any) -> dict[str, Param]:
    return {}


def entry_inputs(
    entry: Callable[[Any], str | None], params: Callable[[Any], dict[str, Param]]
) -> Callable[[Any, Any], list[Input]]:
    """The inputs hook of a kind whose ``entry`` hook names the function a call
    makes: that function's parameters (none for a rule without one), described
    by the rule's parameters as its rules declare them (their bounds and
    descriptions), whether its ``params`` hook lists them for the workbench or not."""

    def inputs(rule: Any, module: Any) -> list[Input]:
        name = entry(rule)
        if name is None:
            return []
        declared: dict[str, Param] = {p.name: p for p in getattr(rule, "params", ())}
        declared.update(params(rule))
        return inputs_of(getattr(module, pyname(name)), declared)

    return inputs


def no_inputs(rule: Any, module: Any) -> None:
    """A rule whose inputs no form gives."""
    return None


def columns_of(rule: Any) -> dict[str, Column]:
    """A record's fields are the rule's columns."""
    return {c.name: c for c in rule.columns}


def no_columns(rule: Any) -> dict[str, Column]:
    return {}


# -- simulate ---------------------------------------------------------------------------


def simulate_function(rule: Any, module: Any) -> Callable[..., Any]:
    found: Callable[..., Any] = getattr(module, pyname(rule.function))
    return found


def not_runnable(rule: Any, module: Any) -> Callable[..., Any]:
    raise UsageError(
        f"{rule.qualified_id} is not a rule that can be run on its own",
        f"rulesc explain {rule.qualified_id} shows it",
    )


def record_run(
    columns: Callable[[Any], dict[str, Column]],
) -> Callable[[Any, Any, Recorder], list[str]]:
    """One run shown field by field (titled by ``columns``), then the dice rolled."""

    def lines(rule: Any, answer: Any, recorder: Recorder) -> list[str]:
        rolled = ", ".join(f"d{sides}: {value}" for sides, value in recorder.rolled)
        return [
            *record_lines(answer, columns(rule)),
            "",
            "Dice rolled, in order:",
            *wrap(rolled or "(none)"),
        ]

    return lines


def figures_summary(
    rule: Any, answers: Sequence[Any]
) -> tuple[dict[str, Any], Callable[[int], str]]:
    """Many runs: the distribution of each figure of the answers."""
    return answers_summary(answers), str


def no_rolls(rule: Any) -> Rolls | None:
    """A rule with no function of its own that rolls dice."""
    return None


def no_entry(rule: Any) -> str | None:
    """A rule that takes no inputs."""
    return None


def not_in_scope(rule: Any) -> None:
    """A rule expressions do not read or call."""
    return None


# -- how a rule is called, in the rules' names ----------------------------------------


def function_call(
    module: Any, rule: Any, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """The call of the rule's generated function (compiler/core/calls.py)."""
    function = getattr(module, pyname(rule.function))
    return rule_calls.function_call(function, rule.function, args, rolls, roll)


def constant_call(
    module: Any, rule: Any, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A rule that is a constant of the module (``rule.constant``)."""
    return rule_calls.constant_call(rule.constant, roll)


def rolled_constant_call(
    module: Any, rule: Any, args: dict[str, Any], rolls: bool, roll: str | None
) -> dict[str, Any]:
    """A rule that is a constant of the module which rolls itself (a ``roll``
    method), rolled when the call rolls (as a worked example does)."""
    call = rule_calls.constant_call(rule.constant, None)
    if rolls:
        call["then"] = [rule_calls.roll_step()]
    return call


def make_kind(**fields: Any) -> Kind:
    """A kind whose rules are each one generated function: the shared hooks of
    such a rule, with ``fields`` naming the kind, its ``lower`` (which every
    kind gives) and any hook it has its own of."""
    defaults: dict[str, Any] = {
        "runtime": (),
        "js_runtime": (),
        "callable": False,
        "call": function_call,
        "finish": no_finish,
        "enums": declared_enums,
        "scope": not_in_scope,
        "call_text": function_call_text,
        "run_example": run_function,
        "plain": plain_answer,
        "params": no_params,
        "columns": no_columns,
        "entry": function_entry,
        "call_name": function_call_name,
        "samples": spread_samples,
        "sample_answer": call_function,
        "simulate": simulate_function,
        "rolls": no_rolls,
        "summary": figures_summary,
    }
    # explain: the core's tracing interpreter, over the rule lowered (every
    # kind gives ``lower``: the core's emitters print every target)
    defaults["explain"] = functools.partial(explain_lowered, lower=fields["lower"])
    merged = defaults | fields
    merged.setdefault("run_lines", record_run(merged["columns"]))
    merged.setdefault("inputs", entry_inputs(merged["entry"], merged["params"]))
    return Kind(**merged)


# -- a kind generated as one constant (facts, die): its hooks ---------------------


def constant_name(rule: Any) -> str:
    """The constant's name (UPPER_CASE, as the rule gives it)."""
    return str(rule.constant)


def constant_call_text(rule: Any, ex: Example) -> str:
    """A worked example of a constant reads it."""
    return pyname(rule.constant)


def constant_value(module: Any, rule: Any, ex: Example, rng: Any) -> Any:
    """The constant, read from the built module."""
    return getattr(module, pyname(rule.constant))


def constant_sample(
    runtime: Any, module: Any, rule: Any, kwargs: dict[str, Any], seed: int | None
) -> Any:
    """The constant as JSON holds it."""
    return plain(getattr(module, pyname(rule.constant)))
