"""The generated runtime as a library: labels, mapping keys and rngs, over every function.

Every public function of the committed modules (and every method of what they
answer that takes an ``rng``) is found by introspection, and its parameters are
read from its annotations: a choice is an enum (``E | str``), a mapping a
``Mapping[K, V | str]``, an ``rng`` an ``RNG``. Then:

- a choice is the same choice whether it is the member, its label in any case,
  a member of *another* ``StrEnum`` (or ``str`` enum) with that value, or a
  ``str`` subclass whose ``casefold``, ``__eq__``, ``__hash__`` or ``__repr__``
  lie (for mapping keys and values too, and for ``Ladder`` comparisons);
- a mapping whose keys name one member twice is refused, naming both keys;
- an rng that answers anything but an int in ``a..b``, or raises, is refused
  with a ``RuleInputError`` about the rng (never a KeyError, nor a message about
  a parameter the caller did not pass), and a good rng's answers are unchanged.
"""

from __future__ import annotations

import inspect
import operator
import random
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from types import ModuleType, NoneType, UnionType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from rulebook import d20_scifi, edge_of_darkness, gurps
from rulebook._support import LabelMapping, Ladder
from rulebook.dice import RNG, Scripted
from rulebook.errors import RuleInputError

MODULES: tuple[ModuleType, ...] = (d20_scifi, gurps, edge_of_darkness)
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
# a thing that is no rng, or a randint of the wrong shape, is refused at its
# first use whatever the arguments: a few calls show it
FEW = settings(SETTINGS, max_examples=8)
# a bad answer at each of the first 7 calls: 30 calls reach each place
SOME = settings(SETTINGS, max_examples=30)
INTS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30)  # where most int ranges start


# -- the parameters, read from the annotations ------------------------------------


@dataclass(frozen=True)
class P:
    """One parameter: its kind and, for a choice or mapping, its enums."""

    name: str
    kind: str  # "choice", "mapping", "int", "bool", "rng"
    enum: type[Enum] | None = None  # a choice's enum, a mapping's keys
    values: type[Enum] | None = None  # a mapping's values
    nullable: bool = False
    default: Any = inspect.Parameter.empty


@dataclass(frozen=True)
class Target:
    """A generated function (or a method of what ``make`` answers) to call."""

    id: str
    params: tuple[P, ...]
    call: Callable[..., Any]
    make: Target | None = None  # builds the object whose method ``call`` names
    method: str | None = None
    extra: tuple[P, ...] = field(default=())


def _arms(hint: Any) -> tuple[Any, ...]:
    """The types of a union (a union with a Literal is a typing.Union)."""
    union = isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union
    return typing.get_args(hint) if union else (hint,)


def _enum_in(hint: Any) -> type[Enum] | None:
    found = [a for a in _arms(hint) if isinstance(a, type) and issubclass(a, Enum)]
    return found[0] if found else None


def _param(p: inspect.Parameter, hint: Any) -> P:
    arms = _arms(hint)
    nullable = NoneType in arms
    maps = [a for a in arms if typing.get_origin(a) in (Mapping, LabelMapping)]
    if maps:
        key, value = typing.get_args(maps[0])
        return P(p.name, "mapping", _enum_in(key), _enum_in(value), nullable, p.default)
    if (enum := _enum_in(hint)) is not None:
        return P(p.name, "choice", enum, None, nullable, p.default)
    if hint is RNG:
        return P(p.name, "rng")
    if hint is bool:
        return P(p.name, "bool", default=p.default)
    assert hint is int, (p.name, hint)
    return P(p.name, "int", default=p.default)


def _params(function: Callable[..., Any]) -> tuple[P, ...]:
    hints = typing.get_type_hints(function)
    return tuple(
        _param(p, hints[p.name])
        for p in inspect.signature(function).parameters.values()
        if p.name != "self"
    )


def _targets() -> list[Target]:
    found: list[Target] = []
    for module in MODULES:
        for name in module.__all__:
            function = getattr(module, name)
            if not inspect.isfunction(function):
                continue
            target = Target(f"{module.__name__}.{name}", _params(function), function)
            found.append(target)
            answer = typing.get_type_hints(function)["return"]
            for method_name, method in (
                vars(answer).items() if isinstance(answer, type) else ()
            ):
                if inspect.isfunction(method) and not method_name.startswith("_"):
                    found.append(
                        Target(
                            f"{target.id}().{method_name}",
                            _params(method),
                            method,
                            target,
                            method_name,
                        )
                    )
    return found


