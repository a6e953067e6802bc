"""The expression trees of rules.json are complete: an evaluator of the JSON alone
(written here, in the test, knowing nothing of the compiler) answers what the
Python runtime answers.

Every formula and every decision of generated/rules.json (and of the rules.json
of the other rules folders the tests build) is evaluated from its trees on
sampled inputs: every label of a choice, the ends and some middle of each int's
range, both bools, random mappings and their defaults, lists at their shortest,
longest and between, records of their fields. Lookups read the table rows of
rules.json (a range table's ranges), calls of other rules evaluate those rules'
trees, dice of a die rule show its faces, a state made or moved is worked out
from its rule's fields, derived values and transitions, and the answers are
compared with ``rulebook.json.to_data`` of the runtime's answers, refusals with
refusals.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import itertools
import json
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.core.trees import NODE_TYPES
from rulesc.examples import runtime_from
from rulesc.pipeline import build
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import DiceSum, Pool, Term

from .conftest import GENERATED, ROOT

COOKBOOK = ROOT / "tests" / "cookbook"
LAB = ROOT / "tests" / "json_trees"
# the other rules folders the tests build, each a system or more of its own
FOLDERS = {
    "cookbook": COOKBOOK,
    "lab": LAB,
    "values": ROOT / "tests" / "values",
    "dice_formulas": ROOT / "tests" / "dice_formulas",
    "bench": ROOT / "tests" / "bench" / "rules",
}
SAMPLES = 160  # random inputs per rule, beside every label of every choice


class Refused(Exception):
    """The rules refuse the input (a case's refuse, a step past an end)."""


# -- the evaluator: JSON in, JSON out ---------------------------------------------


def _dice_part(dice: dict[str, Any], part: str) -> int:
    if part == "min":
        return int(dice["count"] * dice["multiplier"] + dice["modifier"])
    if part == "max":
        return int(
            dice["count"] * dice["sides"] * dice["multiplier"] + dice["modifier"]
        )
    return int(dice[part])


def _extreme(function: str, items: list[Any], field: str | None) -> Any:
    """The highest or lowest of a list (by a record's ``field``: the first of
    those); an empty list has none: refused, as the runtime refuses it."""
    if not items:
        raise Refused(f"the {function} of an empty list")
    pick = max if function == "max" else min
    return pick(items, key=None if field is None else (lambda r: r[field]))


def _call(function: str, args: list[Any]) -> Any:
    if function in ("min", "max") and isinstance(args[0], list):
        return _extreme(function, args[0], args[1] if len(args) == 2 else None)
    if function in ("min", "max"):
        return min(args) if function == "min" else max(args)
    if function == "clamp":
        return min(max(args[0], args[1]), args[2])
    if function == "text":
        return args[0] if isinstance(args[0], str) else str(args[0])
    if function == "sorted":  # of ints, or of records by a field
        field = args[1] if len(args) == 2 else None
        return sorted(args[0], key=None if field is None else (lambda r: r[field]))
    if function == "count":
        low, high = args[1], args[-1]
        return sum(low <= x <= high for x in args[0])
    if function == "tally":  # a symbol's count over faces, each a list of symbols
        return sum(face.count(args[1]) for face in args[0])
    one: dict[str, Callable[[Any], Any]] = {
        "abs": abs,
        "floor": math.floor,
        "ceil": math.ceil,
        "round": lambda x: math.floor(x + Fraction(1, 2)),
        "len": len,
        "sum": sum,
        "any": any,
        "all": all,
        "reversed": lambda items: list(reversed(items)),
    }
    return one[function](args[0])


def _held(value: Any, spec: dict[str, Any]) -> Any:
    """A number held within the bounds ``spec`` gives (``min``, ``max``)."""
    if spec["min"] is not None:
        value = max(value, spec["min"])
    return value if spec["max"] is None else min(value, spec["max"])


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "is": lambda a, b: a is None,
    "is not": lambda a, b: a is not None,
}


class State(dict[str, Any]):
    """A state value: its fields by name, as ``to_data`` gives them; a derived
    value read from it (a ``field`` node, a name in its rules) is worked out
    from those fields by the tree its rule in rules.json gives."""

    system: System
    rule: dict[str, Any]

    def __missing__(self, name: str) -> Any:
        derived = {d["name"]: d for d in self.rule["derived"]}
        if name not in derived:
            raise KeyError(name)
        return self.system.eval(derived[name]["value"]["tree"], copy.copy(self))


