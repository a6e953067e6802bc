"""Dice spec printers: the definition as a data module of each runtime (Python; JavaScript and its types).

``python -m rulesc.emit.dice_spec`` prints the Python runtime's copy the compiler
itself reads (``compiler/runtime/_dice_spec.py``) again from the definition.

Each printer writes data only (literals, frozen): the runtimes' parsers and
work budgets read it; nothing in it runs. JavaScript's field names are the
Python runtime's in camelCase, as its ``Pool`` takes them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["RUNTIME_SPEC", "javascript", "printed", "python", "typescript"]

_SOURCE = "compiler/lang/dice_spec/notation.json"
_PY_HEAD = f'''"""Dice spec: the dice notation's one definition, as data (printed from {_SOURCE}).

Edit the definition, not this module (``python -m rulesc.emit.dice_spec`` prints it
again; the build prints it into the generated package). Its limits, work
budget, and each option of a pool: tokens, argument, defaults, checks, words.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = [
    "CHECKS", "COMPARISONS", "CULPRITS", "DEPTH", "DICE_WORK_PER_ENTRY", "HINT", "MAX_DEPTH",
    "MAX_DIGITS", "MAX_NESTING", "MAX_TERMS", "MORE_OPTIONS", "NO_MORE_OPTIONS",
    "ODDS_WORK_PER_ENTRY", "OPTIONS", "PRODUCT_BITS", "REFUSAL_HINTS", "REFUSED",
    "REFUSED_OPERATORS", "SECOND", "SQUARE_BITS", "SUM_BITS", "WORDS", "Argument",
    "Form", "Option", "Refused",
]


class Argument(NamedTuple):
    """What follows a token: a comparison (``shape`` "compare", its ``op`` when
    none is written), a whole number ("number", ``default`` when none is,
    ``signed``: it may be negative) or nothing ("none"), set into the pool's
    ``field``; ``optional``: read only where one starts."""

    shape: str
    field: str
    what: str
    op: str | None
    optional: bool
    signed: bool
    default: int | None
    least: int | None
    below_least: str


class Form(NamedTuple):
    """One way to write an option: its token and the fields it sets
    (``required``: its number is written, whatever the default)."""

    token: str
    sets: tuple[tuple[str, bool | str], ...]
    in_formulas: bool
    required: bool


class Option(NamedTuple):
    """An option of a pool, written at most once (``repeats``: several make
    one AnyOf): its words, the argument after its token, and its forms;
    ``in_groups``: a group takes it too."""

    name: str
    noun: str
    takes: str
    takes_after: tuple[tuple[str, str], ...]
    hidden_when: tuple[tuple[str, tuple[str, ...]], ...]
    repeats: bool
    in_groups: bool
    argument: Argument
    forms: tuple[Form, ...]


class Refused(NamedTuple):
    """A token refused (after a pool's sides, or as an operator), with its message and hint."""

    token: str
    message: str
    hint: str