TARGETS = _targets()
WITH_CHOICES = [t for t in TARGETS if any(p.enum for p in t.params)]
WITH_MAPPINGS = [t for t in TARGETS if any(p.kind == "mapping" for p in t.params)]
WITH_RNG = [t for t in TARGETS if any(p.kind == "rng" for p in t.params)]
LADDERS = [
    v
    for m in MODULES
    for v in vars(m).values()
    if isinstance(v, type) and issubclass(v, Ladder) and v is not Ladder
]


def test_introspection_found_the_functions() -> None:
    ids = {t.id for t in TARGETS}
    assert "rulebook.gurps.attack_covered_target().resolve" in ids
    assert {t.id for t in WITH_MAPPINGS} >= {
        "rulebook.gurps.random_hit",
        "rulebook.gurps.attack_covered_target",
    }
    assert len(WITH_CHOICES) >= 10 and len(WITH_RNG) >= 5 and len(LADDERS) >= 2


# -- the ways of writing one label -------------------------------------------------


class _LyingFold(str):
    """A str whose casefold answers another label (never trusted)."""

    def casefold(self) -> str:
        return "zz-not-a-label"


class _LyingEq(str):
    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 7


class _LyingEverything(str):
    def casefold(self) -> str:
        raise RuntimeError("casefold must not be called")

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 11

    def __repr__(self) -> str:
        raise RuntimeError("repr must not be called")

    def __str__(self) -> str:
        return "something else"

    def lower(self) -> str:
        return "something else"


class _ClaimsLabel(str):
    """Not a label, but its casefold says it is one: refused."""

    label = ""

    def casefold(self) -> str:
        return self.label


def _foreign_strenum(value: str) -> Enum:
    Foreign: Any = StrEnum("Foreign", {"MEMBER": value})
    member: Enum = Foreign["MEMBER"]
    return member


def _foreign_str_enum(value: str) -> Enum:
    ForeignMixed: Any = Enum("ForeignMixed", {"MEMBER": value}, type=str)
    member: Enum = ForeignMixed["MEMBER"]
    return member


CASES: tuple[Callable[[str], str], ...] = (
    str,
    str.upper,
    str.lower,
    str.swapcase,
    str.title,
)
SPELLINGS: tuple[Callable[[str], object], ...] = (
    lambda v: v,
    _foreign_strenum,
    _foreign_str_enum,
    _LyingFold,
    _LyingEq,
    _LyingEverything,
)


@st.composite
def spelling(draw: st.DrawFn, member: Enum) -> object:
    """``member`` itself or another way of writing its label."""
    value = str(member.value)
    case = draw(st.sampled_from(CASES))
    written = case(value)
    if str.casefold(written) != str.casefold(value):  # not every label has cases
        written = value
    how = draw(st.sampled_from((lambda _: member, *SPELLINGS)))
    return how(written)


# -- drawing the arguments ---------------------------------------------------------


def _value(draw: st.DrawFn, p: P, written: bool) -> Any:
    """A valid argument for ``p``; ``written``: choices spelled any way."""

    def member(enum: type[Enum]) -> object:
        m = draw(st.sampled_from(list(enum)))
        return draw(spelling(m)) if written else m

    if p.nullable and draw(st.booleans()):
        return None
    if p.kind == "choice":
        assert p.enum is not None
        return member(p.enum)
    if p.kind == "mapping":
        assert p.enum is not None and p.values is not None
        result: dict[object, object] = {}
        for key in p.enum:
            result[draw(spelling(key)) if written else key] = member(p.values)
        assume(len(result) == len(p.enum))  # a lying __eq__ may merge two keys
        return result
    if p.kind == "bool":
        return draw(st.booleans())
    if p.kind == "int":
        options = list(INTS)
        if p.default is not inspect.Parameter.empty:
            options.append(p.default)
        return draw(st.sampled_from(options))
    return random.Random(draw(st.integers(0, 2**32)))


@st.composite
def arguments(draw: st.DrawFn, params: tuple[P, ...]) -> dict[str, Any]:
    return {p.name: _value(draw, p, written=False) for p in params}


