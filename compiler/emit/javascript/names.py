"""JavaScript naming: the one table of names JavaScript, TypeScript and the runtime hold, and each rule name's spelling in JavaScript.

Functions, parameters and fields are the camelCase of the rules' names
(``roll_to_hit`` is ``rollToHit``, ``hit_bonus`` is ``hitBonus``); classes,
constants and label members keep theirs. The rules keep their names: one that
JavaScript or its runtime has already (a reserved word or global, a TypeScript
type, what every object has, ``then``, the ``rng`` argument) gets one more
``_`` (``class`` is ``class_``, ``constructor`` is ``constructor_``, ``Object``
is ``Object_``), and so does such a name already ending in ``_``; a field,
property or method also where its class already has that member. Everything
else the generated code names for itself starts with ``$`` or ``_``. Two
different names of one system that are one JavaScript name once camelCased
(``reach_2`` and ``reach2``) are a located error at the second.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path as FsPath
from typing import Literal

from ...common.diagnostics import Diagnostic
from ...front.model import (
    Name,
    System,
)

# Words a JavaScript module (strict mode) may not bind, and the names of the
# globals and TypeScript types the generated code and its .d.ts use.
RESERVED = frozenset(
    {
        *[
            "await",
            "break",
            "case",
            "catch",
            "class",
            "const",
            "continue",
            "debugger",
            "default",
            "delete",
            "do",
            "else",
            "enum",
            "export",
            "extends",
            "false",
            "finally",
            "for",
            "function",
            "if",
            "import",
            "in",
            "instanceof",
            "new",
            "null",
            "return",
            "super",
            "switch",
            "this",
            "throw",
            "true",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "with",
            "yield",
            "let",
            "static",
            "implements",
            "interface",
            "package",
            "private",
            "protected",
            "public",
            "arguments",
            "eval",
            "undefined",
            "NaN",
            "Infinity",
            "globalThis",
        ],
        *[
            "Object",
            "Array",
            "Map",
            "Set",
            "Symbol",
            "Number",
            "String",
            "Boolean",
            "BigInt",
            "Math",
            "JSON",
            "Error",
            "TypeError",
            "RangeError",
            "Readonly",
            "ReadonlyArray",
            "ReadonlyMap",
            "Record",
            "Iterable",
            "Promise",
        ],
        *[
            "any",
            "unknown",
            "never",
            "object",
            "number",
            "string",
            "boolean",
            "bigint",
            "symbol",
        ],
    }
)
# What every object has: Object.prototype's own properties (ECMAScript's, with
# Annex B's), which a record's field or a module's export by one of these names
# would hide (String(x) calls toString, JSON.stringify calls toJSON, ...).
# The language's, not the runtime's: tests/test_js_names.py checks the list
# against Node's Object.getOwnPropertyNames(Object.prototype).
OBJECT_NAMES = frozenset(
    {
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
        "__proto__",
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
    }
)
# Names JavaScript itself calls on an object it is given, whatever the object,
# and why: a module or object with any of these as a method is no longer data.
CALLED_NAMES = {
    "then": "which makes a module or object a thenable that await and import() "
    "call (a module exporting it never loads)",
    "toJSON": "which JSON.stringify calls",
}
# A module's exports may not be what every function and class has either.
FUNCTION_NAMES = frozenset({"prototype"})
_KEEPS_CASE = re.compile(r"[A-Z]")
RUNTIME_JS = FsPath(__file__).resolve().parents[2] / "runtime_js"
_CLASS = re.compile(r"^export class ([\w$]+)(?: extends ([\w$.]+))? \{$", re.M)
# A member of a class body (two spaces in): a method, accessor or field.
_MEMBER = re.compile(
    r"^  (static )?(?:(?:get|set|async) )?(?:\* ?)?(#?[\w$]+) ?[(=;]", re.M
)


def camel(name: str) -> str:
    """``max_range`` -> ``maxRange`` (a name that starts upper
    case, a class or a constant, is kept as it is; so are underscores at its
    end: ``class_`` -> ``class_``)."""
    if _KEEPS_CASE.match(name):
        return name
    stem = name.rstrip("_")
    first, *rest = stem.split("_")
    tail = "_" * (len(name) - len(stem))
    return first + "".join(part[:1].upper() + part[1:] for part in rest) + tail


RNG = "rng"
"""The argument every function that rolls takes (a public name)."""
TAKEN = RESERVED | OBJECT_NAMES | CALLED_NAMES.keys() | FUNCTION_NAMES | {RNG}
"""Every JavaScript name of the rules' that JavaScript or the runtime has."""