'''


def _py_argument(a: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={a[k]!r}" for k in a)
    return f"Argument({fields})"


def _py_form(f: dict[str, Any]) -> str:
    sets = tuple(f["sets"].items())
    return (
        f"Form(token={f['token']!r}, sets={sets!r}, in_formulas={f['in_formulas']!r}, "
        f"required={f['required']!r})"
    )


def _py_option(o: dict[str, Any]) -> str:
    after = tuple(o["takes_after"].items())
    hidden = tuple((k, tuple(v)) for k, v in o["hidden_when"].items())
    forms = "".join(f"{_py_form(f)}," for f in o["forms"])
    return (
        f"Option(name={o['name']!r}, noun={o['noun']!r}, takes={o['takes']!r}, "
        f"takes_after={after!r}, hidden_when={hidden!r}, repeats={o['repeats']!r}, "
        f"in_groups={o['in_groups']!r}, "
        f"argument={_py_argument(o['argument'])}, forms=({forms}))"
    )


def python(spec: dict[str, Any]) -> str:
    """The Python runtime's ``_dice_spec.py`` (to be formatted by ruff)."""
    lines = [_PY_HEAD]
    lines += [f"{k.upper()}: Final = {v!r}" for k, v in spec["limits"].items()]
    lines.append(f"COMPARISONS: Final = {tuple(spec['comparisons'])!r}")
    options = "".join(f"{_py_option(o)}," for o in spec["options"])
    lines.append(f"OPTIONS: Final[tuple[Option, ...]] = ({options})")
    refused = "".join(f"Refused(**{r!r})," for r in spec["refused"])
    lines.append(f"REFUSED: Final[tuple[Refused, ...]] = ({refused})")
    operators = "".join(f"Refused(**{r!r})," for r in spec["refused_operators"])
    lines.append(f"REFUSED_OPERATORS: Final[tuple[Refused, ...]] = ({operators})")
    lines.append(f"WORDS: Final[dict[str, str]] = {spec['words']!r}")
    lines.append(f"CULPRITS: Final = {tuple(spec['culprits'].items())!r}")
    lines.append(f"REFUSAL_HINTS: Final = {tuple(spec['refusal_hints'].items())!r}")
    lines.append(f"CHECKS: Final[dict[str, str]] = {spec['checks']!r}")
    for key in ("hint", "no_more_options", "more_options", "second"):
        lines.append(f"{key.upper()}: Final = {spec[key]!r}")
    return "\n".join(lines) + "\n"


def _camel(name: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)


def _js_option(o: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": o["name"],
        "noun": o["noun"],
        "takes": o["takes"],
        "takesAfter": o["takes_after"],
        "hiddenWhen": {_camel(k): v for k, v in o["hidden_when"].items()},
        "repeats": o["repeats"],
        "inGroups": o["in_groups"],
        "argument": {
            _camel(k): _camel(v) if k == "field" else v
            for k, v in o["argument"].items()
        },
        "forms": [
            {
                "token": f["token"],
                "sets": {_camel(k): v for k, v in f["sets"].items()},
                "inFormulas": f["in_formulas"],
                "required": f["required"],
            }
            for f in o["forms"]
        ],
    }


def _js_value(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)


def javascript(spec: dict[str, Any]) -> str:
    """The JavaScript runtime's ``_dice_spec.js``: the same data, frozen."""
    out = [
        "/**",
        " * Dice spec: the dice notation's one definition, as data (printed from",
        f" * {_SOURCE}; edit that, not this). Its limits, work budget, and each",
        " * option of a pool: tokens, argument, defaults, checks, words.",
        " */",
        "",
        "function frozen(value) {",
        '  if (value !== null && typeof value === "object") {',
        "    Object.values(value).forEach(frozen);",
        "    Object.freeze(value);",
        "  }",
        "  return value;",
        "}",
        "",
    ]
    for key, value in spec["limits"].items():
        out.append(f"export const {key.upper()} = {value};")
    out.append(f"export const COMPARISONS = frozen({_js_value(spec['comparisons'])});")
    options = [_js_option(o) for o in spec["options"]]
    out.append(f"export const OPTIONS = frozen({_js_value(options)});")
    out.append(f"export const REFUSED = frozen({_js_value(spec['refused'])});")
    operators = _js_value(spec["refused_operators"])
    out.append(f"export const REFUSED_OPERATORS = frozen({operators});")
    out.append(f"export const WORDS = frozen({_js_value(spec['words'])});")
    culprits = list(spec["culprits"].items())
    out.append(f"export const CULPRITS = frozen({_js_value(culprits)});")
    hints = list(spec["refusal_hints"].items())
    out.append(f"export const REFUSAL_HINTS = frozen({_js_value(hints)});")
    out.append(f"export const CHECKS = frozen({_js_value(spec['checks'])});")
    for key in ("hint", "no_more_options", "more_options", "second"):
        out.append(f"export const {key.upper()} = {json.dumps(spec[key])};")
    return "\n".join(out) + "\n"


_DTS = """/** Dice spec: the dice notation's one definition, as data (printed from
 * compiler/lang/dice_spec/notation.json). */

/** What follows a token: a comparison or a whole number, set into `field`. */
export interface Argument {
  readonly shape: "compare" | "number" | "none";
  readonly field: string;
  readonly what: string;
  readonly op: string | null;
  readonly optional: boolean;
  readonly signed: boolean;
  readonly default: number | null;
  readonly least: number | null;
  readonly belowLeast: string;
}

/** One way to write an option: its token and the fields it sets. */
export interface Form {
  readonly token: string;
  readonly sets: Readonly<Record<string, boolean | string>>;
  readonly inFormulas: boolean;
  readonly required: boolean;
}

/** An option of a pool, written at most once: its words, the argument after
 * its token, and its forms. */
export interface Option {
  readonly name: string;
  readonly noun: string;
  readonly takes: string;
  readonly takesAfter: Readonly<Record<string, string>>;
  readonly hiddenWhen: Readonly<Record<string, readonly string[]>>;
  readonly repeats: boolean;
  readonly inGroups: boolean;
  readonly argument: Argument;
  readonly forms: readonly Form[];
}

/** A token refused after a pool's sides, with its message and hint. */
export interface Refused {
  readonly token: string;
  readonly message: string;
  readonly hint: string;
}

"""


def typescript(spec: dict[str, Any]) -> str:
    """The types of ``_dice_spec.js``."""
    out = [_DTS.rstrip("\n"), ""]
    out += [f"export const {k.upper()}: number;" for k in spec["limits"]]
    out += [
        "export const COMPARISONS: readonly string[];",
        "export const OPTIONS: readonly Option[];",
        "export const REFUSED: readonly Refused[];",
        "export const REFUSED_OPERATORS: readonly Refused[];",
        "export const WORDS: Readonly<Record<string, string>>;",
        "export const CULPRITS: readonly (readonly [string, string])[];",
        "export const REFUSAL_HINTS: readonly (readonly [string, string])[];",
        "export const CHECKS: Readonly<Record<string, string>>;",
    ]
    out += [
        f"export const {k.upper()}: string;"
        for k in ("hint", "no_more_options", "more_options", "second")
    ]
    return "\n".join(out) + "\n"


RUNTIME_SPEC = Path(__file__).resolve().parents[1] / "runtime" / "_dice_spec.py"
"""The printed module the compiler's own Python runtime reads."""


def printed() -> str:
    """The Python runtime's ``_dice_spec.py`` as the definition prints it."""
    from ..lang.dice_spec import load
    from .python.format import format_python

    return format_python(python(load()), "_dice_spec.py")


if __name__ == "__main__":
    RUNTIME_SPEC.write_text(printed(), encoding="utf-8")