def _call(target: Target, args: dict[str, Any], made: dict[str, Any]) -> Any:
    if target.make is None:
        return target.call(**args)
    owner = target.make.call(**made)
    return getattr(owner, target.method or "")(**args)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "answer", call()
    except RuleInputError as error:
        return "refused", str(error)


# -- A.2: one policy for every function that takes a choice -------------------------


@st.composite
def _respelled(draw: st.DrawFn, params: tuple[P, ...]) -> tuple[dict[str, Any], ...]:
    """Arguments with members, then the same arguments with choices re-spelled."""
    plain = {p.name: _value(draw, p, written=False) for p in params}
    spelled = dict(plain)
    for p in params:
        value = plain[p.name]
        if value is None:
            continue
        if p.kind == "choice":
            spelled[p.name] = draw(spelling(value))
        elif p.kind == "mapping":
            rewritten = {draw(spelling(k)): draw(spelling(v)) for k, v in value.items()}
            assume(len(rewritten) == len(value))
            spelled[p.name] = rewritten
    return plain, spelled


def _seeded(args: dict[str, Any], params: tuple[P, ...], seed: int) -> dict[str, Any]:
    """``args`` with every rng a fresh ``random.Random(seed)``."""
    return {
        p.name: random.Random(seed) if p.kind == "rng" else args[p.name] for p in params
    }


@pytest.mark.parametrize("target", WITH_CHOICES, ids=[t.id for t in WITH_CHOICES])
def test_every_spelling_of_a_choice_is_the_same_choice(target: Target) -> None:
    answered = []

    @SETTINGS
    @given(pair=_respelled(target.params), seed=st.integers(0, 2**32))
    def check(pair: tuple[dict[str, Any], dict[str, Any]], seed: int) -> None:
        plain, spelled = pair
        expected = _outcome(lambda: target.call(**_seeded(plain, target.params, seed)))
        got = _outcome(lambda: target.call(**_seeded(spelled, target.params, seed)))
        assert got == expected, (spelled, plain)
        answered.append(expected[0] == "answer")

    check()
    assert any(answered), f"{target.id} answered none of the arguments drawn"


@pytest.mark.parametrize("target", WITH_CHOICES, ids=[t.id for t in WITH_CHOICES])
@SETTINGS
@given(data=st.data())
def test_a_str_that_only_claims_a_label_is_refused(
    target: Target, data: st.DataObject
) -> None:
    args = _seeded(data.draw(arguments(target.params)), target.params, 0)
    assume(_outcome(lambda: target.call(**args))[0] == "answer")
    p = data.draw(st.sampled_from([p for p in target.params if p.enum is not None]))
    assert p.enum is not None
    enum = (
        p.enum if p.kind == "choice" else data.draw(st.sampled_from([p.enum, p.values]))
    )
    assert enum is not None
    impostor = _ClaimsLabel("zz-not-a-label")
    impostor.label = str.casefold(str(data.draw(st.sampled_from(list(enum))).value))
    for wrong in (impostor, _foreign_strenum("zz-not-a-label")):
        if p.kind == "choice":
            args[p.name], where = wrong, p.name
        elif enum is p.enum:  # a key
            keys = list(p.enum)
            args[p.name] = {k: next(iter(p.values or ())) for k in keys[1:]}
            args[p.name][wrong] = next(iter(p.values or ()))
            where = f"a key of {p.name}"
        else:
            args[p.name] = {k: wrong for k in p.enum}
            where = rf"{p.name}\[.*\]"
        with pytest.raises(RuleInputError, match=rf"^{where} must be one of .*zz-not"):
            target.call(**args)


OPERATORS: tuple[Callable[[Any, Any], bool], ...] = (
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
)


@pytest.mark.parametrize("ladder", LADDERS, ids=[ld.__name__ for ld in LADDERS])
@SETTINGS
@given(data=st.data())
def test_ladder_comparisons_take_any_spelling(
    ladder: type[Ladder], data: st.DataObject
) -> None:
    a = data.draw(st.sampled_from(list(ladder)))
    b = data.draw(st.sampled_from(list(ladder)))
    other = data.draw(spelling(b))
    for op in OPERATORS:
        assert op(a, other) is op(a, b) is op(a.rank, b.rank)
        if type(other) is str:  # a plain str on the left asks the member
            assert op(other, a) is op(b.rank, a.rank)
    with pytest.raises(RuleInputError, match="cannot compare"):
        _ = a < _ClaimsLabel("zz-not-a-label")


