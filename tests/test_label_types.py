"""Labels as values and as types, over every enum and function of every system.

- An unordered label enum does not order: ``<``, ``<=``, ``>``, ``>=`` raise
  ``TypeError`` between members and against any ``str``, on either side.
- A ladder orders by position, against members and labels in any case.
- A member equals its exact label only and hashes as it; ``Kind(label)`` looks a
  member up in any case.
- Every choice parameter is typed as its enum or the ``Literal`` of exactly its
  labels (no bare ``str``); every mapping parameter as a ``LabelMapping`` of those.
- What every worked example answers holds what its annotations say (a
  ``Literal`` field one of its values, an enum field a member of that enum).
"""

from __future__ import annotations

import importlib
import inspect
import operator
import random
import typing
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from types import ModuleType, NoneType, UnionType
from typing import Any

import pytest
import rulebook
from hypothesis import given, settings
from hypothesis import strategies as st
from rulebook._support import Label, LabelMapping, Ladder
from rulebook.errors import RuleInputError

from rulesc.kinds.registry import kind_of

from .conftest import project_systems

SYSTEMS = project_systems()
MODULES: list[ModuleType] = [
    importlib.import_module(f"rulebook.{s.id}") for s in SYSTEMS
]
ENUMS: list[type[Label]] = [
    v
    for m in MODULES
    for v in (getattr(m, name) for name in m.__all__)
    if isinstance(v, type) and issubclass(v, Label)
]
UNORDERED = [e for e in ENUMS if not issubclass(e, Ladder)]
LADDERS = [e for e in ENUMS if issubclass(e, Ladder)]
ORDERINGS: tuple[Callable[[Any, Any], Any], ...] = (
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
)
CASES: tuple[Callable[[str], str], ...] = (
    str,
    str.lower,
    str.upper,
    str.swapcase,
    str.title,
)
SETTINGS = settings(max_examples=60, deadline=None)


def _ids(enums: Sequence[type[Label]]) -> list[str]:
    return [f"{e.__module__.rsplit('.', 1)[-1]}.{e.__name__}" for e in enums]


def test_every_system_enum_is_found() -> None:
    # the enums the compiled rules declare, each once (a module may re-export none)
    declared = {(s.id, e.name) for s in SYSTEMS for e in s.enums}
    found = {(e.__module__.rsplit(".", 1)[-1], e.__name__) for e in ENUMS}
    assert found == declared
    ordered = {(s.id, e.name) for s in SYSTEMS for e in s.enums if e.ordered}
    assert {(e.__module__.rsplit(".", 1)[-1], e.__name__) for e in LADDERS} == ordered
    assert UNORDERED and LADDERS


# -- ordering --------------------------------------------------------------------


@pytest.mark.parametrize("enum", UNORDERED, ids=_ids(UNORDERED))
def test_an_unordered_enum_does_not_order(enum: type[Label]) -> None:
    strings = ["", "zz-not-a-label", *(case(m.value) for m in enum for case in CASES)]
    for a in enum:
        for op in ORDERINGS:
            for b in enum:
                with pytest.raises(TypeError, match="is not ordered"):
                    op(a, b)
            for text in strings:
                with pytest.raises(TypeError, match="is not ordered"):
                    op(a, text)
                with pytest.raises(TypeError, match="is not ordered"):
                    op(text, a)
            with pytest.raises(TypeError):
                op(a, 1)
            with pytest.raises(TypeError):
                op(None, a)
        with pytest.raises(TypeError):
            sorted([a, *enum])


@pytest.mark.parametrize("enum", UNORDERED, ids=_ids(UNORDERED))
def test_two_unordered_enums_do_not_order_against_each_other(
    enum: type[Label],
) -> None:
    others = [e for e in ENUMS if e is not enum]
    for other in others:
        a, b = next(iter(enum)), next(iter(other))
        for op in ORDERINGS:
            with pytest.raises(TypeError):
                op(a, b)
            with pytest.raises(TypeError):
                op(b, a)


