"""Worked examples: each example in rules/ is one test, run on the committed runtime."""

from __future__ import annotations

import importlib

import pytest

from rulesc.examples import run_example
from rulesc.front.model import (
    Example,
    Rule,
)

from .conftest import project_systems

CASES = [
    pytest.param(system.id, rule, ex, id=f"{rule.qualified_id}:{ex.name}")
    for system in project_systems()
    for rule in system.rules
    for ex in rule.examples
]


@pytest.mark.parametrize(("system", "rule", "example"), CASES)
def test_worked_example(system: str, rule: Rule, example: Example) -> None:
    module = importlib.import_module(f"rulebook.{system}")
    assert run_example(module, rule, example) is None


def test_every_rule_has_an_example() -> None:
    for system in project_systems():
        for rule in system.rules:
            assert rule.examples, f"{rule.qualified_id} has no worked example"