# -- A.1: mapping keys that fold together ---------------------------------------------


@pytest.mark.parametrize("target", WITH_MAPPINGS, ids=[t.id for t in WITH_MAPPINGS])
@SETTINGS
@given(data=st.data())
def test_two_keys_for_one_member_are_refused(
    target: Target, data: st.DataObject
) -> None:
    args = _seeded(data.draw(arguments(target.params)), target.params, 0)
    assume(_outcome(lambda: target.call(**args))[0] == "answer")
    p = data.draw(st.sampled_from([p for p in target.params if p.kind == "mapping"]))
    assert p.enum is not None and p.values is not None
    key = data.draw(st.sampled_from(list(p.enum)))
    first = data.draw(spelling(key))
    second = data.draw(spelling(key))
    given_map: dict[object, object] = {k: next(iter(p.values)) for k in p.enum}
    del given_map[key]
    given_map[first] = next(iter(p.values))
    given_map[second] = next(iter(p.values))
    assume(len(given_map) == len(p.enum) + 1)  # the dict itself kept both
    args[p.name] = given_map
    with pytest.raises(RuleInputError) as caught:
        target.call(**_seeded(args, target.params, 0))
    message = str(caught.value)
    assert message.startswith(f"{p.name} has two keys for {str(key.value)!r}: ")
    assert str.__repr__(first) in message and str.__repr__(second) in message


# -- A.3: rngs that answer wrong ----------------------------------------------------------


class _MyInt(int):
    pass


BAD_ANSWERS: dict[str, Callable[[int, int], object]] = {
    "above": lambda a, b: b + 1,
    "below": lambda a, b: a - 1,
    "zero": lambda a, b: 0,
    "negative": lambda a, b: -b,
    "huge": lambda a, b: 10**40,
    "true": lambda a, b: True,
    "false": lambda a, b: False,
    "float": lambda a, b: float(a),
    "str": lambda a, b: str(a),
    "none": lambda a, b: None,
    "int subclass": lambda a, b: _MyInt(a),
    "a list": lambda a, b: [a],
}
BAD_RAISES: dict[str, type[Exception]] = {
    "raises ValueError": ValueError,
    "raises KeyError": KeyError,
    "raises IndexError": IndexError,
    "raises ZeroDivisionError": ZeroDivisionError,
    "raises TypeError": TypeError,
    "raises RuntimeError": RuntimeError,
}


class _TurnsBad:
    """An rng that answers like random.Random(seed) for ``good`` calls, then wrong."""

    def __init__(self, seed: int, good: int, wrong: Callable[[int, int], object]):
        self.rng, self.good, self.wrong, self.calls = (
            random.Random(seed),
            good,
            wrong,
            0,
        )

    def randint(self, a: int, b: int) -> object:
        self.calls += 1
        if self.calls <= self.good:
            return self.rng.randint(a, b)
        return self.wrong(a, b)


def _raiser(kind: type[Exception]) -> Callable[[int, int], object]:
    def wrong(a: int, b: int) -> object:
        raise kind("the rng broke")

    return wrong


class _NoArgs:
    def randint(self) -> int:
        return 1


class _NotCallable:
    randint = 5


class _HostileGetattr:
    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("no attributes here")

    def __repr__(self) -> str:
        raise RuntimeError("nor a repr")


NOT_RNGS: dict[str, Callable[[], object]] = {
    "None": lambda: None,
    "object()": object,
    "an int": lambda: 42,
    "a str": lambda: "rng",
    "randint not callable": _NotCallable,
    "hostile getattr": _HostileGetattr,
}
BAD_RNGS: dict[str, Callable[[int, int], object]] = {
    **BAD_ANSWERS,
    **{name: _raiser(kind) for name, kind in BAD_RAISES.items()},
}


class _Counting:
    def __init__(self, seed: int) -> None:
        self.rng, self.calls = random.Random(seed), 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return self.rng.randint(a, b)


def _with_rng(
    args: dict[str, Any], params: tuple[P, ...], rng: object
) -> dict[str, Any]:
    return {p.name: rng if p.kind == "rng" else args[p.name] for p in params}


