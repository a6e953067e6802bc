"""The empty list ``[]``: a list of no elements whose type is that of the list
it meets (joined with ``+``, the other branch of an ``if``, a list field or a
list state value); ``len``, ``sum``, ``any`` and ``all`` of it are constants.
Where nothing gives it a type (a ``let``), or where it has nothing to give
(``min``, ``max``, ``in``, ``count``), it is a located error. The Python the
allowed uses emit is run here and checked by ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.expr import to_python
from rulesc.emit.python.statements import held
from rulesc.front.model import Column
from rulesc.lang.expr import (
    Checked,
    ExprError,
    Interval,
    Name,
    Param,
    compile_formula,
    evaluate,
)

from .test_decision_rolls import _check  # pyright: ignore[reportPrivateUsage]

_ROLLS = Checked(
    Name("rolls", 0, 0), "list", Interval(1, 6), item="int", length=Interval(0, None)
)
PARAMS = {
    "x": Param("x", "int", 1, 6),
    "flag": Param("flag", "bool"),
    "rolls": Param("rolls", "int", bound=_ROLLS),  # a list, as a state value's
}
ENV: dict[str, Any] = {"x": 4, "flag": True, "rolls": [2, 5]}


def check(text: str) -> Checked:
    return compile_formula(text, PARAMS)


def error(text: str) -> ExprError:
    with pytest.raises(ExprError) as info:
        check(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "item", "interval", "length"),
    [
        ("[]", None, None, Interval(0, 0)),
        ("[] + []", None, None, Interval(0, 0)),
        ("[] + [x]", "int", Interval(1, 6), Interval(1, 1)),
        ("[x] + []", "int", Interval(1, 6), Interval(1, 1)),
        ("rolls + []", "int", Interval(1, 6), Interval(0, None)),
        ("[] + rolls + [x]", "int", Interval(1, 6), Interval(1, None)),
        ("[] if flag else [x, 2]", "int", Interval(1, 6), Interval(0, 2)),
        ("[flag] if flag else []", "bool", None, Interval(0, 1)),
        ('[] if flag else ["a"]', "text", None, Interval(0, 1)),
        ("sorted([])", None, None, Interval(0, 0)),
    ],
)
def test_the_empty_list_takes_the_type_of_the_list_it_meets(
    text: str, item: str | None, interval: Interval | None, length: Interval
) -> None:
    checked = check(text)
    assert (checked.type, checked.item) == ("list", item)
    assert (checked.interval, checked.length) == (interval, length)
    assert not checked.nullable


@pytest.mark.parametrize(
    ("text", "kind", "interval", "value"),
    [
        ("len([])", "int", Interval(0, 0), 0),
        ("sum([])", "int", Interval(0, 0), 0),
        ("any([])", "bool", None, False),
        ("all([])", "bool", None, True),
        ("len(rolls + [])", "int", Interval(0, None), 2),
        ("sum([] + [x])", "int", Interval(1, 6), 4),
    ],
)
def test_functions_of_the_empty_list(
    text: str, kind: str, interval: Interval | None, value: Any
) -> None:
    checked = check(text)
    assert (checked.type, checked.interval) == (kind, interval)
    assert evaluate(checked.node, ENV, rounding="down") == value


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("x in []", "nothing is ever in an empty list", "give the list"),
        ("x not in [] + []", "nothing is ever in an empty list", None),
        ("max([])", "max() of an empty list has no value", "two values"),
        ("min([] + [])", "min() of an empty list has no value", None),
        ("count([], 1)", "count() of an empty list is always 0", "write 0"),
        ("[[]]", "a list cannot hold empty list", None),
        ("[] + 1", "cannot join empty list and int", "[x] + list"),
        ("[] == []", "cannot compare empty list and empty list", None),
        ("[1] if flag else null", "are a list and null", None),
        ("[] if flag else null", "are a list and null", None),
    ],
)
def test_where_the_empty_list_cannot_go(
    text: str, message: str, hint: str | None
) -> None:
    found = error(text)
    assert message in found.message
    if hint is not None:
        assert found.hint is not None and hint in found.hint, found.hint


# Each allowed use as generated code holds it: a list as a tuple of ints (a
# list field's or a state value's), a number, or a flag.
_USES = [
    ("[]", "tuple[int, ...]"),
    ("[] + [x]", "tuple[int, ...]"),
    ("rolls + []", "tuple[int, ...]"),
    ("[] if flag else [x]", "tuple[int, ...]"),
    ("[x] if flag else []", "tuple[int, ...]"),
    ("sorted([])", "tuple[int, ...]"),
    ("len([])", "int"),
    ("sum([])", "int"),
    ("any([])", "bool"),
    ("all([] + [flag])", "bool"),
]


_LIST = Column("v", "list", False, "-", False, None, "V", None, None, "int")


def _python(text: str) -> str:
    code = to_python(check(text).node, name=str, rounding="down")
    return held(_LIST, code) if check(text).type == "list" else code


def test_the_python_of_each_use_runs_and_is_mypy_strict_clean(
    tmp_path: Path,
) -> None:
    lines = ["def uses(x: int, flag: bool, rolls: tuple[int, ...]) -> list[object]:"]
    lines += [
        f"    v{i}: {kind} = {_python(text)}" for i, (text, kind) in enumerate(_USES)
    ]
    lines.append(f"    return [{', '.join(f'v{i}' for i in range(len(_USES)))}]")
    module = tmp_path / "uses.py"
    module.write_text("\n".join(lines) + "\n", encoding="utf-8")
    scope: dict[str, Any] = {}
    exec(module.read_text(encoding="utf-8"), scope)
    found = scope["uses"](4, True, (2, 5))
    assert found == [(), (4,), (2, 5), (), (4,), (), 0, 0, False, True]
    assert _python("[]") == "()"
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(module)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


_LET = """
  - id: none_yet
    kind: decision
    title: None yet
    summary: A let that is always the empty list.
    source: {section: Test}
    function: none_yet
    parameters: []
    let:
      - {name: found, value: "[]"}
    value: {type: int, title: Count}
    cases:
      - when: "true"
        then: len(found)
"""


def test_a_let_that_is_always_the_empty_list_is_a_located_error(
    tmp_path: Path,
) -> None:
    stderr = _check(tmp_path, _LET)
    assert (
        "error: a let value that is always the empty list has no type of elements"
        in stderr
    ), stderr
    assert stderr.count("error:") == 1, stderr


@pytest.mark.parametrize(
    ("text", "x", "flag", "answer"),
    [
        ("([x] if flag else []) + ([2] if x > 3 else [])", 4, True, [4, 2]),
        ("([x] if flag else []) + ([2] if x > 3 else [])", 1, False, []),
        ("[x] + ([] if flag else [x, x])", 5, False, [5, 5, 5]),
        ("rolls + ([1] if flag or x > 2 else [])", 3, False, [2, 5, 1]),
    ],
)
def test_lists_joined_from_conditions_run_in_python(
    text: str, x: int, flag: bool, answer: list[int]
) -> None:
    """A list that is a condition's is spread with its brackets (`*(a if t
    else b)`: a bare condition is no Python there)."""
    code = to_python(check(text).node, name=str, rounding="down")
    assert eval(code, {"x": x, "flag": flag, "rolls": (2, 5)}) == answer