class System:
    """One system of rules.json, evaluated from its data alone."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.rules = {r["id"]: r for r in data["rules"]}
        self.states = {
            r["class_name"]: r
            for r in data["rules"]
            if r["kind"] == "state" and "fields" in r
        }
        self.records = _record_types(data["rules"])
        self.enums = {
            e["name"]: [m["label"] for m in e["members"]] for e in data.get("enums", [])
        }
        self.rng = random.Random(0)  # the dice of the answer being worked out

    def dice(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        """Dice rolled by the dice core, from the notation the tree spells out
        (a die rule's dice showing its faces, as rules.json lists them)."""
        count = None if node["count"] is None else self.eval(node["count"], env)
        text = ("" if count is None else str(count)) + node["notation"]
        if node["sides"] is not None:
            sides = self.eval(node["sides"], env)
            text = f"{1 if count is None else count}d{sides}{node['notation']}"
        if count == 0:
            return [] if node["results"] else 0
        dice = parse_notation(text)
        if node["die"] is not None:
            faces = tuple(
                tuple(f) if isinstance(f, list) else f
                for f in self.rules[node["die"]]["faces"]
            )
            dice = DiceSum(
                tuple(
                    Term(t.sign, t.value.replace(listed=faces))
                    if isinstance(t.value, Pool)
                    else t
                    for t in dice.terms
                )
            )
        rolled = roll(dice, self.rng)
        if node["results"]:
            return [list(r) if isinstance(r, tuple) else r for r in rolled.results]
        return rolled.total

    def fits(self, spec: dict[str, Any], value: Any) -> bool:
        """Whether ``value`` is one the parameter (or value type) ``spec``
        allows: a number within its bounds, a label of its enum, a list of as
        many items as it allows, each allowed, a record's every field."""
        kind = spec["type"]
        if value is None:
            return _nullable(spec) if "value" in spec else bool(spec["nullable"])
        if kind == "int":
            return (
                (spec["min"] is None or spec["min"] <= value)
                and (spec["max"] is None or value <= spec["max"])
                and value in (spec.get("values") or [value])
            )
        if kind == "choice":
            return value in self.enums[spec["enum"]]
        if kind in ("list", "record") and spec.get("value") is not None:
            return self.fits(spec["value"], value)
        if kind == "list":
            low, high = spec["min_items"] or 0, spec["max_items"]
            item = _item_type(spec)
            return (low <= len(value) and (high is None or len(value) <= high)) and all(
                self.fits(item, x) for x in value
            )
        if kind == "record":
            return all(
                self.fits(f, value[f["name"]]) for f in self.records[spec["record"]]
            )
        return True

    def given(self, params: list[dict[str, Any]], args: list[Any]) -> dict[str, Any]:
        """Arguments by their parameters' names; refused where one does not fit."""
        for p, value in zip(params, args, strict=True):
            if not self.fits(p, value):
                raise Refused(f"{p['name']} = {value!r} is outside the rule")
        return {p["name"]: value for p, value in zip(params, args, strict=True)}

    def new_state(self, node: dict[str, Any], env: dict[str, Any]) -> State:
        """A state made: each field's start from the constructor's arguments."""
        rule = self.states[node["state"]]
        args = self.given(rule["parameters"], [self.eval(a, env) for a in node["args"]])
        fields = {
            f["name"]: self.eval(f["start"]["tree"], args) for f in rule["fields"]
        }
        return self.state(rule, fields)

    def state(self, rule: dict[str, Any], fields: dict[str, Any]) -> State:
        made = State(fields)
        made.system, made.rule = self, rule
        return made

    def transition(self, node: dict[str, Any], env: dict[str, Any]) -> State:
        """The state after a transition: its arguments checked; none of its
        fields changed where ``unless`` holds; else its lets, then every new
        value from the values before, each number held within its bounds."""
        before = self.eval(node["of"], env)
        rule = self.states[node["state"]]
        (move,) = (t for t in rule["transitions"] if t["name"] == node["transition"])
        args = [self.eval(a, env) for a in node["args"]]
        scope = copy.copy(before)
        scope.update(self.given(move["parameters"], args))
        if move["unless"] is not None and self.eval(move["unless"]["tree"], scope):
            return self.state(rule, dict(before))
        for let in move["let"]:
            scope[let["name"]] = self.eval(let["value"]["tree"], scope)
        new = {s["name"]: self.eval(s["value"]["tree"], scope) for s in move["set"]}
        specs = {f["name"]: f for f in rule["fields"]}
        return self.state(
            rule, {**before, **{k: _held(v, specs[k]) for k, v in new.items()}}
        )

    def item(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        """A list's item by its position (from the end where negative)."""
        items, at = self.eval(node["of"], env), self.eval(node["at"], env)
        if not -len(items) <= at < len(items):
            raise Refused(f"a list of {len(items)} items has no item {at}")
        return items[at]

    def comprehension(self, node: dict[str, Any], env: dict[str, Any]) -> list[Any]:
        found = []
        for item in self.eval(node["items"], env):
            local = copy.copy(env)
            local[node["item"]] = item
            if node["test"] is None or self.eval(node["test"], local):
                found.append(self.eval(node["value"], local))
        return found

    def eval(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        kind = node["node"]

        def sub(key: str) -> Any:
            return self.eval(node[key], env)

        if kind == "literal":
            return node["value"]
        if kind == "name":
            return env[node["name"]]
        if kind == "unary":
            value = sub("operand")
            return -value if node["op"] == "-" else not value
        if kind == "divide":
            a, b = sub("left"), sub("right")
            return a // b if node["rounding"] == "down" else -(-a // b)
        if kind == "conditional":
            return sub("then") if sub("test") else sub("else")
        if kind == "call":
            return _call(node["function"], [self.eval(a, env) for a in node["args"]])
        if kind == "field":  # of a row, a record, a state (a derived value too)
            row = sub("of")
            return None if row is None else row[node["name"]]
        if kind == "dice_part":
            return _dice_part(sub("of"), node["part"])
        if kind == "index":
            key = sub("key")
            return None if key is None else sub("of")[key]
        if kind == "order":
            ranks = [label.casefold() for label in node["labels"]]
            left, right = (str(sub(side)).casefold() for side in ("left", "right"))
            return _COMPARE[node["op"]](ranks.index(left), ranks.index(right))
        if kind == "list":
            return [self.eval(item, env) for item in node["items"]]
        if kind == "concat":
            return [*sub("left"), *sub("right")]
        if kind == "record":  # a dict of its fields by the rules' names
            return {name: self.eval(v, env) for name, v in node["fields"].items()}
        made: dict[str, Callable[[dict[str, Any], dict[str, Any]], Any]] = {
            "binary": self.binary,
            "rule_call": self.rule_call,
            "lookup": self.lookup,
            "step": self.step,
            "dice": self.dice,
            "item": self.item,
            "comprehension": self.comprehension,
            "new_state": self.new_state,
            "transition": self.transition,
        }
        if kind in made:
            return made[kind](node, env)
        raise AssertionError(f"a node rules.json does not define: {kind}")

    def binary(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        op = node["op"]
        left = self.eval(node["left"], env)
        if op == "and":
            return bool(left) and bool(self.eval(node["right"], env))
        if op == "or":
            return bool(left) or bool(self.eval(node["right"], env))
        if op == "??":
            return self.eval(node["right"], env) if left is None else left
        right = self.eval(node["right"], env)
        if op == "/":  # exact: floor, ceil or round's argument
            return Fraction(left, right)
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        return _COMPARE[op](left, right)

    def rule_call(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        callee = self.rules[node["rule"]]
        args = [self.eval(a, env) for a in node["args"]]
        return self.answer(callee, self.given(_params(callee), args))

    def lookup(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        key = self.eval(node["key"], env)
        if key is None:
            return None
        rows = self.rules[node["rule"]]["rows"]
        return next(r["values"] for r in rows if r["key"] == key)

    def step(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        label = self.eval(node["of"], env)
        if label is None:
            return None
        labels = node["labels"]
        at = labels.index(label) + self.eval(node["by"], env)
        if 0 <= at < len(labels):
            return labels[at]
        if node["past_end"] == "clamp":
            return labels[0] if at < 0 else labels[-1]
        if node["past_end"] == "error":
            raise Refused(f"{label} is stepped past the end")
        return None

    def inputs(self, rule: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
        """The arguments with every default filled in, as the rule sees them."""
        env = {}
        for p in rule["params"]:
            value = given.get(p["name"], p["default"])
            if value is None and p["default_from"] is not None:
                source = p["default_from"]
                value = self.answer(self.rules[source["rule"]], source["args"])
            env[p["name"]] = value
        return env

    def answer(self, rule: dict[str, Any], given: dict[str, Any]) -> Any:
        if rule["kind"] == "range_table":
            return _band(rule, given[rule["param"]["name"]])
        env = self.inputs(rule, given)
        lets, guards = rule["let"], rule.get("guards") or []
        for at in range(len(lets) + 1):  # each name bound once, in order
            for guard in (g for g in guards if g["before"] == at):
                if self.eval(guard["when"]["tree"], env):  # a refusal, an early answer
                    return self.case(rule, guard, env)
            if at < len(lets):
                env[lets[at]["name"]] = self.eval(lets[at]["value"]["tree"], env)
        if rule["kind"] == "formula":
            return self.eval(rule["expression"]["tree"], env)
        assert rule["kind"] == "decision", rule["kind"]
        if rule.get("repeat") is not None:
            self.repeat(rule["repeat"], env)
        found = []
        for case in rule["cases"]:
            if not self.eval(case["when"]["tree"], env):
                continue
            one = self.case(rule, case, env)
            if rule["hit_policy"] != "collect":
                return one
            found.append(one)
        assert rule["hit_policy"] == "collect", "a first-match decision always answers"
        return found

    def case(
        self, rule: dict[str, Any], case: dict[str, Any], env: dict[str, Any]
    ) -> Any:
        """A case's answer (a guard's among the names too), or its refusal."""
        if case["refuse"] is not None:
            raise Refused(case["refuse"])
        values = {k: self.eval(v, env) for k, v in case["then"].items()}
        return values["value"] if rule["shape"] == "value" else values

    def repeat(self, repeat: dict[str, Any], env: dict[str, Any]) -> None:
        """A decision's turns, until its ending: its state values (each number
        held within its bounds) and the count of turns, bound in ``env``."""
        specs = {v["name"]: v for v in repeat["state"]}
        env["turns"] = 0
        for v in repeat["state"]:
            env[v["name"]] = _held(self.eval(v["start"]["tree"], env), v)
        while not self.eval(repeat["until"]["tree"], env):
            if repeat["max_turns"] is not None and env["turns"] == repeat["max_turns"]:
                break
            env["turns"] += 1
            for let in repeat["let"]:
                env[let["name"]] = self.eval(let["value"]["tree"], env)
            new = {s["name"]: self.eval(s["value"]["tree"], env) for s in repeat["set"]}
            env.update({k: _held(v, specs[k]) for k, v in new.items()})


def _params(rule: dict[str, Any]) -> list[dict[str, Any]]:
    """A rule's parameters (a range table's one)."""
    found: list[dict[str, Any]] = (
        rule["params"] if "params" in rule else [rule["param"]]
    )
    return found


def _band(rule: dict[str, Any], number: int) -> Any:
    """A range table's answer: the values of the range that holds ``number``;
    below the first, none or a refusal (``below``); outside every range, refused."""
    for row in rule["rows"]:
        if row["from"] <= number and (row["to"] is None or number <= row["to"]):
            return row["values"]
    if number < rule["rows"][0]["from"] and rule["below"] == "none":
        return None
    raise Refused(f"{number} is in no range of {rule['id']}")


def _item_type(spec: dict[str, Any]) -> dict[str, Any]:
    """The value type of a list's items (from the list's value type)."""
    return {
        "type": spec["items"],
        "nullable": False,
        "enum": spec["enum"],
        "record": spec["record"],
        "min": spec["min"],
        "max": spec["max"],
        "items": None,
        "min_items": None,
        "max_items": None,
        "values": None,
    }


def _record_types(rules: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each record type's fields as value types with their names: a record
    rule's, and a decision's that answers a record of fields."""
    found: dict[str, list[dict[str, Any]]] = {}
    for rule in rules:
        if rule["kind"] == "record":
            found[rule["class_name"]] = [
                {**f["value"], "name": f["name"]} for f in rule["fields"]
            ]
        elif rule["kind"] == "decision" and rule["shape"] == "fields":
            found.setdefault(
                rule["result"],
                [
                    {"min": None, "max": None, "min_items": None, "max_items": None}
                    | slot
                    for slot in rule["slots"]
                ],
            )
    return found


# -- inputs -------------------------------------------------------------------------


def _ints(p: dict[str, Any], rng: random.Random) -> list[int]:
    if p.get("values"):
        return list(p["values"])
    lo = p["min"] if p["min"] is not None else -40
    hi = p["max"] if p["max"] is not None else lo + 80
    picks = {
        lo,
        hi,
        min(lo + 1, hi),
        max(hi - 1, lo),
        *(rng.randint(lo, hi) for _ in range(4)),
    }
    if lo <= 0 <= hi:
        picks.add(0)
    return sorted(picks)


TEXTS = ("", "a", "two words", "Ünïcode")


def _value(spec: dict[str, Any], system: System, rng: random.Random, edge: int) -> Any:
    """A value of the value type ``spec``: at its ends where ``edge`` is 0 (the
    least, the shortest) or 1 (the greatest, the longest), else at random."""
    kind = spec["type"]
    if kind == "int":
        ints = _ints(spec, rng)
        return ints[0] if edge == 0 else ints[-1] if edge == 1 else rng.choice(ints)
    if kind == "bool":
        return rng.random() < 0.5 if edge not in (0, 1) else bool(edge)
    if kind == "choice":
        return rng.choice(system.enums[spec["enum"]])
    if kind == "text":
        return rng.choice(TEXTS)
    if kind == "record":
        return {
            f["name"]: None
            if f["nullable"] and rng.random() < 0.2
            else _value(f, system, rng, edge)
            for f in system.records[spec["record"]]
        }
    assert kind == "list", f"no samples of a {kind} parameter"
    low = spec["min_items"] or 0
    high = min(spec["max_items"] or low + 6, low + 12)
    size = low if edge == 0 else high if edge == 1 else rng.randint(low, high)
    return [_value(_item_type(spec), system, rng, edge) for _ in range(size)]


def _choices(p: dict[str, Any], system: System, rng: random.Random) -> list[Any]:
    if p["type"] == "bool":
        return [False, True]
    if p["type"] == "int":
        return _ints(p, rng)
    if p["value"] is not None:  # a text, a list, a record
        spec = p["value"]
        values = [_value(spec, system, rng, edge) for edge in (0, 1, *[2] * 8)]
        return values + [None] * spec["nullable"]
    labels: list[Any] = list(system.enums[p["enum"]])
    if p["type"] == "choice":
        return labels + [None] * p["nullable"]
    values = system.enums[p["value_enum"]]
    maps: list[Any] = [{k: rng.choice(values) for k in labels} for _ in range(6)]
    maps += [{k: v for k in labels} for v in values]
    return maps + [None] * (p["default_from"] is not None)


def samples(
    rule: dict[str, Any], system: System, seed: str
) -> Iterator[dict[str, Any]]:
    """Every label of each choice at least once (each list at its shortest and
    longest), then random combinations."""
    rng = random.Random(seed)
    params = rule["params"]
    options = [_choices(p, system, rng) for p in params]
    for index, values in enumerate(options):
        for value in values:
            chosen = {
                p["name"]: rng.choice(o) for p, o in zip(params, options, strict=True)
            }
            yield {**chosen, params[index]["name"]: value}
    for _ in range(SAMPLES):
        yield {p["name"]: rng.choice(o) for p, o in zip(params, options, strict=True)}
    if not params:
        yield {}


# -- against the runtime -----------------------------------------------------------


def _nullable(p: dict[str, Any]) -> bool:
    """Whether a parameter may be given null (a choice, or a value type)."""
    return bool(p["nullable"] or (p["value"] or {}).get("nullable"))


def _runtime_answer(
    module: ModuleType, rule: dict[str, Any], args: dict[str, Any]
) -> Any:
    errors = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".errors")
    to_data = importlib.import_module(
        module.__name__.rsplit(".", 1)[0] + ".json"
    ).to_data
    function = _function(module, rule["function"])
    spelt = [n for n in inspect.signature(function).parameters if n != "rng"]
    python = dict(zip((p["name"] for p in rule["params"]), spelt, strict=True))
    try:
        return to_data(function(**{python.get(k, k): v for k, v in args.items()}))
    except errors.RuleInputError:
        return Refused


def _function(module: ModuleType, name: str) -> Callable[..., Any]:
    """A rule's function: its name, or (where Python or the module has that
    name already) the name with one more ``_``, as the Python guide says."""
    while getattr(getattr(module, name, None), "__module__", None) != module.__name__:
        name += "_"
    found: Callable[..., Any] = getattr(module, name)
    return found


def _tree_answer(system: System, rule: dict[str, Any], args: dict[str, Any]) -> Any:
    try:
        return system.answer(rule, args)
    except Refused:
        return Refused


def check_system(data: dict[str, Any], module: ModuleType) -> int:
    """Compare every formula and decision of one system; answers how many inputs."""
    system = System(data)
    compared = 0
    for rule in data["rules"]:
        if rule["kind"] not in ("formula", "decision"):
            continue
        seen = set()
        for args in samples(rule, system, f"{data['id']}.{rule['id']}"):
            key = json.dumps(args, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            given = {k: v for k, v in args.items() if v is not None}
            given |= {
                p["name"]: None
                for p in rule["params"]
                if _nullable(p) and args.get(p["name"], "") is None
            }
            text = json.dumps(rule)  # its own dice, or a call of a rule that rolls
            if '"node": "dice"' in text or '"rolls": true' in text:  # one seed
                system.rng = random.Random(compared)
                want = _runtime_answer(
                    module, rule, given | {"rng": random.Random(compared)}
                )
            else:
                want = _runtime_answer(module, rule, given)
            got = _tree_answer(system, rule, given)
            assert got == want, (
                f"{data['id']}.{rule['id']}({given}): {got!r} != {want!r}"
            )
            compared += 1
    return compared


def _documents() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((GENERATED / "rules.json").read_text("utf-8"))
    return doc


DOC = _documents()


@pytest.mark.parametrize("system", DOC["systems"], ids=lambda s: s["id"])
def test_the_trees_answer_what_the_runtime_answers(system: dict[str, Any]) -> None:
    module = importlib.import_module(f"rulebook.{system['id']}")
    compared = check_system(system, module)
    rules = [r for r in system["rules"] if r["kind"] in ("formula", "decision")]
    assert compared >= 10 * len(rules)


@contextmanager
def _built(rules: Path) -> Iterator[tuple[dict[str, Any], str]]:
    """rules.json of an in-memory build of ``rules``, with its runtime imported."""
    outputs = build(rules)
    texts = {
        p: b.decode("utf-8")
        for p, b in outputs.files.items()
        if p.startswith("rulebook/")
    }
    with runtime_from(texts) as package:
        yield json.loads(outputs.files["rules.json"]), package


@pytest.mark.parametrize("rules", list(FOLDERS.values()), ids=list(FOLDERS))
def test_other_rules_folders_trees_answer_what_their_runtime_answers(
    rules: Path,
) -> None:
    with _built(rules) as (doc, package):
        for system in doc["systems"]:
            module = importlib.import_module(f"{package}.{system['id']}")
            assert check_system(system, module) > 0


def _used(doc: Any) -> set[str]:
    """Every node type, operator and built-in function in a document's trees."""
    found: set[str] = set()
    if isinstance(doc, dict):
        if doc.get("node") in NODE_TYPES:
            found.add(doc["node"])
            found |= {f"{doc['node']}:{doc.get('op') or doc.get('function') or ''}"}
        for item in doc.values():
            found |= _used(item)
    elif isinstance(doc, list):
        for item in doc:
            found |= _used(item)
    return found


def test_the_comparisons_use_every_node_operator_and_function() -> None:
    """The lab's rules (tests/json_trees/, figures of the test's own) use every
    node type the schema names, every operator and every built-in, so the
    comparisons above leave none of them unproven."""
    schema = json.loads((GENERATED / "rules.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    assert defs["node"]["properties"]["node"]["enum"] == list(NODE_TYPES)
    wanted = set(NODE_TYPES)
    wanted |= {f"binary:{op}" for op in defs["node_binary"]["properties"]["op"]["enum"]}
    wanted |= {f"unary:{op}" for op in defs["node_unary"]["properties"]["op"]["enum"]}
    wanted |= {f"call:{f}" for f in defs["node_call"]["properties"]["function"]["enum"]}
    with _built(LAB) as (doc, _):
        used = _used(doc)
    assert wanted <= used, sorted(wanted - used)
    assert "step" in used and "divide" in used


def _lit(value: int) -> dict[str, Any]:
    return {"node": "literal", "type": "int", "value": value, "enum": None}


def _text(value: str) -> dict[str, Any]:
    return {"node": "literal", "type": "text", "value": value, "enum": None}


A = {"node": "name", "name": "a"}
X = {"node": "name", "name": "x"}
LADDER = {"enum": "L", "labels": ["x", "y", "z"]}


@pytest.mark.parametrize(
    ("tree", "env", "expected"),
    [
        (
            {"node": "divide", "rounding": "down", "left": A, "right": _lit(2)},
            {"a": -3},
            -2,
        ),
        (
            {"node": "divide", "rounding": "up", "left": A, "right": _lit(2)},
            {"a": -3},
            -1,
        ),
        (
            {"node": "step", "of": A, "by": _lit(-2), **LADDER, "past_end": "clamp"},
            {"a": "y"},
            "x",
        ),
        (
            {"node": "step", "of": A, "by": _lit(1), **LADDER, "past_end": "none"},
            {"a": "z"},
            None,
        ),
        (
            {"node": "index", "of": {"node": "name", "name": "m"}, "key": A},
            {"m": {"x": "q"}, "a": None},
            None,
        ),
        (
            {
                "node": "call",
                "function": "max",
                "args": [{"node": "list", "items": [A, _lit(4)]}],
            },
            {"a": 7},
            7,
        ),
        ({"node": "item", "of": A, "at": _lit(-2)}, {"a": [4, 5, 6]}, 5),
        (
            {
                "node": "comprehension",
                "item": "x",
                "items": {"node": "call", "function": "reversed", "args": [A]},
                "test": {"node": "binary", "op": ">", "left": X, "right": _lit(4)},
                "value": {"node": "record", "record": "R", "fields": {"v": X}},
            },
            {"a": [4, 5, 6], "x": "outer"},
            [{"v": 6}, {"v": 5}],
        ),
        (
            {"node": "call", "function": "tally", "args": [A, _text("s")]},
            {"a": [[], ["s", "s"], ["t"], ["s", "t"]]},
            3,
        ),
    ],
)
def test_the_evaluator_itself(
    tree: dict[str, Any], env: dict[str, Any], expected: Any
) -> None:
    """The evaluator's own reading of a few nodes, on values of the test's own."""
    assert System({"rules": []}).eval(tree, env) == expected


def test_an_item_outside_the_list_is_refused() -> None:
    """A position past either end of the list is refused, as the runtime refuses it."""
    for at in (3, -4):
        with pytest.raises(Refused):
            System({"rules": []}).eval(
                {"node": "item", "of": A, "at": _lit(at)}, {"a": [4, 5, 6]}
            )


def test_a_wrong_tree_is_caught() -> None:
    """The comparison would fail if a tree said something else: a formula's
    constant changed in the JSON gives other answers than the runtime."""
    system = next(
        s for s in DOC["systems"] if any(r["kind"] == "formula" for r in s["rules"])
    )
    broken = json.loads(json.dumps(system))
    formula = next(r for r in broken["rules"] if r["kind"] == "formula")

    def bump(node: Any) -> bool:
        if isinstance(node, dict):
            if (
                node.get("node") == "literal"
                and node["type"] == "int"
                and node["value"]
            ):
                node["value"] += 1
                return True
            return any(bump(v) for v in node.values())
        if isinstance(node, list):
            return any(bump(v) for v in node)
        return False

    assert bump(formula["expression"]["tree"])
    module = importlib.import_module(f"rulebook.{system['id']}")
    with pytest.raises(AssertionError):
        check_system(broken, module)
    assert list(itertools.islice(samples(formula, System(broken), "x"), 1))
