"""Runtime refusals: whatever the argument, a public function answers or raises
``RuleInputError``.

Every public callable of the generated package is found from the modules' own
``__all__`` (functions, the public methods of their constants and of the
objects they answer, the constructors of the non-record classes and of
``Dice``), for the committed rules and for the cookbook (whose kinds the
committed rules do not all have), and called with arguments drawn from valid
ones, wrong types, huge ints (past Python's 4,300 digits of int-to-text),
``str`` and ``int`` subclasses, objects whose every special method raises and
rngs that misbehave. The only exception that may come out is ``RuleInputError``,
and its message must be writable.
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from types import ModuleType
from typing import Any, NoReturn

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from rulesc.emit.markdown.contract import PUBLIC_SUPPORT
from rulesc.pipeline import build

from .conftest import ROOT, import_fresh

COOKBOOK = ROOT / "tests" / "cookbook"


class Boom(Exception):
    """What every hostile method raises."""


def _boom(*_: object, **__: object) -> NoReturn:
    raise Boom


class Hostile:
    """An object whose every special method raises."""

    __eq__ = __hash__ = __index__ = __int__ = __float__ = __str__ = __repr__ = _boom
    __bool__ = __len__ = __iter__ = __lt__ = __le__ = __gt__ = __ge__ = _boom
    __getattr__ = __format__ = __contains__ = __getitem__ = _boom


class HostileStr(str):
    __eq__ = __hash__ = __str__ = __repr__ = __len__ = __iter__ = _boom
    casefold = lower = upper = __getitem__ = __format__ = __contains__ = _boom


class HostileInt(int):
    __eq__ = __hash__ = __repr__ = __str__ = __index__ = __int__ = _boom
    __lt__ = __le__ = __gt__ = __ge__ = __format__ = __bool__ = _boom


class HostileMapping(Mapping[object, object]):
    __getitem__ = __len__ = __iter__ = _boom


class EndlessMapping(Mapping[object, object]):
    """A mapping whose items never end."""

    def __getitem__(self, key: object) -> object:
        return "x"

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[object]:
        n = 0
        while True:
            n += 1
            yield f"k{n}"


class Rng:
    """An rng whose ``randint`` answers ``answer(a, b)``."""

    def __init__(self, answer: Callable[[int, int], object], name: str) -> None:
        self.answer = answer
        self.name = name

    def randint(self, a: int, b: int) -> object:
        return self.answer(a, b)

    def __repr__(self) -> str:
        return f"Rng({self.name})"


class RandintProperty:
    @property
    def randint(self) -> NoReturn:
        raise Boom


HUGE = 10**4300
RNGS: list[object] = [
    Rng(_boom, "raises"),
    Rng(lambda a, b: HostileInt(a), "hostile int"),
    Rng(lambda a, b: HUGE, "huge"),
    Rng(lambda a, b: float(a), "float"),
    Rng(lambda a, b: None, "none"),
    Rng(lambda a, b: b, "always highest"),
    Rng(lambda a, b: a, "always lowest"),
    Rng(lambda a, b: b + 1, "past the top"),
    RandintProperty(),
    random.Random(7),
    random.Random(8),
]
WRONG: list[object] = [
    None,
    True,
    False,
    1.5,
    math.nan,
    math.inf,
    HUGE,
    -HUGE,
    HUGE * HUGE,
    10**30,
    b"3d6",
    bytearray(b"x"),
    "",
    "\x00",
    "x" * 5000,
    "1" * 5000,
    "3d6" + "0" * 5000,
    "١d٦",
    HostileStr("3d6"),
    HostileStr("x"),
    HostileInt(2),
    Hostile(),
    HostileMapping(),
    EndlessMapping(),
    {},
    {"x": Hostile()},
    [],
    [Hostile()],
    (1, 2),
    iter([1, 2]),
    object(),
    int,
    Enum,
    Boom,
    _boom,
]


def _labels(
    modules: list[ModuleType],
) -> tuple[list[object], list[dict[object, object]]]:
    """Every label of the modules' enums (members, labels in another case, ``str``
    subclasses) and complete mappings from one enum to another's labels."""
    enums = [
        value
        for module in modules
        for name in module.__all__
        if inspect.isclass(value := getattr(module, name)) and issubclass(value, Enum)
    ]
    labels: list[object] = []
    for enum in enums:
        for member in enum:
            labels += [
                member,
                str(member.value).upper(),
                type("S", (str,), {})(member.value),
            ]
    mappings: list[dict[object, object]] = [
        {key: next(iter(values)).value for key in keys}
        for keys in enums
        for values in enums
    ]
    hostile: list[dict[object, object]] = [
        {key.value: Hostile() for key in keys} for keys in enums
    ]
    mappings += hostile
    return labels, mappings


