"""The schemas themselves: each is a valid Draft 2020-12 schema.

rulesc does not check this on every run (it costs more than validating the
rules); a broken schema fails here instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from .conftest import ROOT

SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path: Path) -> None:
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_there_are_schemas() -> None:
    assert {p.name for p in SCHEMAS} >= {"rules.schema.json", "system.schema.json"}