@pytest.mark.parametrize("ladder", LADDERS, ids=_ids(LADDERS))
def test_a_ladder_orders_by_position_in_any_case(ladder: type[Ladder]) -> None:
    members = list(ladder)
    for i, a in enumerate(members):
        assert a.rank == i
        for j, b in enumerate(members):
            for op in ORDERINGS:
                want = op(i, j)
                assert op(a, b) is want, (a, op, b)
                for case in CASES:
                    written = case(b.value)
                    assert op(a, written) is want, (a, op, written)
                    # a plain str on the left asks the member: same answer
                    assert op(written, a) is op(j, i), (written, op, a)
    assert sorted(reversed(members)) == members
    assert min(ladder) is members[0] and max(ladder) is members[-1]


@pytest.mark.parametrize("ladder", LADDERS, ids=_ids(LADDERS))
def test_a_ladder_refuses_strings_it_does_not_have(ladder: type[Ladder]) -> None:
    low = next(iter(ladder))
    foreign = [m.value for e in ENUMS if e is not ladder for m in e]
    known = {str.casefold(m.value) for m in ladder}
    for text in ["", "zz-not-a-label", *foreign]:
        if str.casefold(text) in known:
            continue
        for op in ORDERINGS:
            with pytest.raises(RuleInputError, match="cannot compare"):
                op(low, text)
    for op in ORDERINGS:
        with pytest.raises(TypeError):
            op(low, 1)
        with pytest.raises(TypeError):
            op(low, None)


@pytest.mark.parametrize("ladder", LADDERS, ids=_ids(LADDERS))
@SETTINGS
@given(data=st.data())
def test_a_ladder_compares_with_a_label_in_any_mixed_case(
    ladder: type[Ladder], data: st.DataObject
) -> None:
    a = data.draw(st.sampled_from(list(ladder)))
    b = data.draw(st.sampled_from(list(ladder)))
    flips = data.draw(st.lists(st.booleans(), min_size=len(b.value)))
    written = "".join(
        ch.swapcase() if flip else ch for ch, flip in zip(b.value, flips, strict=False)
    )
    if str.casefold(written) != str.casefold(b.value):  # a letter with no pair
        written = b.value
    for op in ORDERINGS:
        assert op(a, written) is op(a.rank, b.rank)
        assert op(written, a) is op(b.rank, a.rank)


# -- equality, hashing, lookup -------------------------------------------------------


@pytest.mark.parametrize("enum", ENUMS, ids=_ids(ENUMS))
def test_a_member_equals_its_exact_label_only(enum: type[Label]) -> None:
    for member in enum:
        label = member.value
        assert member == label and label == member
        assert hash(member) == hash(label)
        assert {label: "found"}[member] == "found"
        by_member: dict[str, str] = {member: "found"}
        assert by_member[label] == "found"
        assert label in set(enum) and member in {m.value for m in enum}
        for case in CASES:
            written = case(label)
            if written != label:
                assert member != written and written != member
                assert written not in {m.value for m in enum}
        for other in enum:
            assert (member == other) is (member is other)
            assert (member == other.value) is (member is other)


@pytest.mark.parametrize("enum", ENUMS, ids=_ids(ENUMS))
def test_calling_the_enum_looks_a_label_up_in_any_case(enum: type[Label]) -> None:
    for member in enum:
        for case in CASES:
            assert enum(case(member.value)) is member
        assert enum(member) is member
    bad: Any
    for bad in ("", "zz-not-a-label", 3, None):
        if isinstance(bad, str) and any(
            str.casefold(bad) == str.casefold(m.value) for m in enum
        ):
            continue
        with pytest.raises(ValueError, match="is not a valid"):
            enum(bad)


# -- annotations -------------------------------------------------------------------


def _arms(hint: Any) -> tuple[Any, ...]:
    union = isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union
    return (
        tuple(a for arg in typing.get_args(hint) for a in _arms(arg))
        if union
        else (hint,)
    )


def _labels_of(arms: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return [typing.get_args(a) for a in arms if typing.get_origin(a) is typing.Literal]


def _functions() -> list[tuple[str, Callable[..., Any]]]:
    found: list[tuple[str, Callable[..., Any]]] = []
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value):
                found.append((f"{module.__name__}.{name}", value))
            elif isinstance(value, type):
                for attr, method in vars(value).items():
                    if inspect.isfunction(method) and not attr.startswith("_"):
                        found.append((f"{module.__name__}.{name}.{attr}", method))
    return found


