"""The expression trees of rules.json are complete: an evaluator of the JSON alone
(written here, in the test, knowing nothing of the compiler) answers what the
Python runtime answers.

Every formula and every decision of generated/rules.json (and of the cookbook's
rules.json) is evaluated from its trees on sampled inputs: every label of a
choice, the ends and some middle of each int's range, both bools, random
mappings and their defaults. Lookups read the table rows of rules.json, calls of
other rules evaluate those rules' trees, and the answers are compared with
``rulebook.json.to_data`` of the runtime's answers, refusals with refusals.
"""

from __future__ import annotations

import importlib
import itertools
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.examples import runtime_from
from rulesc.expr_json import NODE_TYPES
from rulesc.pipeline import build
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll

from .conftest import GENERATED, ROOT

COOKBOOK = ROOT / "tests" / "cookbook"
LAB = ROOT / "tests" / "json_trees"
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


def _call(function: str, args: list[Any]) -> Any:
    if function in ("min", "max"):
        values = args[0] if len(args) == 1 else args
        return min(values) if function == "min" else max(values)
    if function == "clamp":
        return min(max(args[0], args[1]), args[2])
    if function == "text":
        return args[0] if isinstance(args[0], str) else str(args[0])
    if function == "sorted":
        return sorted(args[0])
    if function == "count":
        low, high = args[1], args[-1]
        return sum(low <= x <= high for x in args[0])
    one: dict[str, Callable[[Any], Any]] = {
        "abs": abs,
        "len": len,
        "sum": sum,
        "any": any,
        "all": all,
    }
    return one[function](args[0])


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


