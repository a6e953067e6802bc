"""Samples: the inputs ``rulesc diff`` calls a rule with, before and after a change."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..front.model import RuleBase
from ..lang.py_names import py_kwargs
from .common import Input

MAX_SAMPLES = 500  # sample inputs per rule (examples' inputs always among them)
SEEDS = (1, 2, 3)  # seeds for rules that roll dice
INTS = (-5, -3, -1, 0, 1, 2, 3, 5, 10, 20)


@dataclass(frozen=True)
class Sample:
    """One call of a rule: its inputs (labels, numbers, flags), and a seed if it rolls."""

    inputs: tuple[tuple[str, Any], ...]
    seed: int | None = None

    def text(self, function: str) -> str:
        args = ", ".join(f"{k}={_literal(v)}" for k, v in self.inputs)
        seed = f" with seed {self.seed}" if self.seed is not None else ""
        return f"{function}({args}){seed}"


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return "None" if value is None else str(value)


def frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def thawed(value: Any) -> Any:
    """A value ``frozen`` made hashable, as it was (a list's items too: a
    list of records given as mappings)."""
    if (
        isinstance(value, tuple)
        and all(
            isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)
            for v in value
        )
        and value
    ):
        return {k: thawed(v) for k, v in value}
    if isinstance(value, tuple):
        return tuple(thawed(v) for v in value)
    return value


def _int_values(spec: Input, seen: set[int]) -> list[int]:
    values = set(INTS) | seen | set(spec.one_of)
    if spec.lo is not None:
        values |= {spec.lo, spec.lo + 1}
    if spec.hi is not None:
        values |= {spec.hi, spec.hi - 1}
    if isinstance(spec.default, int) and not isinstance(spec.default, bool):
        values.add(spec.default)
    return sorted(
        v
        for v in values
        if (spec.lo is None or v >= spec.lo - 1)
        and (spec.hi is None or v <= spec.hi + 1)
    )


def spread(
    rule: RuleBase,
    specs: Sequence[Input],
    *,
    ints: Iterable[int] = (),
    rolls: bool = False,
) -> list[Sample]:
    """The examples' inputs, then a spread over every parameter's values.

    ``ints`` are numbers worth trying besides the usual ones (a table's range
    ends); ``rolls`` says the rule rolls dice though no parameter is an RNG.
    """
    # the examples' arguments, by the Python names the inputs have
    example_args = [py_kwargs(dict(ex.args)) for ex in rule.examples]
    fillable = [s for s in specs if s.kind != "rng"]
    rolls = rolls or any(s.kind == "rng" for s in specs)
    choices: list[list[Any]] = []
    for spec in fillable:
        seen = [a[spec.name] for a in example_args if spec.name in a]
        if spec.kind == "choice":
            options: list[Any] = list(spec.labels) + ([None] if spec.nullable else [])
        elif spec.kind == "bool":
            options = [False, True]
        elif spec.kind == "int":
            options = _int_values(spec, {v for v in seen if type(v) is int} | set(ints))
        else:  # mappings and the like: the examples' values, or the default
            options = list(seen)
        if not spec.required and (
            spec.default not in options or spec.kind == "mapping"
        ):
            options = ["<default>", *options]
        elif not options:
            options = ["<default>"]
        choices.append(options)
    seeds: tuple[int | None, ...] = SEEDS if rolls else (None,)
    combos = list(itertools.product(*choices)) if choices else [()]
    rng = random.Random(0)
    if len(combos) * len(seeds) > MAX_SAMPLES:
        combos = rng.sample(combos, max(1, MAX_SAMPLES // len(seeds)))
    found: list[Sample] = []
    names = [s.name for s in fillable]
    for args in example_args:
        found.append(Sample(tuple((k, frozen(v)) for k, v in args.items()), seeds[0]))
    for combo in combos:
        inputs = tuple(
            (n, frozen(v))
            for n, v in zip(names, combo, strict=True)
            if v != "<default>"
        )
        if any(s.required and s.name not in dict(inputs) for s in fillable):
            continue
        found += [Sample(inputs, seed) for seed in seeds]
    unique = list(dict.fromkeys(found))
    return unique
