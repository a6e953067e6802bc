"""Explain context: what every kind's explain hook writes with (inputs, dice, sections)."""

from __future__ import annotations

import argparse
import copy
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..front.model import (
    Loc,
    Rule,
    System,
)
from ..lang import expr
from ..lang.evaluate import Values
from ..lang.py_names import (
    py_kwargs,
    pyattr,
    pyname,
)
from .common import (
    Input,
    UsageError,
    inputs_of,
    plain,
    read_inputs,
    record_lines,
    show,
    wrap,
)
from .usage import whole_number

if TYPE_CHECKING:
    from ..kinds.base import Kind


class Workspace(Protocol):
    """What an explanation reads of the rules built (a ``workspace.Workspace``,
    which builds them with the kinds, so this module, which the kinds use, does
    not import it)."""

    def raw(self, rule: Rule) -> tuple[Any, tuple[str | int, ...]]: ...

    def where(self, rule: Rule, *path: str | int) -> str: ...


class Runtime(Protocol):
    """What an explanation uses of the generated runtime (a ``workspace.Runtime``)."""

    @property
    def dice(self) -> Any: ...

    @property
    def input_error(self) -> type[Exception]: ...


class Recorder:
    """An RNG (seeded or scripted) that remembers each die it rolled."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng
        self.rolled: list[tuple[int, int]] = []

    def randint(self, a: int, b: int, /) -> int:
        value: int = self.rng.randint(a, b)
        self.rolled.append((b, value))
        return value


def make_rng(args: argparse.Namespace, runtime: Runtime) -> tuple[Recorder, str]:
    """The dice for a rule that rolls: scripted (--dice), seeded, or a fresh seed."""
    if getattr(args, "dice", None):
        try:
            results = [
                whole_number(x, "--dice")
                for x in str(args.dice).replace(" ", "").split(",")
                if x
            ]
        except UsageError as exc:
            raise UsageError(
                f"--dice takes whole numbers separated by commas, not {args.dice!r}",
                exc.message,
            ) from None
        return Recorder(runtime.dice.Scripted(results)), f"scripted dice {results}"
    seed = (
        args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    )
    how = f"seed {seed}" + (
        "" if args.seed is not None else f" (--seed {seed} repeats it)"
    )
    return Recorder(random.Random(seed)), how


class Explanation:
    """The lines of one explanation, in sections."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def section(self, title: str, body: list[str]) -> None:
        if body:
            self.lines += ["", title, *body]

    def text(self) -> str:
        return "\n".join(self.lines)


class Context:
    """One explanation being made: the rule, its kind, the runtime, the command's
    arguments, and the sections written so far."""

    def __init__(
        self,
        ws: Workspace,
        system: System,
        rule: Rule,
        kind: Kind,
        runtime: Runtime,
        module: Any,
        args: argparse.Namespace,
        out: Explanation,
    ) -> None:
        self.ws, self.system, self.rule, self.kind = ws, system, rule, kind
        self.runtime, self.module, self.args, self.out = runtime, module, args, out
        self.given: dict[str, Any] = {}  # the inputs read, once they are

    def function(self, name: str | None = None) -> Callable[..., Any]:
        """The generated function ``name`` (the rules' name; the rule's own
        function by default)."""
        found: Callable[..., Any] = getattr(
            self.module, pyname(name or str(getattr(self.rule, "function", "")))
        )
        return found

    def inputs(
        self, function: Callable[..., Any]
    ) -> tuple[list[Input], dict[str, Any]]:
        specs = inputs_of(function, self.kind.params(self.rule))
        self.given = read_inputs(specs, self.args.inputs)
        return specs, self.given

    def call(
        self, function: Callable[..., Any], given: Mapping[str, Any], specs: list[Input]
    ) -> Any:
        """The runtime's answer; a refusal is a usage error naming the valid inputs."""
        refused, answer = self.attempt(function, given, specs)
        if refused is not None:
            raise UsageError(
                f"{self.rule.qualified_id} refuses these inputs: {refused}"
            )
        return answer

    def attempt(
        self, function: Callable[..., Any], given: Mapping[str, Any], specs: list[Input]
    ) -> tuple[str | None, Any]:
        """The runtime's answer (with the dice the command asks for, when the
        function rolls), or why it refuses the inputs: (refusal, answer)."""
        kwargs = dict(given)
        rng_specs = [s for s in specs if s.kind == "rng"]
        if rng_specs:
            rng, how = make_rng(self.args, self.runtime)
            kwargs[rng_specs[0].name] = rng
            self.rng: Recorder | None = rng
            self.rng_how = how
        else:
            self.rng = None
        try:
            return None, function(**kwargs)
        except self.runtime.input_error as exc:
            return str(exc), None

    def show_inputs(self, specs: list[Input], given: Mapping[str, Any]) -> None:
        rows = []
        for spec in specs:
            if spec.kind == "rng":
                continue
            if spec.name in given:
                value, note = given[spec.name], ""
            else:
                value, note = spec.default, " (default)"
            rows.append((spec.name, input_text(value) + note, spec.description or ""))
        if not rows:
            self.out.section("Inputs", ["  (none)"])
            return
        name_w = max(len(r[0]) for r in rows)
        value_w = min(max(len(r[1]) for r in rows), 30)
        self.out.section(
            "Inputs",
            [
                f"  {n.ljust(name_w)}   {v.ljust(value_w)}   {d}".rstrip()
                for n, v, d in rows
            ],
        )

    def dice_rolled(self) -> None:
        if self.rng is None:
            return
        rolled = ", ".join(f"d{sides}: {value}" for sides, value in self.rng.rolled)
        self.out.section(
            f"Dice ({self.rng_how})", wrap(rolled or "no dice were rolled")
        )


def input_text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return show(value)


def at(loc: Loc) -> str:
    return f"{loc.file}:{loc.line}"


def explain_answer(ctx: Context) -> None:
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    ctx.dice_rolled()
    ctx.out.section("Answer", record_lines(answer, ctx.kind.columns(ctx.rule)))


def agree(ctx: Context, reference: Any, answer: Any) -> None:
    if plain(reference) != plain(answer):
        ctx.out.section(
            "WARNING",
            wrap(
                f"the steps above give {reference!r} but the generated runtime answers "
                f"{plain(answer)!r}: this is a bug in rulesc, please report it"
            ),
        )


def runtime_values(ctx: Context) -> Values:
    """How the reference evaluator makes states, and changes them, in the
    workbench: as the generated runtime's (a record is a dict of its fields,
    which the runtime takes for one)."""
    module = ctx.module

    def make(node: expr.Construct, args: list[Any]) -> Any:
        if not node.state:
            return dict(zip(node.fields, args, strict=True))
        kind = getattr(module, pyname(node.record))
        return kind(**{pyname(n): v for n, v in zip(node.fields, args, strict=True)})

    def method(node: expr.Method, state: Any, args: list[Any]) -> Any:
        after = copy.copy(state)
        named = {pyname(p): v for p, v in zip(node.params, args, strict=True)}
        getattr(after, pyattr(node.name, "mutable"))(**named)
        return after

    return Values(make, method)


def functions_called(ctx: Context, node: expr.Node) -> dict[str, Callable[..., Any]]:
    """The generated functions of the rules an expression calls."""
    return {
        name: _by_rules_names(ctx.function(name)) for name in expr.rules_called(node)
    }


def _by_rules_names(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, taking its keyword arguments by the rules' names."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **py_kwargs(kwargs))

    return call
