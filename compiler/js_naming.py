"""JavaScript naming: the JavaScript name of each Python name the rules give, and its checks.

Functions, parameters and fields are the camelCase of their Python names
(``roll_to_hit`` is ``rollToHit``, ``hit_bonus`` is
``hitBonus``); classes, constants and label members keep theirs. Two different
Python names of one system that are one JavaScript name, and a name that
JavaScript (or TypeScript) reserves, are located errors at the name's line.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path as FsPath

from .diagnostics import Diagnostic
from .model import Name, System

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
# Names a record's field may not have: a plain object's own property by these
# names would hide what every object has (and JSON.stringify calls toJSON).
OBJECT_NAMES = frozenset(
    {
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
        "toJSON",
    }
)
_KEEPS_CASE = re.compile(r"[A-Z]")
RUNTIME_JS = FsPath(__file__).resolve().parent / "runtime_js"
_CLASS = re.compile(r"^export class ([\w$]+)(?: extends ([\w$.]+))? \{$", re.M)
# A member of a class body (two spaces in): a method, accessor or field.
_MEMBER = re.compile(
    r"^  (static )?(?:(?:get|set|async) )?(?:\* ?)?(#?[\w$]+) ?[(=;]", re.M
)


def camel(name: str) -> str:
    """``max_range`` -> ``maxRange`` (a name that starts upper
    case, a class or a constant, is kept as it is)."""
    if _KEEPS_CASE.match(name):
        return name
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


@cache
def class_members(module: str, name: str) -> frozenset[str]:
    """The public names every instance of class ``name`` of the JavaScript
    runtime's ``module`` (compiler/runtime_js/) has: those its body declares
    (methods, accessors, fields; not its static or #private ones), along its
    bases in the same module, and what every object has (``OBJECT_NAMES``).
    Read from the runtime's source, so a member added there is known here."""
    text = (RUNTIME_JS / module).read_text(encoding="utf-8")
    classes = {m.group(1): m for m in _CLASS.finditer(text)}
    found = set(OBJECT_NAMES)
    while name in classes:
        match = classes[name]
        end = text.index("\n}\n", match.end())
        for member in _MEMBER.finditer(text, match.end(), end):
            if not member.group(1) and not member.group(2).startswith("#"):
                found.add(member.group(2))
        name = match.group(2) or ""
    if len(found) == len(OBJECT_NAMES):
        raise ValueError(f"no class {name!r} with members in {module}")
    return frozenset(found)


def js_name(name: Name) -> str | None:
    """The JavaScript name of a name the rules give, or None when it names no
    identifier (an event is a label string in both languages)."""
    if name.what.endswith(" event"):
        return None
    return camel(name.name)


def _binds(name: Name) -> bool:
    """Whether the name is bound in the module (not only a property)."""
    return name.scope == "module" or "parameter" in name.what


def clashes(system: System) -> list[Diagnostic]:
    """Every name of ``system`` that JavaScript cannot have as the rules give it."""
    found: list[Diagnostic] = []
    first: dict[str, Name] = {}

    def report(name: Name, message: str) -> None:
        found.append(
            Diagnostic(
                name.loc.file,
                name.loc.line,
                name.loc.col,
                f"{name.what} {name.name!r} {message}",
                "choose another name",
                name.pointer,
            )
        )

    for name in system.names:
        js = js_name(name)
        if js is None:
            continue
        if _binds(name) and js in RESERVED:
            report(name, f"is {js!r} in JavaScript, a reserved word or global there")
        elif not _binds(name) and js in OBJECT_NAMES:
            report(
                name,
                f"is {js!r} in JavaScript, which every object has (Object.prototype)",
            )
        other = first.setdefault(js, name)
        if other.name != name.name:
            report(
                name,
                f"is {js!r} in JavaScript, as {other.what} {other.name!r} is "
                f"(at {other.loc.file}:{other.loc.line})",
            )
    return sorted(found)
