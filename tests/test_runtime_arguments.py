"""Runtime input: every generated function answers or raises RuleInputError.

Random arguments are thrown at every public function of the committed runtime.
Whatever comes in, the function returns or raises ``RuleInputError`` (never a
``TypeError``, ``KeyError`` or a wrong answer); where the rules model says what is
valid (table labels, formula parameters), valid arguments are answered within the
formula's range and invalid ones are refused with a message naming the parameter
and the valid choices.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from enum import Enum
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rulebook.errors import RuleInputError

from rulesc.front.model import (
    EnumType,
    Param,
    System,
)
from rulesc.kinds.formula.model import FormulaRule
from rulesc.kinds.table.model import TableRule

from .conftest import project_systems

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.builds(object),
    st.just(Enum),
)


@cache
def _systems() -> tuple[System, ...]:
    return tuple(project_systems())


def _module(system: System) -> ModuleType:
    return importlib.import_module(f"rulebook.{system.id}")


def _public_functions() -> list[tuple[str, Callable[..., Any]]]:
    found: list[tuple[str, Callable[..., Any]]] = []
    for system in _systems():
        module = _module(system)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value):
                found.append((f"{system.id}.{name}", value))
    return found


def _rules(kind: type) -> list[tuple[System, Any]]:
    return [(s, r) for s in _systems() for r in s.rules if isinstance(r, kind)]


FUNCTIONS = _public_functions()
TABLES = _rules(TableRule)
FORMULAS = _rules(FormulaRule)


def test_the_runtime_has_functions_to_throw_arguments_at() -> None:
    names = {name for name, _ in FUNCTIONS}
    assert {"d20_scifi.cover", "d20_scifi.crawl_speed"} <= names
    assert TABLES and FORMULAS


@pytest.mark.parametrize(("name", "function"), FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
@SETTINGS
@given(data=st.data())
def test_any_arguments_are_answered_or_refused(
    name: str, function: Callable[..., Any], data: st.DataObject
) -> None:
    params = inspect.signature(function).parameters
    args = {p: data.draw(JUNK, label=p) for p in params}
    try:
        function(**args)
    except RuleInputError as exc:
        assert any(p in str(exc) for p in params), exc


def _labels(enum: EnumType) -> st.SearchStrategy[str]:
    labels = [m.label for m in enum.members]
    return st.sampled_from(labels).flatmap(
        lambda label: st.sampled_from([label, label.upper(), label.lower()])
    )


def _is_label(enum: EnumType, value: object) -> bool:
    if isinstance(value, Enum):  # a member of another enum is a mistake, not a label
        return type(value).__name__ == enum.name
    folded = value.casefold() if isinstance(value, str) else None
    return any(m.label.casefold() == folded for m in enum.members)


def _refusal_names_choices(enum: EnumType, param: str, exc: RuleInputError) -> None:
    assert str(exc).startswith(f"{param} must be one of ")
    for member in enum.members:
        assert repr(member.label) in str(exc)


@pytest.mark.parametrize(("system", "rule"), TABLES, ids=[r.id for _, r in TABLES])
@SETTINGS
@given(data=st.data())
def test_table_lookups(system: System, rule: TableRule, data: st.DataObject) -> None:
    module = _module(system)
    enum_class = getattr(module, rule.enum.name)
    value = data.draw(
        st.one_of(_labels(rule.enum), st.sampled_from(list(enum_class)), JUNK)
    )
    lookup = getattr(module, rule.function)
    if _is_label(rule.enum, value):
        member = (
            enum_class(value)
            if isinstance(value, Enum)
            else next(m for m in enum_class if m.value.casefold() == value.casefold())
        )
        assert lookup(value) == lookup(member.value)
        return
    with pytest.raises(RuleInputError) as caught:
        lookup(value)
    _refusal_names_choices(rule.enum, rule.key_param, caught.value)


def _valid(param: Param) -> st.SearchStrategy[Any]:
    if param.type == "bool":
        return st.booleans()
    if param.type == "choice":
        assert param.enum is not None
        return _labels(param.enum)
    lo = param.min if param.min is not None else -(10**6)
    hi = param.max if param.max is not None else 10**6
    return st.integers(lo, hi)


def _problem(param: Param, value: object) -> bool:
    """Whether ``value`` is not a valid argument for ``param``."""
    if param.type == "bool":
        return type(value) is not bool
    if param.type == "choice":
        assert param.enum is not None
        return not _is_label(param.enum, value)
    if type(value) is not int:
        return True
    too_low = param.min is not None and value < param.min
    return too_low or (param.max is not None and value > param.max)


@pytest.mark.parametrize(("system", "rule"), FORMULAS, ids=[r.id for _, r in FORMULAS])
@SETTINGS
@given(data=st.data())
def test_formula_arguments(
    system: System, rule: FormulaRule, data: st.DataObject
) -> None:
    function = getattr(_module(system), rule.function)
    args = {
        p.name: data.draw(st.one_of(_valid(p), _valid(p), JUNK), label=p.name)
        for p in rule.params
    }
    bad = [p for p in rule.params if _problem(p, args[p.name])]
    if not bad:
        result = function(**args)
        interval = rule.checked.interval
        assert type(result) is int and interval is not None
        assert interval.lo is None or interval.lo <= result
        assert interval.hi is None or result <= interval.hi
        return
    with pytest.raises(RuleInputError) as caught:
        function(**args)
    first = bad[0]
    assert str(caught.value).startswith(f"{first.name} must be")
    if first.enum is not None:
        _refusal_names_choices(first.enum, first.name, caught.value)
    elif first.type == "int" and type(args[first.name]) is int:
        low = "" if first.min is None else str(first.min)
        high = "" if first.max is None else str(first.max)
        assert f"must be in {low}..{high}" in str(caught.value)
