"""compiler/jsontext.py writes JSON exactly as ``json.dumps(doc, indent=2,
ensure_ascii=False)`` does, with or without sorted keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler import jsontext

GENERATED = Path(__file__).resolve().parent.parent / "generated"

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats()
_docs = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(_keys, inner, max_size=4)
    ),
    max_leaves=30,
)


def _same(doc: Any, *, sort_keys: bool = False) -> None:
    expected = json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=sort_keys)
    assert jsontext.dumps(doc, sort_keys=sort_keys) == expected


@settings(max_examples=400, deadline=None, derandomize=True)
@given(doc=_docs)
def test_any_json_value_is_written_as_json_dumps_writes_it(doc: Any) -> None:
    _same(doc)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    doc=st.recursive(
        _scalars,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_sorted_keys_as_json_dumps_sorts_them(doc: Any) -> None:
    _same(doc, sort_keys=True)


@pytest.mark.parametrize(
    "path",
    sorted(GENERATED.glob("**/*.json")),
    ids=lambda p: p.relative_to(GENERATED).as_posix(),
)
def test_the_generated_json_files_read_back_as_written(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    _same(doc)
    _same(doc, sort_keys=True)


def test_what_json_cannot_write_is_refused() -> None:
    with pytest.raises(TypeError):
        jsontext.dumps({"a": object()})
    with pytest.raises(TypeError):
        jsontext.dumps({(1, 2): 1})
