"""Conformance kit: a system's calls with the Python runtime's answers, as data any runtime's port runs.

``generated/conformance/<system>.json`` holds, for each rule every runtime has
(its id, as in rules.json): every worked example, every input ``rulesc diff``
samples (refusals among them), seeded runs of a rule that rolls, and the odds
at each worked example's arguments. Each case names its call by the rules' own
names (never a language's spelling of them), its inputs, its scripted dice or
seed, and the exact JSON the answer is (the runtimes' ``to_data``), or the
refusal (its error class and message, the names in it the rules' own and
values in JSON's words). The guide on rules.json documents the format.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import re
from collections.abc import Callable, Collection, Iterable
from types import ModuleType
from typing import Any

from ...common import json_text
from ...core.calls import function_call
from ...front.model import System
from ...lang.py_names import (
    pyattr,
    pyname,
    rules_name,
)
from ...workbench.common import inputs_of
from ...workbench.samples import thawed
from ..markdown.odds_pages import odds_name_of
from ..python.calls import run_call

SEEDED_RUNS = 20  # seeded runs of a rule that rolls, beyond its samples' own seeds
Case = dict[str, Any]


def kit_text(
    system: System,
    module: ModuleType,
    ported: Collection[str],
    kind_of: Callable[[Any], Any],
) -> str:
    """The kit of ``system`` (its rules in ``ported``: those every runtime has),
    answered by its generated Python ``module``; ``kind_of`` gives a rule's
    hooks (how it is called and sampled), the kinds being the caller's."""
    run = KitCases(system, module, kind_of)
    cases: list[Case] = []
    for rule in system.rules:
        if rule.qualified_id in ported:
            cases += rule_cases(run, rule)
    doc = {
        "@generated": "by rulesc - DO NOT EDIT",
        "system": system.id,
        "names": sorted(run.names),
        "cases": [],
    }
    return kit_json(doc, cases)


def kit_json(doc: dict[str, Any], cases: list[Case]) -> str:
    """The kit's text: its head as indented JSON, then its cases one a line
    (a kit holds thousands: a line each keeps it small and its diffs a case
    each)."""
    head = json_text.dumps(doc).removesuffix("[]\n}")
    lines = ",\n".join(
        "    " + json.dumps(case, ensure_ascii=False, separators=(",", ":"))
        for case in cases
    )
    return f"{head}[\n{lines}\n  ]\n}}\n" if cases else f"{head}[]\n}}\n"


def rule_cases(run: KitCases, rule: Any) -> list[Case]:
    """A rule's cases: its examples, its samples and seeded runs, its odds."""
    return [*_examples(run, rule), *_samples(run, rule), *_odds(run, rule)]


# -- the calls ------------------------------------------------------------------------


def _examples(run: KitCases, rule: Any) -> list[Case]:
    kind = run.kind_of(rule)
    found = []
    for ex in rule.examples:
        rolls = ex.dice is not None and ex.roll is None
        call = kind.call(run.module, rule, dict(ex.args), rolls, ex.roll)
        dice = list(ex.dice) if ex.dice is not None else None
        case = run.case(rule, f"example {ex.name}", call, dice=dice)
        found.append(case)
    return found


def _samples(run: KitCases, rule: Any) -> list[Case]:
    """The inputs ``rulesc diff`` compares a rule on; and, for a rule that
    rolls, seeded runs of its first input that it does not refuse."""
    kind = run.kind_of(rule)
    entry = kind.entry(rule)
    specs = (
        []
        if entry is None
        else inputs_of(getattr(run.module, pyname(entry)), kind.params(rule))
    )
    found: list[Case] = []
    seeded = []
    for index, sample in enumerate(kind.samples(rule, specs)):
        kwargs = {rules_name(k): thawed(v) for k, v in sample.inputs}
        call = kind.call(run.module, rule, kwargs, sample.seed is not None, None)
        found.append(run.case(rule, f"sample {index}", call, seed=sample.seed))
        if sample.seed is not None:
            seeded.append((call, "refusal" in found[-1]))
    if seeded:
        call = next((c for c, refused in seeded if not refused), seeded[0][0])
        for seed in range(1, SEEDED_RUNS + 1):
            found.append(run.case(rule, f"seed {seed}", call, seed=seed))
    return found


def _odds(run: KitCases, rule: Any) -> list[Case]:
    """The odds (a rule's odds function) at the arguments of each worked
    example, each set of arguments once (not of an example rolling a dice
    field of the answer: the odds are of the call's own dice)."""
    name = odds_name_of(rule, run.module)
    if name is None:
        return []
    function = getattr(run.module, pyname(name))
    found: list[Case] = []
    seen: list[dict[str, Any]] = []
    for ex in rule.examples:
        args = dict(ex.args)
        if ex.roll is not None or args in seen:
            continue
        seen.append(args)
        call = function_call(function, name, args, False, None)
        found.append(run.case(rule, f"odds of example {ex.name}", call))
    return found