@st.composite
def _good_call(
    draw: st.DrawFn, target: Target
) -> tuple[dict[str, Any], dict[str, Any], int]:
    args = draw(arguments(target.params))
    made = draw(arguments(target.make.params)) if target.make else {}
    made = _seeded(made, target.make.params, 0) if target.make else {}
    return args, made, draw(st.integers(0, 2**32))


def _answer_with(
    target: Target, args: dict[str, Any], made: dict[str, Any], rng: object
) -> Any:
    return _call(target, _with_rng(args, target.params, rng), made)


@pytest.mark.parametrize("target", WITH_RNG, ids=[t.id for t in WITH_RNG])
@pytest.mark.parametrize("bad", list(BAD_RNGS), ids=list(BAD_RNGS))
def test_a_bad_rng_is_refused_naming_the_rng(target: Target, bad: str) -> None:
    refused = []

    @SOME
    @given(call=_good_call(target), good=st.integers(0, 6))
    def check(call: tuple[dict[str, Any], dict[str, Any], int], good: int) -> None:
        args, made, seed = call
        counting = _Counting(seed)
        expected = _outcome(lambda: _answer_with(target, args, made, counting))
        assume(expected[0] == "answer")  # arguments the function answers
        rng = _TurnsBad(seed, good, BAD_RNGS[bad])
        try:
            got = _answer_with(target, args, made, rng)
        except RuleInputError as error:
            message = str(error)
            assert message.startswith("rng.randint("), message
            assert "it must return an int in" in message
            if bad in BAD_RAISES:
                assert isinstance(error.__cause__, BAD_RAISES[bad])
            refused.append(True)
            return
        # only an rng never asked past its good answers may answer
        assert rng.calls <= good and counting.calls <= good
        assert got == expected[1]

    check()
    assert refused, f"{target.id}: no bad answer was ever asked for"


@pytest.mark.parametrize("target", WITH_RNG, ids=[t.id for t in WITH_RNG])
@pytest.mark.parametrize("bad", list(NOT_RNGS), ids=list(NOT_RNGS))
def test_a_thing_that_is_no_rng_is_refused(target: Target, bad: str) -> None:
    @FEW
    @given(call=_good_call(target))
    def check(call: tuple[dict[str, Any], dict[str, Any], int]) -> None:
        args, made, seed = call
        expected = _outcome(lambda: _answer_with(target, args, made, _Counting(seed)))
        assume(expected[0] == "answer")
        with pytest.raises(RuleInputError, match=r"^rng must have a randint\(a, b\)"):
            _answer_with(target, args, made, NOT_RNGS[bad]())

    check()


@pytest.mark.parametrize("target", WITH_RNG, ids=[t.id for t in WITH_RNG])
def test_a_randint_of_the_wrong_shape_is_refused(target: Target) -> None:
    @FEW
    @given(call=_good_call(target))
    def check(call: tuple[dict[str, Any], dict[str, Any], int]) -> None:
        args, made, seed = call
        counting = _Counting(seed)
        expected = _outcome(lambda: _answer_with(target, args, made, counting))
        assume(expected[0] == "answer" and counting.calls)
        with pytest.raises(RuleInputError, match=r"^rng\.randint\(.*raised TypeError"):
            _answer_with(target, args, made, _NoArgs())

    check()


class _Recording:
    def __init__(self, seed: int) -> None:
        self.rng, self.results = random.Random(seed), list[int]()

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.results.append(value)
        return value


@pytest.mark.parametrize("target", WITH_RNG, ids=[t.id for t in WITH_RNG])
@SETTINGS
@given(data=st.data())
def test_a_good_rng_answers_as_random_random_does(
    target: Target, data: st.DataObject
) -> None:
    args, made, seed = data.draw(_good_call(target))
    direct = _outcome(lambda: _answer_with(target, args, made, random.Random(seed)))
    recording = _Recording(seed)
    assert _outcome(lambda: _answer_with(target, args, made, recording)) == direct
    # each die is exactly one randint call: replaying the results answers the same
    # and uses every one of them
    script = Scripted(recording.results)
    assert _outcome(lambda: _answer_with(target, args, made, script)) == direct
    assert script.remaining == 0