class System:
    """One system of rules.json, evaluated from its data alone."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.rules = {r["id"]: r for r in data["rules"]}
        self.rng = random.Random(0)  # the dice of the answer being worked out

    def dice(self, node: dict[str, Any], env: dict[str, Any]) -> Any:
        """Dice rolled by the dice core, from the notation the tree spells out."""
        count = None if node["count"] is None else self.eval(node["count"], env)
        if node["sides"] is not None:
            text = f"{1 if count is None else count}d{self.eval(node['sides'], env)}"
        else:
            text = ("" if count is None else str(count)) + node["notation"]
        if count == 0:
            return [] if node["results"] else 0
        rolled = roll(parse_notation(text), self.rng)
        return list(rolled.results) if node["results"] else rolled.total

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
        if kind == "binary":
            op = node["op"]
            left = sub("left")
            if op == "and":
                return bool(left) and bool(sub("right"))
            if op == "or":
                return bool(left) or bool(sub("right"))
            if op == "??":
                return sub("right") if left is None else left
            right = sub("right")
            if op == "+":
                return left + right
            if op == "-":
                return left - right
            if op == "*":
                return left * right
            return _COMPARE[op](left, right)
        if kind == "divide":
            a, b = sub("left"), sub("right")
            return a // b if node["rounding"] == "down" else -(-a // b)
        if kind == "conditional":
            return sub("then") if sub("test") else sub("else")
        if kind == "call":
            return _call(node["function"], [self.eval(a, env) for a in node["args"]])
        if kind == "rule_call":
            callee = self.rules[node["rule"]]
            args = [self.eval(a, env) for a in node["args"]]
            names = [p["name"] for p in callee["params"]]
            return self.answer(callee, dict(zip(names, args, strict=True)))
        if kind == "lookup":
            key = sub("key")
            if key is None:
                return None
            rows = self.rules[node["rule"]]["rows"]
            return next(r["values"] for r in rows if r["key"] == key)
        if kind == "field":
            row = sub("of")
            return None if row is None else row[node["name"]]
        if kind == "dice_part":
            return _dice_part(sub("of"), node["part"])
        if kind == "index":
            key = sub("key")
            return None if key is None else sub("of")[key]
        if kind == "step":
            label = sub("of")
            if label is None:
                return None
            labels = node["labels"]
            at = labels.index(label) + sub("by")
            if 0 <= at < len(labels):
                return labels[at]
            if node["past_end"] == "clamp":
                return labels[0] if at < 0 else labels[-1]
            if node["past_end"] == "error":
                raise Refused(f"{label} is stepped past the end")
            return None
        if kind == "order":
            ranks = [label.casefold() for label in node["labels"]]
            left, right = (str(sub(side)).casefold() for side in ("left", "right"))
            return _COMPARE[node["op"]](ranks.index(left), ranks.index(right))
        if kind == "list":
            return [self.eval(item, env) for item in node["items"]]
        if kind == "concat":
            return [*sub("left"), *sub("right")]
        if kind == "dice":
            return self.dice(node, env)
        raise AssertionError(f"a node rules.json does not define: {kind}")

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
        env = self.inputs(rule, given)
        for let in rule["let"]:  # each bound once, in order (formulas and decisions)
            env[let["name"]] = self.eval(let["value"]["tree"], env)
        if rule["kind"] == "formula":
            return self.eval(rule["expression"]["tree"], env)
        assert rule["kind"] == "decision", rule["kind"]
        if rule.get("repeat") is not None:
            self.repeat(rule["repeat"], env)
        found = []
        for case in rule["cases"]:
            if not self.eval(case["when"]["tree"], env):
                continue
            if case["refuse"] is not None:
                raise Refused(case["refuse"])
            values = {k: self.eval(v, env) for k, v in case["then"].items()}
            one = values["value"] if rule["shape"] == "value" else values
            if rule["hit_policy"] != "collect":
                return one
            found.append(one)
        assert rule["hit_policy"] == "collect", "a first-match decision always answers"
        return found

    def repeat(self, repeat: dict[str, Any], env: dict[str, Any]) -> None:
        """A decision's turns, until its ending: its state values (each number
        held within its bounds) and the count of turns, bound in ``env``."""

        def held(value: Any, spec: dict[str, Any]) -> Any:
            if spec["min"] is not None:
                value = max(value, spec["min"])
            return value if spec["max"] is None else min(value, spec["max"])

        specs = {v["name"]: v for v in repeat["state"]}
        env["turns"] = 0
        for v in repeat["state"]:
            env[v["name"]] = held(self.eval(v["start"]["tree"], env), v)
        while not self.eval(repeat["until"]["tree"], env):
            if repeat["max_turns"] is not None and env["turns"] == repeat["max_turns"]:
                break
            env["turns"] += 1
            for let in repeat["let"]:
                env[let["name"]] = self.eval(let["value"]["tree"], env)
            new = {s["name"]: self.eval(s["value"]["tree"], env) for s in repeat["set"]}
            env.update({k: held(v, specs[k]) for k, v in new.items()})


# -- inputs -------------------------------------------------------------------------


def _ints(p: dict[str, Any], rng: random.Random) -> list[int]:
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


def _choices(
    p: dict[str, Any], enums: dict[str, list[str]], rng: random.Random
) -> list[Any]:
    if p["type"] == "bool":
        return [False, True]
    if p["type"] == "int":
        return _ints(p, rng)
    labels: list[Any] = list(enums[p["enum"]])
    if p["type"] == "choice":
        return labels + [None] * p["nullable"]
    values = enums[p["value_enum"]]
    maps: list[Any] = [{k: rng.choice(values) for k in labels} for _ in range(6)]
    maps += [{k: v for k in labels} for v in values]
    return maps + [None] * (p["default_from"] is not None)


def samples(
    rule: dict[str, Any], enums: dict[str, list[str]], seed: str
) -> Iterator[dict[str, Any]]:
    """Every label of each choice at least once, then random combinations."""
    rng = random.Random(seed)
    params = rule["params"]
    options = [_choices(p, enums, rng) for p in params]
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


def _runtime_answer(
    module: ModuleType, rule: dict[str, Any], args: dict[str, Any]
) -> Any:
    errors = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".errors")
    to_data = importlib.import_module(
        module.__name__.rsplit(".", 1)[0] + ".json"
    ).to_data
    try:
        return to_data(getattr(module, rule["function"])(**args))
    except errors.RuleInputError:
        return Refused


def _tree_answer(system: System, rule: dict[str, Any], args: dict[str, Any]) -> Any:
    try:
        return system.answer(rule, args)
    except Refused:
        return Refused


def check_system(data: dict[str, Any], module: ModuleType) -> int:
    """Compare every formula and decision of one system; answers how many inputs."""
    system = System(data)
    enums = {e["name"]: [m["label"] for m in e["members"]] for e in data["enums"]}
    compared = 0
    for rule in data["rules"]:
        if rule["kind"] not in ("formula", "decision"):
            continue
        seen = set()
        for args in samples(rule, enums, f"{data['id']}.{rule['id']}"):
            key = json.dumps(args, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            given = {k: v for k, v in args.items() if v is not None}
            given |= {
                p["name"]: None
                for p in rule["params"]
                if p["nullable"] and args.get(p["name"], "") is None
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


@pytest.mark.parametrize("rules", [COOKBOOK, LAB], ids=["cookbook", "lab"])
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


A = {"node": "name", "name": "a"}
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
    ],
)
def test_the_evaluator_itself(
    tree: dict[str, Any], env: dict[str, Any], expected: Any
) -> None:
    """The evaluator's own reading of a few nodes, on values of the test's own."""
    assert System({"rules": []}).eval(tree, env) == expected


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
    assert list(itertools.islice(samples(formula, {}, "x"), 1))
