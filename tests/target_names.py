"""Target names: every name the emitters and runtimes of both targets introduce,
and both targets' keywords, built-ins and globals, as the rules could write them.

Derived, not listed by hand: from the emitters' own tables (``py_names``,
``js_naming``: keywords, built-ins, imports, the rng, base classes' members)
and by parsing the generated modules and the runtimes of both languages (every
identifier they hold). A camelCase JavaScript name is also offered as the
rules would write it (``toString`` as ``to_string``), and some names with an
underscore after them (``class_``, which Python's ``class`` becomes).
Each pool holds the names of one shape the schema takes where a name is given.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from rulesc.emit.javascript import names as js_naming
from rulesc.emit.python import files as python_target
from rulesc.lang import py_names
from rulesc.lang.expr import KEYWORDS

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
LOWER = re.compile(r"[a-z][a-z0-9_]{0,62}")  # a function's, parameter's, field's...
CLASS = re.compile(r"[A-Z][A-Za-z0-9]{0,62}")  # an enum's, a record's, a state's
MEMBER = re.compile(r"[A-Z][A-Z0-9_]{0,62}")  # an enum member's
DICE_LIKE = re.compile(r"d[0-9]")  # read as dice notation: refused where given
_JS_WORD = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")


def python_identifiers(text: str) -> set[str]:
    """Every identifier of Python code (names, arguments, attributes, imports,
    definitions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            found.add(node.name)
    return found


def _javascript_identifiers(text: str) -> set[str]:
    """The words of JavaScript code (strings and comments left out roughly:
    a word of one is a name the rules may write as well)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`', '""', text)
    return set(_JS_WORD.findall(text))


def _snake(name: str) -> str:
    """How the rules write a camelCase name (``hasOwnProperty``: ``has_own_property``)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


@cache
def target_names() -> frozenset[str]:
    """Every name of both targets' tables and generated code, as written there."""
    names: set[str] = set(py_names.TAKEN) | set(js_naming.TAKEN)
    for members in py_names.MEMBERS.values():
        names |= members
    names |= js_naming.class_members("_state.js", "RecordState")
    names |= js_naming.record_members()
    for path in sorted((GENERATED / "rulebook").glob("*.py")):
        names |= python_identifiers(path.read_text("utf-8"))
    for path in sorted((GENERATED / "js").glob("*.js")):
        names |= _javascript_identifiers(path.read_text("utf-8"))
    for name in python_target.support_modules():
        names.add(Path(name).stem)
    return frozenset(names)


@cache
def _written() -> frozenset[str]:
    """The names as the rules may write them: as they are, snake_cased, and
    some with one more underscore."""
    base = target_names()
    found = set(base) | {_snake(n) for n in base}
    found |= {n + "_" for n in ("class", "rng", "round", "self", "then", "default")}
    return frozenset(n for n in found if not n.startswith(("_", "$")))


def pool(shape: re.Pattern[str], *, in_expressions: bool = False) -> list[str]:
    """The names of ``shape`` (``LOWER``, ``CLASS``, ``MEMBER``), sorted; for a
    name an expression reads, not a word of the expression language (``if``,
    ``null``) nor one that reads as dice (``d6x``): the rules refuse those
    there, whatever the targets."""
    names = [n for n in sorted(_written()) if shape.fullmatch(n)]
    if in_expressions:
        names = [n for n in names if n not in KEYWORDS and not DICE_LIKE.match(n)]
    return [n for n in names if not DICE_LIKE.match(n)]