class KitCases:
    """Cases of one system, answered by its generated Python module."""

    def __init__(
        self, system: System, module: ModuleType, kind_of: Callable[[Any], Any]
    ) -> None:
        self.system = system
        self.kind_of = kind_of
        self.module = module
        package = module.__name__.rsplit(".", 1)[0]
        self.errors = importlib.import_module(f"{package}.errors")
        self.json = importlib.import_module(f"{package}.json")
        self.scripted = importlib.import_module(f"{package}.dice").Scripted
        self.data = rule_texts(system.rules, set())
        self.names = {n.name for n in system.names}
        self.spelt = python_spellings(
            self.names
        )  # Python's spellings, to the rules' names
        self.spelt_names = set(self.names)

    def case(
        self,
        rule: Any,
        what: str,
        made: dict[str, Any],
        *,
        dice: list[int] | None = None,
        seed: int | None = None,
    ) -> Case:
        """One case: the call ``made`` (a kind's, compiler/core/calls.py)
        with its dice or seed, and its answer."""
        call = kit_call(made)
        case: Case = {"rule": rule.qualified_id, "case": what, "call": call}
        rng: Any = None
        if dice is not None:
            case["dice"] = dice
            rng = self.scripted(list(dice))
        elif seed is not None:
            case["seed"] = seed
            rng = random.Random(seed)
        try:
            value = run_call(self.module, made, rng)
        except self.errors.RuleInputError as exc:
            params = _arg_names(call)
            self.names.update(params)
            case["refusal"] = {
                "error": type(exc).__name__,
                "message": self.words(str(exc), params),
            }
            return case
        case["answer"] = self.json.to_data(value)
        return case

    def words(self, message: str, params: Iterable[str]) -> str:
        """A refusal's message as the kit words it: a message the rules give
        (data) as it is; else the rules' names for Python's, JSON's words for
        its values."""
        if message in self.data:
            return message
        for name in set(params) - self.spelt_names:
            for code, word in python_spellings([name]).items():
                self.spelt.setdefault(code, word)
            self.spelt_names.add(name)
        return neutral_message(message, self.spelt)


# -- the kit's form of a call ---------------------------------------------------------


def kit_call(call: dict[str, Any]) -> dict[str, Any]:
    """A kind's call (compiler/core/calls.py), or a step of one, as the kit
    writes it: what a port calls (a ``function``, a ``class`` it constructs, or
    a ``constant``), its arguments (a value as plain JSON; one left out,
    ``skip``, unnamed) and the steps taken on the answer."""
    found = dict(call)
    if "args" in call:
        found["args"] = _args(call["args"])
    if "each" in call:
        found["each"] = [_args(items) for items in call["each"]]
    if "then" in call:
        found["then"] = [kit_call(step) for step in call["then"]]
    return found


def _args(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for item in items:
        if item.get("skip"):
            found.append({"skip": True})
        elif "value" in item:
            found.append({**item, "value": _plain(item["value"])})
        else:
            found.append(dict(item))
    return found


def _plain(value: Any) -> Any:
    value = thawed(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _arg_names(call: dict[str, Any]) -> set[str]:
    items = [*call.get("args", ())]
    for step in call.get("then", ()):
        items += step.get("args", ())
        for each in step.get("each", ()):
            items += each
    return {item["name"] for item in items if "name" in item}


# -- refusals' words ------------------------------------------------------------------

VALUE_WORDS = {"True": "true", "False": "false", "None": "null"}


def python_spellings(names: Iterable[str]) -> dict[str, str]:
    """Each Python spelling of the rules' ``names`` that is not the name itself
    (a function's or parameter's, a record's field, a state's member), to the
    name; and Python's words for values, to JSON's."""
    spelt = dict(VALUE_WORDS)
    for name in sorted(names):
        for code in (pyname(name), pyattr(name), pyattr(name, "mutable")):
            if code != name:
                spelt.setdefault(code, name)
    return spelt


def neutral_message(message: str, spelt: dict[str, str]) -> str:
    """``message`` with every word ``spelt`` names replaced, in one pass (the
    longest first; never inside a word, nor after a quote)."""
    if not spelt:
        return message
    words = "|".join(re.escape(w) for w in sorted(spelt, key=lambda w: (-len(w), w)))
    pattern = re.compile(rf"(?<![\w'])(?:{words})(?![\w])")
    return pattern.sub(lambda m: spelt[m.group(0)], message)


def rule_texts(value: Any, found: set[str]) -> set[str]:
    """Every string of a rule's model (what a refusal of the rules may say)."""
    if isinstance(value, str):
        found.add(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            rule_texts(getattr(value, f.name), found)
    elif hasattr(type(value), "FIELDS"):  # a record of the runtime (dice)
        for name in type(value).FIELDS:
            rule_texts(getattr(value, name), found)
    elif isinstance(value, tuple | list):
        for item in value:
            rule_texts(item, found)
    return found
