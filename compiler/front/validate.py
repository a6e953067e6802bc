"""Validate: check each loaded rules file against the JSON Schema in schema/."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from ..common.diagnostics import (
    Diagnostic,
    quoted,
)
from ..common.yes_no import YAML11_BOOLEANS, hint_for
from ..kinds import registry as kinds_registry
from . import schemas
from .loader import SourceFile

SCHEMA_DIR = schemas.SCHEMA_DIR
# The root schemas of the rules files (rules files, system files).
ROOTS = ("rules.schema.json", "system.schema.json")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _is_integer(checker: object, instance: object) -> bool:
    """A whole number and nothing else: not a bool, not a float such as 1.0."""
    return type(instance) is int


# JSON Schema counts 1.0 as an integer; rules data must not (it would reach the
# generated code as a float), so the integer type is strict here.
_StrictValidator: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def _remember_references(cls: type[Validator]) -> None:
    """Resolve each ``$ref`` once per base and registry, not at every use.

    jsonschema looks every reference up again each time a rule reaches it
    (``referencing``'s ``Resolver.lookup``: a URL join, a registry search, a
    JSON pointer walk), a third of the time spent validating. A lookup is
    determined by the resolver's base URI, the reference and the registry; the
    dynamic scope a resolver also carries matters only to ``$dynamicRef``, which
    no schema here uses (tests/test_schemas.py says so). A reference that does
    not resolve goes the usual way, for its usual error. Without the jsonschema
    internals this relies on (``_validate_reference``, ``_resolver``), nothing
    changes.
    """
    original = getattr(cls, "_validate_reference", None)
    if original is None:
        return
    found: dict[tuple[str, str], tuple[Any, Any]] = {}

    def _validate_reference(self: Any, ref: str, instance: object) -> Any:
        resolver: Any = getattr(self, "_resolver", None)
        base = getattr(resolver, "_base_uri", None)
        registry = getattr(resolver, "_registry", None)
        if self._ref_resolver is not None or base is None or registry is None:
            return original(self, ref, instance)
        hit = found.get((base, ref))
        if hit is None or hit[0] is not registry:
            try:
                resolved = resolver.lookup(ref)
            except Unresolvable:
                return original(self, ref, instance)
            hit = found[(base, ref)] = (registry, resolved)
        resolved = hit[1]
        return self.descend(instance, resolved.contents, resolver=resolved.resolver)

    cls._validate_reference = _validate_reference  # type: ignore[attr-defined]


_remember_references(_StrictValidator)


@cache
def _registry(generation: int) -> Registry[Any]:
    """Every schema, loaded once for all roots: the hand-written ones of schema/,
    and those composed from the registered kinds (see compiler/front/schemas.py).

    That each is a valid Draft 2020-12 schema is checked by the tests
    (tests/test_schemas.py), not on every run: checking them all costs more than
    validating the rules.
    """
    resources = []
    for name, contents in sorted(schemas.resources(SCHEMA_DIR).items()):
        # Without "$schema", a $ref into this file keeps the strict validator
        # instead of switching to the stock Draft 2020-12 one.
        contents.pop("$schema", None)
        resources.append((name, DRAFT202012.create_resource(contents)))
    return Registry().with_resources(resources)


def _validator(root: str) -> Validator:
    return _validator_of(root, kinds_registry.generation())


@cache
def _validator_of(root: str, generation: int) -> Validator:
    registry = _registry(generation)
    schema = registry.contents(root)
    validator: Validator = _StrictValidator(
        schema,
        registry=registry,
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    return validator


def schema_for(source: SourceFile) -> str:
    """The root schema a rules file is checked against, by its file name."""
    if source.path.endswith("/system.yaml"):
        return "system.schema.json"
    if source.path.count("/") <= 1 and source.path.rpartition("/")[2] == "package.yaml":
        return "package.schema.json"  # the rules folder's own settings
    return "rules.schema.json"


def modeline(source: SourceFile, root: str | None = None) -> str:
    """The first line every rules file starts with, so editors find its schema
    (``root``, by default the one its name says), in the repository's
    ``schema/``: a ``../`` for each folder the file's path (shown from the
    folder around the first rules folder, the repository's root) goes down,
    ``../schema/`` from ``rules/package.yaml``, ``../../schema/`` from a rules
    file of ``rules/SYSTEM/``, one more from ``tests/cookbook/SYSTEM/``."""
    root = root or schema_for(source)
    depth = source.path.count("/")
    if source.path.startswith("/"):  # shown whole: its own rules folder's depth
        depth = 1 if root == "package.schema.json" else 2
    return f"# yaml-language-server: $schema={'../' * max(depth, 1)}schema/{root}"


def _has_modeline(source: SourceFile, root: str) -> bool:
    """The schema line, with the schema reached by ``../`` steps from the file
    (how many is the editor's business: a rules folder may be anywhere)."""
    line = source.first_line.rstrip()
    head, _, steps = line.partition("$schema=")
    return (
        head == "# yaml-language-server: "
        and steps.endswith(f"schema/{root}")
        and re.fullmatch(r"(\.\./)+", steps.removesuffix(f"schema/{root}")) is not None
    )


def validate(source: SourceFile, root: str | None = None) -> list[Diagnostic]:
    """Every schema error of one file, located at the offending node; ``root``
    is the schema it is checked against (by default, as its name says)."""
    root = root or schema_for(source)
    validator = _validator(root)
    problems = []
    if not _has_modeline(source, root):
        problems.append(
            Diagnostic(
                source.path,
                1,
                1,
                "the file does not start with its schema line",
                f"make the first line: {modeline(source, root)}",
            )
        )
    errors = _reduced(list(_leaf_errors(validator.iter_errors(source.data))))
    # a key a missing required key was misspelt as is said once, as that
    claimed = {
        (*err.absolute_path, key)
        for err in errors
        if (key := _misspelt(err)) is not None
    }
    return problems + [
        found for err in errors for found in _diagnostics(source, err, claimed)
    ]


def _leaf_errors(errors: Iterator[ValidationError]) -> Iterator[ValidationError]:
    """The errors at the places they concern: those of ``allOf`` and ``if``, and
    of the branch of a ``oneOf`` or ``anyOf`` the value comes closest to, each
    in its own place (not one error dumping the whole value)."""
    for err in errors:
        if err.validator in ("allOf", "if") and err.context:
            yield from _leaf_errors(iter(err.context))
        elif (
            err.validator in ("oneOf", "anyOf")
            and err.context
            and not _alternative_keys(err)
        ):
            yield from _closest_branch(err)
        else:
            yield err


def _alternative_keys(err: ValidationError) -> set[str]:
    """The keys a oneOf of required keys only chooses between (said as one
    error), else none."""
    rule = err.validator_value
    if err.validator != "oneOf" or not isinstance(rule, list):
        return set()
    if not all(isinstance(sub, dict) and set(sub) == {"required"} for sub in rule):
        return set()
    return {str(sub["required"][0]) for sub in rule}


def _closest_branch(err: ValidationError) -> list[ValidationError]:
    """The errors of the branch that asks the fewest changes of the value: a
    branch of another type at the node itself only when all are."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in err.context or ():
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    best: list[ValidationError] = []
    best_cost: tuple[int, int] | None = None
    for _, subs in sorted(branches.items()):
        leaves = _reduced(list(_leaf_errors(iter(subs))))
        mismatch = any(
            e.validator in ("type", "const", "enum")
            and len(e.absolute_path) <= len(err.absolute_path) + (e.validator != "type")
            for e in leaves
        )
        cost = (int(mismatch), sum(_count(e) for e in leaves))
        if best_cost is None or cost < best_cost:
            best, best_cost = leaves, cost
    return best or [err]


def _count(err: ValidationError) -> int:
    """How many errors ``err`` is reported as (one per unknown key)."""
    if err.validator in ("additionalProperties", "unevaluatedProperties"):
        return max(1, len(_unknown_keys(err)))
    return 1


def _reduced(errors: list[ValidationError]) -> list[ValidationError]:
    """``errors`` less those a misspelt key causes beside its own error (an
    unknown key, did you mean ...?): the required key it was meant to be, the
    alternatives it was one of, and its value checked as some other key's."""
    meant: dict[tuple[Any, ...], set[str]] = {}  # object path -> keys meant
    misspelt: set[tuple[Any, ...]] = set()  # paths of misspelt keys
    for err in errors:
        path = tuple(err.absolute_path)
        if err.validator in ("additionalProperties", "unevaluatedProperties"):
            known = sorted(_known_keys(err))
            for key in _unknown_keys(err):
                close = difflib.get_close_matches(key, known, n=1)
                if close:
                    meant.setdefault(path, set()).add(close[0])
                    misspelt.add((*path, key))
        elif err.validator == "required":
            wrong = _misspelt(err)
            if wrong is not None:
                misspelt.add((*path, wrong))
    if not meant and not misspelt:
        return errors
    kept = []
    for err in errors:
        path = tuple(err.absolute_path)
        if any(path[: len(m)] == m for m in misspelt):
            continue  # the value of a misspelt key, checked as another's
        if err.validator == "required" and _missing_key(err) in meant.get(path, ()):
            continue  # said by the unknown key's error
        if meant.get(path, set()) & _alternative_keys(err):
            continue
        kept.append(err)
    return kept


def _misspelt(err: ValidationError) -> str | None:
    """The key of the mapping a missing required key was misspelt as, if one
    the schema does not know is close to it."""
    value = err.instance
    if err.validator != "required" or not isinstance(value, dict):
        return None
    name = _missing_key(err)
    known = _known_keys(err) | _every_key(kinds_registry.generation())
    others = [k for k in value if isinstance(k, str) and k not in known and k != name]
    close = difflib.get_close_matches(name, others, n=1)
    return close[0] if close else None


def _missing_key(err: ValidationError) -> str:
    missing = _QUOTED.search(err.message)
    return missing.group(1) if missing else "?"


def _unknown_keys(err: ValidationError) -> list[str]:
    """The keys of the mapping ``err`` is about that its schema does not allow."""
    value = err.instance
    if not isinstance(value, dict):
        return []
    extra = [k for k in _QUOTED.findall(err.message) if k in value]
    known = _known_keys(err)
    if known and not extra:
        # keys jsonschema quotes otherwise (with a quote mark in them)
        extra = [k for k in value if k not in known]
    return extra


def _diagnostics(
    source: SourceFile,
    err: ValidationError,
    claimed: AbstractSet[tuple[Any, ...]] = frozenset(),
) -> list[Diagnostic]:
    """The errors one schema error stands for: one per unknown key, each at its
    own key, else one at the node."""
    path = tuple(err.absolute_path)
    if err.validator in ("additionalProperties", "unevaluatedProperties"):
        extra = _unknown_keys(err)
        if extra and all((*path, key) in claimed for key in extra):
            return []
        known = sorted(_known_keys(err))
        return [
            source.error(
                (*path, key),
                f"unknown key {quoted(key)}",
                closed_set_hint(key, known, "allowed keys: ", quote=False),
                key=True,
            )
            for key in extra
            if (*path, key) not in claimed
        ] or [source.error(path, "unknown key '?'")]
    key = _misspelt(err)
    if key is not None:
        return [
            source.error(
                (*path, key),
                f"unknown key {quoted(key)}",
                f"did you mean {_missing_key(err)!r}? (it is required)",
                key=True,
            )
        ]
    message, hint = _explain(err)
    return [source.error(path, message, hint)]


def closed_set_hint(
    word: object, choices: list[Any], label: str, *, quote: bool = True
) -> str | None:
    """The hint for a word outside a closed set of words (the keys of a mapping,
    a schema's ``enum``: a kind, a column type, a rounding, a hit policy): the
    one it is closest to, else ``label`` and all of them."""
    if isinstance(word, str):
        shown = {str(c): c for c in choices}
        close = difflib.get_close_matches(word, list(shown), n=1)
        if close:
            return f"did you mean {shown[close[0]]!r}?"
    if not choices:
        return None
    return label + ", ".join(repr(c) if quote else str(c) for c in choices)


def _explain(err: ValidationError) -> tuple[str, str | None]:
    """Message and hint of a schema error at a node."""
    kind = err.validator
    value = err.instance
    rule: Any = err.validator_value
    schema = err.schema if isinstance(err.schema, dict) else {}
    if kind == "required":
        name = _missing_key(err)
        return f"missing required key '{name}'", f"add '{name}:' here"
    if kind == "enum":
        return (
            f"{quoted(value)} is not one of the allowed values",
            closed_set_hint(value, list(rule), "use one of "),
        )
    if kind == "const":
        return f"{quoted(value)} should be {quoted(err.validator_value)}", None
    if kind == "type":
        expected = err.validator_value
        names = " or ".join(expected) if isinstance(expected, list) else expected
        if value is None and not err.absolute_path:
            required = [f"{k}:" for k in schema.get("required", ["system"])]
            return "the file is empty", f"it needs {listing(required)}"
        return (
            f"{_show(value)} is not of type {names}",
            _type_hint(value, str(names)),
        )
    if kind == "pattern":
        return f"{quoted(value)} is not a valid name here", schema.get("description")
    if kind == "oneOf" and all(set(sub) == {"required"} for sub in rule):
        keys = " or ".join(f"'{sub['required'][0]}'" for sub in rule)
        return f"needs exactly one of {keys}", None
    # jsonschema's own message starts with the value's repr: cut it if long
    message = err.message.replace(repr(value), quoted(value), 1)
    return message, schema.get("description")


def listing(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _known_keys(err: ValidationError) -> set[str]:
    schema = err.schema if isinstance(err.schema, dict) else {}
    keys = set(schema.get("properties", {}))
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("common.schema.json#/$defs/"):
        keys |= set(_common_defs().get(ref.rsplit("/", 1)[1], {}).get("properties", {}))
    return keys


@cache
def _every_key(generation: int) -> frozenset[str]:
    """Every key some schema names, for a mapping whose own schema names none
    (a rule before its kind is known)."""
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                keys.update(properties)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schemas.resources(SCHEMA_DIR))
    return frozenset(keys)


@cache
def _common_defs() -> dict[str, Any]:
    data = json.loads((SCHEMA_DIR / "common.schema.json").read_text(encoding="utf-8"))
    defs: dict[str, Any] = data["$defs"]
    return defs


def _type_hint(value: object, expected: str) -> str | None:
    """How to write ``value`` as the ``expected`` type, for the usual slips."""
    if "boolean" in expected and isinstance(value, str) and value in YAML11_BOOLEANS:
        return hint_for(value)
    if "integer" in expected and isinstance(value, bool):
        return "true and false are not numbers; write a whole number"
    if "integer" in expected and isinstance(value, float):
        return "write a whole number, without a decimal point or exponent"
    if "integer" in expected and isinstance(value, str) and value.strip().isdecimal():
        return "remove the quotes to make it a number"
    if "string" in expected and value is None:
        return "give a value; an empty value is null"
    if "string" in expected and isinstance(value, bool | int | float):
        return f'quote it to make it text: "{str(value).lower() if isinstance(value, bool) else value}"'
    return None


def _show(value: object) -> str:
    """A value as the rules file writes it: true, false, null, 'text', 12."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return quoted(value)
