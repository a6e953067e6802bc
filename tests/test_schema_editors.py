"""The schema as editors and other tools read it.

Every property explains itself (editors show the description as you type); the
editor settings map rules/ to the right schema; and check-jsonschema, a stock JSON
Schema validator, agrees with ``rulesc validate`` on every schema-level case of the
invalid-rules corpus, and on the real rules.
"""

from __future__ import annotations

import fnmatch
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.front.loader import load_text
from rulesc.front.validate import validate

from .conftest import ROOT, RULES
from .invalid_cases import load_cases

SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))
MODELINE = "the file does not start with its schema line"


def _properties(node: Any, where: str) -> Iterator[tuple[str, Any]]:
    """Every property schema, by its place; ``if`` conditions are not properties."""
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{where}/properties/{name}", sub
        for key, value in node.items():
            if key != "if":
                yield from _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _properties(value, f"{where}/{index}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text("utf-8"))
    missing = [
        where
        for where, sub in _properties(schema, path.name)
        if isinstance(sub, dict) and not sub.get("description")
    ]
    assert not missing, missing


def test_examples_and_choices_where_they_help() -> None:
    found = {
        where.rsplit("/", 1)[1]
        for path in SCHEMAS
        for where, sub in _properties(json.loads(path.read_text("utf-8")), path.name)
        if isinstance(sub, dict) and ("examples" in sub or "enum" in sub)
    }
    assert {"kind", "type", "rounding", "dice_notation", "expression", "when"} <= found


def test_vscode_maps_every_rules_file_to_one_schema() -> None:
    settings = json.loads((ROOT / ".vscode" / "settings.json").read_text("utf-8"))
    mapping: dict[str, list[str]] = settings["yaml.schemas"]
    for schema in mapping:
        assert (ROOT / schema).is_file(), schema
    for path in sorted(RULES.glob("*/*.yaml")):
        rel = PurePosixPath(path.relative_to(ROOT).as_posix())
        chosen = [
            schema
            for schema, globs in mapping.items()
            if any(_matches(rel, g) for g in globs if not g.startswith("!"))
            and not any(_matches(rel, g[1:]) for g in globs if g.startswith("!"))
        ]
        want = "system" if path.name == "system.yaml" else "rules"
        assert chosen == [f"./schema/{want}.schema.json"], (rel, chosen)
        assert path.read_text("utf-8").startswith(
            f"# yaml-language-server: $schema=../../schema/{want}.schema.json"
        )


def _matches(path: PurePosixPath, pattern: str) -> bool:
    """A glob without ``**``: each part of the path matches a part of the pattern."""
    parts = pattern.split("/")
    return len(parts) == len(path.parts) and all(
        fnmatch.fnmatchcase(p, g) for p, g in zip(path.parts, parts, strict=True)
    )


def _check_jsonschema(schema: str, files: list[Path]) -> set[str]:
    """The files check-jsonschema rejects (it is a dev dependency)."""
    tool = Path(sys.executable).with_name("check-jsonschema")
    assert tool.exists(), "check-jsonschema is missing: pip install -e '.[dev]'"
    done = subprocess.run(
        [str(tool), "-o", "json", "--schemafile", str(ROOT / "schema" / schema)]
        + [str(f) for f in files],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(done.stdout)
    assert not report.get("parse_errors"), report["parse_errors"]
    return {Path(e["filename"]).name for e in report.get("errors", [])}


def _strict_integer_only(problems: list[str]) -> bool:
    """rulesc's integers are strict (5.0 is no integer); JSON Schema's are not."""
    return bool(problems) and all(
        p.endswith("is not of type integer") and "." in p.split()[0] for p in problems
    )


def test_check_jsonschema_agrees_with_rulesc_validate(tmp_path: Path) -> None:
    verdicts: dict[str, list[str]] = {}
    for case in load_cases():
        try:
            source = load_text(case.data, case.shown)
        except RulesError:
            continue  # not YAML that loads: no schema-level case
        problems = [d.message for d in validate(source) if d.message != MODELINE]
        (tmp_path / f"{case.name}.yaml").write_bytes(case.data)
        verdicts[f"{case.name}.yaml"] = problems
    real = sorted(p for p in RULES.glob("*/*.yaml") if p.name != "system.yaml")
    rejected = _check_jsonschema(
        "rules.schema.json", [*sorted(tmp_path.glob("*.yaml")), *real]
    )
    assert not rejected & {p.name for p in real}, "the real rules are valid"
    schema_level = {name for name, problems in verdicts.items() if problems}
    assert len(schema_level) >= 10, "the corpus should hold schema-level cases"
    for name, problems in sorted(verdicts.items()):
        if _strict_integer_only(problems):
            assert name not in rejected, name  # the one known difference
        else:
            assert (name in rejected) == bool(problems), (name, problems)
    assert any(_strict_integer_only(p) for p in verdicts.values())


def test_check_jsonschema_accepts_the_real_systems() -> None:
    systems = sorted(RULES.glob("*/system.yaml"))
    assert _check_jsonschema("system.schema.json", systems) == set()
