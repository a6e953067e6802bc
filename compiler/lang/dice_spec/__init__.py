"""Dice spec: the one definition of the dice notation, read and checked (printed by ``printers``).

``notation.json`` beside this module defines the notation's limits, the work
budget of exact odds, and each option of a pool: its tokens, the argument after
a token (a comparison or a whole number: its field, default and least value),
the fields a token sets, and the words of its hints and refusals. It is JSON,
not Python, so that each runtime (and a third party's port) reads the same
data: ``printers`` prints it as a data module into both generated runtimes
(``rulebook/_dice_spec.py``, ``js/_dice_spec.js`` and its ``.d.ts``); the Python
runtime in ``compiler/runtime/`` holds the same printed module (``python -m
rulesc.dice_spec`` prints it again; a test holds that it is current). The
parsers, the work budgets and the compiler's checks of dice in formulas read
the printed module; what each runtime writes by hand is its primitives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["DEFINITION", "SHAPES", "SpecError", "load", "normalized"]

DEFINITION = Path(__file__).resolve().parent / "notation.json"
"""The definition's file."""
SHAPES = ("compare", "number", "none")
"""The shapes of an option's argument: a comparison, a whole number, or none."""
_LIMITS = (
    "max_terms",
    "max_digits",
    "max_nesting",
    "depth",
    "max_depth",
    "odds_work_per_entry",
    "dice_work_per_entry",
    "product_bits",
    "square_bits",
    "sum_bits",
)
_WORDS = ("hint", "no_more_options", "more_options", "second")
_CHECKS = (
    "never_stops",
    "explodes_forever",
    "keep_none",
    "failure_needs_target",
    "minimum_above_maximum",
    "unique_alone",
    "unique_faces",
    "group_keep_one",
)
_WORD_KEYS = (
    "strict_greater",
    "strict_greater_hint",
    "strict_less",
    "strict_less_hint",
    "no_face_meets",
    "no_face_meets_hint",
    "no_face_fails",
    "no_face_fails_hint",
    "spaced_options",
    "spaced_options_hint",
    "mixed_rerolls",
    "mixed_rerolls_hint",
    "fudge_variant",
    "fudge_variant_hint",
    "second_comparison",
    "second_comparison_hint",
    "whole_count",
    "whole_sides",
    "unclosed",
    "unclosed_hint",
    "arguments",
    "arguments_hint",
    "empty_label",
    "empty_label_hint",
    "nesting",
    "nesting_hint",
)
"""The parser's own messages and hints, which the definition words."""
"""The pool's checks of its options' values, whose refusals the definition words."""


class SpecError(ValueError):
    """A definition that does not hold together (a contributor's mistake)."""


def load(path: Path = DEFINITION) -> dict[str, Any]:
    """The definition in ``path``, checked and with every default filled in."""
    return normalized(json.loads(path.read_text(encoding="utf-8")))


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise SpecError(f"dice spec: {where}: {what}")


def _argument(found: Any, where: str) -> dict[str, Any]:
    _need(isinstance(found, dict), where, "argument is an object")
    _need(found.get("shape") in SHAPES, where, f"argument's shape is one of {SHAPES}")
    _need(isinstance(found.get("field"), str), where, "argument names its field")
    argument = {
        "shape": found["shape"],
        "field": found["field"],
        "what": found.get("what", ""),
        "op": found.get("op"),
        "optional": found.get("optional", False),
        "signed": found.get("signed", False),
        "default": found.get("default"),
        "least": found.get("least"),
        "below_least": found.get("below_least", ""),
    }
    unknown = set(found) - set(argument)
    _need(not unknown, where, f"argument has no key {sorted(unknown)}")
    needs_what = (
        argument["default"] is None
        and not argument["optional"]
        and argument["shape"] != "none"
    )
    _need(
        bool(argument["what"]) or not needs_what,
        where,
        "a required argument says what it is",
    )
    _need(
        argument["least"] is None or bool(argument["below_least"]),
        where,
        "a least value has its refusal (below_least)",
    )
    return argument


def _option(found: Any, at: int) -> dict[str, Any]:
    where = f"options[{at}]"
    _need(isinstance(found, dict), where, "an option is an object")
    for key in ("name", "noun", "takes"):
        _need(
            isinstance(found.get(key), str) and bool(found[key]),
            where,
            f"{key} is a text",
        )
    forms = found.get("forms")
    _need(
        isinstance(forms, list) and bool(forms), where, "forms is a list of one or more"
    )
    option = {
        "name": found["name"],
        "noun": found["noun"],
        "takes": found["takes"],
        "takes_after": dict(found.get("takes_after", {})),
        "hidden_when": {k: list(v) for k, v in found.get("hidden_when", {}).items()},
        "repeats": found.get("repeats", False),
        "in_groups": found.get("in_groups", False),
        "argument": _argument(found.get("argument"), where),
        "forms": [
            {
                "token": form["token"],
                "sets": dict(form.get("sets", {})),
                "in_formulas": form.get("in_formulas", True),
                "required": form.get("required", False),
            }
            for form in forms
        ],
    }
    unknown = set(found) - set(option)
    _need(not unknown, where, f"an option has no key {sorted(unknown)}")
    return option


def normalized(found: Any) -> dict[str, Any]:
    """``found`` (the JSON read) checked, each default filled in."""
    _need(isinstance(found, dict), "top", "the definition is an object")
    limits = found.get("limits", {})
    for key in _LIMITS:
        _need(type(limits.get(key)) is int, "limits", f"{key} is a whole number")
    for key in _WORDS:
        _need(isinstance(found.get(key), str), "top", f"{key} is a text")
    checks = found.get("checks", {})
    for key in _CHECKS:
        _need(isinstance(checks.get(key), str), "checks", f"{key} is a text")
    comparisons = found.get("comparisons")
    _need(
        isinstance(comparisons, list) and bool(comparisons),
        "top",
        "comparisons is a list",
    )
    words = found.get("words", {})
    for key in _WORD_KEYS:
        _need(isinstance(words.get(key), str), "words", f"{key} is a text")
    for kind in ("refused", "refused_operators"):
        for at, refused in enumerate(found.get(kind, [])):
            keys = isinstance(refused, dict) and set(refused) == {
                "token",
                "message",
                "hint",
            }
            _need(keys, f"{kind}[{at}]", "a refused token has its message and hint")
    options = [_option(o, i) for i, o in enumerate(found.get("options", []))]
    names = [o["name"] for o in options]
    _need(len(set(names)) == len(names), "options", "each option's name is its own")
    tokens = [f["token"] for o in options for f in o["forms"]]
    tokens += [r["token"] for r in found.get("refused", [])]
    _need(len(set(tokens)) == len(tokens), "options", "each token is its own")
    for word, name in found.get("culprits", {}).items():
        _need(name in names, f"culprits.{word}", f"{name!r} is an option")
    return {
        "limits": {key: limits[key] for key in _LIMITS},
        "comparisons": list(found["comparisons"]),
        "options": options,
        "refused": [
            {"token": r["token"], "message": r["message"], "hint": r["hint"]}
            for r in found.get("refused", [])
        ],
        "refused_operators": [
            {"token": r["token"], "message": r["message"], "hint": r["hint"]}
            for r in found.get("refused_operators", [])
        ],
        "words": {key: words[key] for key in _WORD_KEYS},
        "culprits": dict(found.get("culprits", {})),
        "refusal_hints": dict(found.get("refusal_hints", {})),
        "checks": {key: checks[key] for key in _CHECKS},
        **{key: found[key] for key in _WORDS},
    }