Target = tuple[str, Callable[..., Any]]


def _methods(name: str, value: object) -> list[Target]:
    """The public methods the runtime defines on ``value`` (not those a ``dict``,
    ``tuple`` or ``object`` gives it)."""
    found: list[Target] = []
    for attr in dir(type(value)):
        owner = next((c for c in type(value).__mro__ if attr in vars(c)), object)
        if attr.startswith("_") or not owner.__module__.startswith("rulebook"):
            continue
        method = getattr(value, attr, None)
        if inspect.ismethod(method):
            found.append((f"{name}.{attr}", method))
    return found


def _surface(modules: list[ModuleType]) -> list[Target]:
    """Every public callable of ``modules``, found from their ``__all__``."""
    from rulebook._support import Frozen  # the package under test's

    dice = sys.modules["rulebook.dice"]
    found: list[Target] = []
    for module in modules:
        for name in module.__all__:
            value = getattr(module, name)
            where = f"{module.__name__}.{name}"
            if inspect.isfunction(value):
                found.append((where, value))
            elif inspect.isclass(value):
                if (
                    issubclass(value, Enum | BaseException)
                    or (issubclass(value, Frozen) and value is not dice.Dice)
                    or getattr(value, "_is_protocol", False)
                    or issubclass(value, tuple)
                ):
                    continue  # records (as dataclasses, unchecked), labels, errors
                found.append((where, value))
                try:
                    made = value()
                except Exception:  # one that needs arguments
                    continue
                found += _methods(where + "()", made)
            elif not isinstance(value, str | int | type) and not hasattr(
                value, "__origin__"
            ):
                found += _methods(where, value)
    return found


class Package:
    """One generated package: its callables and the arguments to try on them."""

    def __init__(self, systems: list[str]) -> None:
        import rulebook

        names = [n for n in rulebook.__all__ if n != "errors"]
        assert set(PUBLIC_SUPPORT) - {"errors"} <= set(names)
        assert set(systems) <= set(names)
        modules = [importlib.import_module(f"rulebook.{n}") for n in names]
        self.error: type[Exception] = importlib.import_module(
            "rulebook.errors"
        ).RuleInputError
        self.targets = _surface(modules)
        labels, mappings = _labels(modules)
        scripted = importlib.import_module("rulebook.dice").Scripted
        # drawn by index: hypothesis writes what it draws, and these refuse
        self.pool: list[object] = [
            *[0, 1, 2, 3, -1, 20, 1_000_000],
            *labels,
            *RNGS,
            *WRONG,
            *mappings,
        ]
        self.scripted = scripted

    def argument(self, data: st.DataObject, label: str) -> object:
        """One argument: from the pool, or an int, a text, a list or a script."""
        kind = data.draw(st.sampled_from(["pool", "pool", "int", "text", "list"]))
        if kind == "int":
            return data.draw(st.integers(), label=label)
        if kind == "text":
            return data.draw(st.text(max_size=8), label=label)
        if kind == "list":
            made = data.draw(st.lists(st.integers(1, 20), max_size=4), label=label)
            return self.scripted(made) if data.draw(st.booleans()) else made
        return self.pool[data.draw(st.integers(0, len(self.pool) - 1), label=label)]