def _renamed(js: str, taken: frozenset[str] | set[str]) -> str:
    return js + "_" if js.rstrip("_") in taken else js


def jsname(name: str) -> str:
    """The JavaScript name of a name the rules give (a function, class,
    constant, parameter, bound name): ``class`` -> ``class_``,
    ``hit_bonus`` -> ``hitBonus``, ``Object`` -> ``Object_``."""
    return _renamed(camel(name), TAKEN)


# A record (a frozen object of json.js's ``record``), or a state's class, whose
# instances change (``mutable``: a ``RecordState`` of _state.js).
JsBase = Literal["record", "mutable"]


@cache
def _members(base: JsBase) -> frozenset[str]:
    if base == "mutable":
        return frozenset(TAKEN | class_members("_state.js", "RecordState"))
    return frozenset(TAKEN | record_members())


def jsattr(name: str, base: JsBase = "record") -> str:
    """The JavaScript name of a field, property or method of a record or a
    state class (``base``): renamed also where every one already has it."""
    return _renamed(camel(name), _members(base))


@cache
def class_members(module: str, name: str) -> frozenset[str]:
    """The public names every instance of class ``name`` of the JavaScript
    runtime's ``module`` (compiler/runtime_js/) has: those its body declares
    (methods, accessors, fields; not its static or #private ones), along its
    bases in the same module, what every object has (``OBJECT_NAMES``) and what
    JavaScript calls on one (``CALLED_NAMES``). Read from the runtime's source,
    so a member added there is known here."""
    text = (RUNTIME_JS / module).read_text(encoding="utf-8")
    classes = {m.group(1): m for m in _CLASS.finditer(text)}
    found = set(OBJECT_NAMES | CALLED_NAMES.keys())
    base = len(found)
    while name in classes:
        match = classes[name]
        end = text.index("\n}\n", match.end())
        for member in _MEMBER.finditer(text, match.end(), end):
            if not member.group(1) and not member.group(2).startswith("#"):
                found.add(member.group(2))
        name = match.group(2) or ""
    if len(found) == base:
        raise ValueError(f"no class {name!r} with members in {module}")
    return frozenset(found)


# The record of the runtime (json.js's ``record``): the names it defines on
# every record besides its fields, read from its body.
_RECORD = re.compile(r"^export function record\([^)]*\) \{$", re.M)


@cache
def record_members() -> frozenset[str]:
    """The names every record of the JavaScript runtime has besides its fields
    (json.js's ``record`` defines them, as ``toJSON``), and what every object
    has (``OBJECT_NAMES``). Read from the runtime's source."""
    text = (RUNTIME_JS / "json.js").read_text(encoding="utf-8")
    match = _RECORD.search(text)
    if match is None:
        raise ValueError("no function record in json.js")
    end = text.index("\n}\n", match.end())
    defined = re.findall(
        r'Object\.defineProperty\([\w$]+, "([\w$]+)"', text[match.end() : end]
    )
    if not defined:
        raise ValueError("json.js's record defines no member")
    return frozenset(defined) | OBJECT_NAMES


def js_name(name: Name) -> str | None:
    """The camelCase of a name the rules give, or None when it names no
    identifier (an event is a label string in both languages)."""
    if name.what.endswith(" event"):
        return None
    return camel(name.name)


def clashes(system: System) -> list[Diagnostic]:
    """Every name of ``system`` that is another's in JavaScript (camelCased)."""
    found: list[Diagnostic] = []
    first: dict[str, Name] = {}
    for name in system.names:
        js = js_name(name)
        if js is None:
            continue
        other = first.setdefault(js, name)
        if other.name != name.name:
            found.append(
                Diagnostic(
                    name.loc.file,
                    name.loc.line,
                    name.loc.col,
                    f"{name.what} {name.name!r} is {js!r} in JavaScript, as "
                    f"{other.what} {other.name!r} is "
                    f"(at {other.loc.file}:{other.loc.line})",
                    "choose another name",
                    name.pointer,
                )
            )
    return sorted(found)