FUNCTIONS = _functions()


def _check_label_arms(where: str, hint: Any) -> int:
    """Assert that every enum in ``hint`` comes with exactly its labels' Literal;
    answer how many enums it names."""
    arms = _arms(hint)
    enums = [a for a in arms if isinstance(a, type) and issubclass(a, Enum)]
    literals = _labels_of(arms)
    assert str not in arms, f"{where}: a bare str where labels are meant"
    assert len(literals) == len(enums), f"{where}: {hint}"
    for enum, labels in zip(enums, literals, strict=True):
        assert labels == tuple(m.value for m in enum), (where, enum, labels)
    return len(enums)


@pytest.mark.parametrize(("name", "function"), FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
def test_label_parameters_are_typed_by_their_exact_labels(
    name: str, function: Callable[..., Any]
) -> None:
    hints = typing.get_type_hints(function)
    for param in inspect.signature(function).parameters.values():
        if param.name == "self":
            continue
        hint = hints[param.name]
        where = f"{name}({param.name})"
        for arm in _arms(hint):
            origin = typing.get_origin(arm)
            assert origin is not Mapping, f"{where}: a Mapping's key type is invariant"
            if origin is LabelMapping:
                key, value = typing.get_args(arm)
                assert _check_label_arms(f"{where} keys", key) == 1
                assert _check_label_arms(f"{where} values", value) == 1
        _check_label_arms(where, hint)


def test_every_label_parameter_was_seen() -> None:
    seen = 0
    for name, function in FUNCTIONS:
        hints = typing.get_type_hints(function)
        for param in inspect.signature(function).parameters.values():
            if param.name != "self":
                seen += _check_label_arms(name, hints[param.name])
    declared = sum(
        1
        for s in SYSTEMS
        for r in s.rules
        for p in getattr(r, "params", ())
        if p.enum is not None and p.type == "choice"
    )
    assert seen >= declared > 0


def test_each_label_alias_is_exported_beside_its_enum() -> None:
    for enum in ENUMS:
        module = importlib.import_module(enum.__module__)
        alias = f"{enum.__name__}Label"
        assert alias in module.__all__
        assert typing.get_args(getattr(module, alias)) == tuple(m.value for m in enum)


# -- answers hold what their types say ---------------------------------------------


def _holds(value: Any, hint: Any, where: str) -> None:
    """Assert that ``value`` is of type ``hint`` (the shapes the runtime uses)."""
    if hint is Any or hint is object:
        return
    arms = _arms(hint)
    if len(arms) > 1:
        failures = []
        for arm in arms:
            try:
                _holds(value, arm, where)
                return
            except AssertionError as exc:
                failures.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {hint}: {failures}")
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is NoneType or hint is None:
        assert value is None, f"{where}: {value!r} is not None"
    elif origin is typing.Literal:
        assert type(value) is str and value in args, f"{where}: {value!r} not in {args}"
    elif isinstance(hint, type) and issubclass(hint, Enum):
        assert type(value) is hint, f"{where}: {value!r} is not a {hint.__name__}"
    elif origin is tuple:
        assert type(value) is tuple, f"{where}: {value!r} is not a tuple"
        if len(args) == 2 and args[1] is Ellipsis:
            for i, item in enumerate(value):
                _holds(item, args[0], f"{where}[{i}]")
        else:
            assert len(value) == len(args), where
            for i, (item, arg) in enumerate(zip(value, args, strict=True)):
                _holds(item, arg, f"{where}[{i}]")
    elif origin is list:
        assert type(value) is list, f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            _holds(item, args[0], f"{where}[{i}]")
    elif origin in (dict, Mapping):
        assert isinstance(value, Mapping), f"{where}: {value!r} is not a mapping"
        for k, v in value.items():
            _holds(k, args[0], f"{where} key")
            _holds(v, args[1], f"{where}[{k!r}]")
    elif hint is bool:
        assert type(value) is bool, f"{where}: {value!r} is not a bool"
    elif hint is int:
        assert type(value) is int, f"{where}: {value!r} is not an int"
    elif hint is str:
        assert isinstance(value, str), f"{where}: {value!r} is not a str"
    elif isinstance(hint, type):
        assert isinstance(value, hint), f"{where}: {value!r} is not a {hint.__name__}"
        _fields_hold(value, where)
    else:
        raise AssertionError(f"{where}: no check for the type {hint}")


def _fields_hold(record: Any, where: str) -> None:
    """Every annotated field of a record (a dataclass or a named tuple) holds its type."""
    cls = type(record)
    if hasattr(cls, "FIELDS"):  # a record of the runtime
        names = list(cls.FIELDS)
    elif isinstance(record, tuple) and hasattr(cls, "_fields"):
        names = list(cls._fields)
    else:
        return
    hints = typing.get_type_hints(cls)
    for name in names:
        if not name.startswith("_"):
            _holds(getattr(record, name), hints[name], f"{where}.{name}")


ANSWERS = [
    pytest.param(system, rule, ex, id=f"{rule.qualified_id}:{ex.name}")
    for system in SYSTEMS
    for rule in system.rules
    for ex in rule.examples
    if ex.raises is None
]


@pytest.mark.parametrize(("system", "rule", "example"), ANSWERS)
def test_every_answer_holds_its_annotated_types(
    system: Any, rule: Any, example: Any
) -> None:
    from rulesc.kinds.calls import scripted

    module = importlib.import_module(f"rulebook.{system.id}")
    rng = scripted(module, list(example.dice)) if example.dice is not None else None
    answer = kind_of(rule).run_example(module, rule, example, rng)
    _holds(answer, type(answer), rule.qualified_id)


PROCESSES = [
    pytest.param(system, rule, id=rule.qualified_id)
    for system in SYSTEMS
    for rule in system.rules
    if rule.kind == "process"
]


@st.composite
def _arguments(
    draw: st.DrawFn, rule: Any, function: Callable[..., Any]
) -> dict[str, Any]:
    """Valid arguments of a process: every choice a member, every int within its
    rule's limits (small), every bool either way, a seeded rng."""
    declared = {p.name: p for p in rule.params}
    hints = typing.get_type_hints(function)
    args: dict[str, Any] = {"rng": random.Random(draw(st.integers(0, 10**6)))}
    for name in inspect.signature(function).parameters:
        if name == "rng":
            continue
        arms = _arms(hints[name])
        enums = [a for a in arms if isinstance(a, type) and issubclass(a, Enum)]
        p = declared[name]
        if enums:
            args[name] = draw(st.sampled_from(list(enums[0])))
        elif bool in arms:
            args[name] = draw(st.booleans())
        else:
            lo = p.min if p.min is not None else -5
            hi = p.max if p.max is not None else lo + 40
            args[name] = draw(st.integers(lo, min(hi, lo + 40)))
    return args


@pytest.mark.parametrize(("system", "rule"), PROCESSES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_seeded_events_hold_their_kinds_and_labels(
    system: Any, rule: Any, data: st.DataObject
) -> None:
    function = getattr(importlib.import_module(f"rulebook.{system.id}"), rule.function)
    answer = function(**data.draw(_arguments(rule, function)))
    _holds(answer, type(answer), rule.qualified_id)
    assert answer.events
    kinds = typing.get_args(typing.get_type_hints(type(answer.events[0]))["kind"])
    assert {e.kind for e in answer.events} <= set(kinds)


def test_seeded_runs_were_found() -> None:
    assert PROCESSES, "no process rule"


def test_rulebook_lists_and_imports_its_modules() -> None:
    names = [s.id for s in SYSTEMS]
    assert set(names) <= set(rulebook.__all__)
    for name in rulebook.__all__:
        module = getattr(rulebook, name)
        assert isinstance(module, ModuleType)
        assert module.__name__ == f"rulebook.{name}"
        assert name in dir(rulebook)
    with pytest.raises(AttributeError, match="no attribute 'zz_not_a_module'"):
        _ = rulebook.zz_not_a_module  # type: ignore[attr-defined]
