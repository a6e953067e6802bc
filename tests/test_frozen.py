"""The core's frozen records (compiler/core/frozen.py): what ``dataclass(frozen=True)`` gave the core."""

from __future__ import annotations

import pytest

from rulesc.core.frozen import frozen
from rulesc.core.ir import Local


@frozen
class Point:
    x: int
    y: int
    label: str | None = None


def test_fields_by_position_keyword_and_default() -> None:
    assert Point(1, 2) == Point(x=1, y=2) == Point(1, y=2, label=None)
    assert Point(1, 2, "a").label == "a"
    assert Point.__match_args__ == ("x", "y", "label")
    match Point(3, 4):
        case Point(x, y):
            assert (x, y) == (3, 4)
        case _:
            pytest.fail("no match")


@pytest.mark.parametrize(
    ("args", "kwargs", "said"),
    [
        ((1, 2, "a", 4), {}, "takes 3 arguments"),
        ((1,), {}, "missing 'y'"),
        ((1, 2), {"z": 3}, "bad argument 'z'"),
        ((1, 2), {"x": 3}, "bad argument 'x'"),
    ],
)
def test_bad_arguments_are_refused(
    args: tuple[object, ...], kwargs: dict[str, object], said: str
) -> None:
    with pytest.raises(TypeError, match=said):
        Point(*args, **kwargs)  # type: ignore[arg-type]


def test_equality_hashing_and_repr_are_by_the_fields() -> None:
    assert Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(1, 3)}) == 2
    assert repr(Point(1, 2)) == "Point(x=1, y=2, label=None)"
    # a record of another type with the same values is another value
    assert Local("n", 1, 2) != Point(1, 2)  # type: ignore[comparison-overlap]
    assert Point(1, 2).__eq__(3) is NotImplemented


def test_a_record_cannot_change() -> None:
    point = Point(1, 2)
    with pytest.raises(AttributeError, match="frozen"):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del point.y
    assert point == Point(1, 2)
