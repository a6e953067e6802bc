"""The schemas themselves: each is a valid Draft 2020-12 schema.

rulesc does not check this on every run (it costs more than validating the
rules); a broken schema fails here instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, validators

from rulesc.common.diagnostics import RulesError
from rulesc.front import (
    schemas,
    validate,
)
from rulesc.front.loader import load_text
from rulesc.kinds.registry import generation as registry_generation

from .conftest import ROOT
from .invalid_cases import load_cases

SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path: Path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_there_are_schemas() -> None:
    assert {p.name for p in SCHEMAS} >= {"rules.schema.json", "system.schema.json"}


def _walk(node: object) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def test_no_schema_uses_the_dynamic_scope() -> None:
    """compiler/front/validate.py resolves each $ref once: right only while no schema
    (hand-written or composed from the kinds) uses $dynamicRef."""
    for name, contents in schemas.resources(validate.SCHEMA_DIR).items():
        used = set(_walk(contents)) & {"$dynamicRef", "$dynamicAnchor", "$recursiveRef"}
        assert not used, f"{name} uses {used}"


def test_remembered_references_give_the_same_errors() -> None:
    """The validator with its $ref lookups remembered reports exactly what
    jsonschema's own reports, on every invalid case and rules file."""
    plain = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", validate._is_integer
        ),
    )
    registry = validate._registry(registry_generation())
    checked = 0
    for case in load_cases():
        try:
            source = load_text(case.data, case.shown)
        except RulesError:
            continue
        for root in ("rules.schema.json", "system.schema.json"):
            fast = validate._validator(root)
            slow = plain(
                registry.contents(root),
                registry=registry,
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            )
            mine, theirs = (
                [
                    (e.message, list(e.absolute_path), list(e.schema_path))
                    for e in validate._leaf_errors(v.iter_errors(source.data))
                ]
                for v in (fast, slow)
            )
            assert mine == theirs, case.name
            checked += 1
    assert checked > 50