@pytest.fixture(scope="module", params=["rules", "cookbook"])
def package(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Package:
    """The package's callables, found with it imported (and the installed one put
    back at once: the callables hold their modules)."""
    if request.param == "rules":
        with import_fresh(None):
            return Package(["d20_scifi", "gurps", "edge_of_darkness"])
    out = tmp_path_factory.mktemp("cookbook")
    for path, content in build(COOKBOOK).files.items():
        if path.startswith("rulebook/"):
            (out / path).parent.mkdir(parents=True, exist_ok=True)
            (out / path).write_bytes(content)
    with import_fresh(out):
        return Package(["cookbook"])


def _call(
    package: Package,
    name: str,
    function: Callable[..., Any],
    data: st.DataObject,
    depth: int,
) -> None:
    try:
        params = inspect.signature(function).parameters.values()
    except ValueError:  # a builtin without a signature
        return
    args: list[object] = []
    kwargs: dict[str, object] = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is not p.empty and data.draw(
            st.booleans(), label=f"{p.name} left out"
        ):
            continue
        value = package.argument(data, f"{name}({p.name})")
        if p.kind is p.POSITIONAL_ONLY:
            args.append(value)
        else:
            kwargs[p.name] = value
    try:
        answer = function(*args, **kwargs)
    except package.error as refused:
        assert str(refused)  # the message is writable, whatever the argument
        return
    if depth and not inspect.isclass(answer) and not isinstance(answer, int | str):
        methods = _methods(f"{name}()", answer)
        if methods:
            method_name, method = methods[data.draw(st.integers(0, len(methods) - 1))]
            note(method_name)
            _call(package, method_name, method, data, depth - 1)


@settings(max_examples=800, deadline=None, derandomize=True)
@given(data=st.data())
def test_every_public_callable_answers_or_refuses(
    package: Package, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(package.targets) - 1))
    name, function = package.targets[at]
    note(name)
    _call(package, name, function, data, depth=2)


# -- the findings of issue 23, one by one -----------------------------------------


def test_a_4300_digit_argument_is_refused_by_its_digit_count() -> None:
    from rulebook import d20_scifi, edge_of_darkness
    from rulebook.errors import RuleInputError

    # past Number.MAX_SAFE_INTEGER, refused as JavaScript refuses it
    safe = ": JavaScript numbers are exact integers only up to Number.MAX_SAFE_INTEGER$"
    with pytest.raises(RuleInputError, match=r"not an int of 4,301 digits" + safe):
        d20_scifi.crawl_speed(0, HUGE)
    with pytest.raises(RuleInputError, match=r"not a negative int of 4,301 digits"):
        d20_scifi.crawl_speed(0, -HUGE)
    with pytest.raises(
        RuleInputError,
        match=r"^dice must be in -9007199254740991\.\.30, not an int of 4,301 digits"
        + safe,
    ):
        edge_of_darkness.pool_distribution(HUGE)
    with pytest.raises(RuleInputError, match="an int of 4,301 digits"):
        d20_scifi.accumulation(HUGE, random.Random(1))


def test_parse_dice_of_a_non_str_is_refused() -> None:
    from rulebook.dice import parse_dice
    from rulebook.errors import RuleInputError

    for wrong in (3, None, b"3d6", Hostile(), HostileInt(3)):
        with pytest.raises(RuleInputError, match=r"^text must be a str, not "):
            parse_dice(wrong)  # type: ignore[arg-type]
    assert parse_dice(HostileStr("3d6")) == parse_dice("3d6")


def test_json_refusals_are_still_type_errors() -> None:
    from rulebook.errors import RuleInputError
    from rulebook.json import dumps, to_data

    for wrong in (object(), Hostile(), HostileMapping(), [Hostile()]):
        with pytest.raises(RuleInputError) as caught:
            to_data(wrong)
        assert isinstance(caught.value, TypeError)
    with pytest.raises(RuleInputError, match="could not be written as JSON"):
        dumps(HUGE)
