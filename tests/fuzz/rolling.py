"""Rules that roll, for the fuzzer: every shape of parameter, named as the targets name their own.

A formula and a decision that roll dice, with parameters of each shape drawn at
random (whole numbers with and without a default, keyword-only ones, flags,
labels of an enum of their own, a label that may be none), a name the rule
binds that rolls, and each name drawn from both targets' names
(``tests/target_names.py``). With each rules file come the calls to make of
it: each function with its required arguments and some of the others, which
the harness makes in Python and Node with the same seed.
"""

from __future__ import annotations

import random
from typing import Any

from ..target_names import CLASS, LOWER, MEMBER, pool

Json = Any
Call = tuple[str, dict[str, Any]]  # a function (the rules' name), its arguments


class Rolling:
    """Rules files of rules that roll, from one random stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.read = [n for n in pool(LOWER, in_expressions=True) if _plain(n)]
        self.classes = [n for n in pool(CLASS) if _plain(n)]
        self.members = pool(MEMBER)

    def _names(self, count: int, names: list[str], used: set[str]) -> list[str]:
        found: list[str] = []
        while len(found) < count:
            name = self.rng.choice(names)
            key = name.replace("_", "").lower()  # one name once camelCased, too
            if key not in used:
                used.add(key)
                found.append(name)
        return found

    def document(self, system: str) -> tuple[Json, list[Call]]:
        """A rules file of ``system`` and the calls to make of its rules."""
        used: set[str] = set()
        rules: list[Json] = []
        calls: list[Call] = []
        for index in range(self.rng.randint(1, 2)):
            kind = self.rng.choice(("formula", "decision"))
            rule, made = self._rule(f"r{index}", kind, used)
            rules.append(rule)
            calls += made
        return {"system": system, "rules": rules}, calls

    def _rule(self, rule_id: str, kind: str, used: set[str]) -> tuple[Json, list[Call]]:
        rng = self.rng
        function, roll, *names = self._names(6, self.read, used)
        params, terms, required = [], [], {}
        shapes = sorted(rng.sample(range(5), rng.randint(0, 4)))
        for shape, name in zip(shapes, names, strict=False):
            param: Json = {"name": name, "description": "A value."}
            if shape == 0:  # a whole number, given
                param |= {"type": "int", "min": 0, "max": 5}
                required[name] = rng.randint(0, 5)
                terms.append(name)
            elif shape == 1:  # a whole number with a default
                param |= {"type": "int", "min": 0, "max": 5, "default": 2}
                terms.append(name)
            elif shape == 2:  # labels of an enum of its own, maybe none
                (enum,) = self._names(1, self.classes, used)
                low, high = self._names(2, self.members, used)
                param |= {
                    "type": "choice",
                    "enum": enum,
                    "members": [
                        {"name": low, "label": "low"},
                        {"name": high, "label": "high"},
                    ],
                    "nullable": True,
                    "default": None,
                }
                terms.append(f'(3 if {name} == "high" else 0)')
            elif shape == 3:  # a flag
                param |= {"type": "bool", "default": False}
                terms.append(f"(1 if {name} else 0)")
            else:  # keyword-only (after the others)
                param |= {"type": "int", "min": 0, "max": 5, "default": 1}
                param["keyword_only"] = True
                terms.append(name)
            params.append(param)
        value = " + ".join([roll, *terms])
        rule: Json = {
            "id": rule_id,
            "kind": kind,
            "title": "A roll",
            "summary": "A roll of dice and what is given.",
            "source": {"section": "Rolls"},
            "function": function,
            "parameters": params,
            "let": [
                {
                    "name": roll,
                    "value": f"1d{rng.choice((4, 6, 20))}",
                    "description": "The roll.",
                }
            ],
        }
        if kind == "formula":
            rule["expression"] = value
        else:
            (field,) = self._names(1, self.read, used)
            rule |= {
                "result": self._names(1, self.classes, used)[0],
                "fields": [{"name": field, "type": "int", "title": "Total"}],
                "cases": [{"when": "true", "then": {field: value}}],
            }
        optional = {
            p["name"]: 1 for p in params if p["type"] == "int" and "default" in p
        }
        return rule, [(function, required), (function, required | optional)]


def _plain(name: str) -> bool:
    """Not a name derived from another (``x_odds``): two drawn such would be one."""
    return not name.endswith(("_odds", "_level", "_after_save", "Label"))
