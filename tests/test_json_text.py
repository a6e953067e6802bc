"""compiler.common.json_text writes exactly what json.dumps(indent=2) writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common import json_text

ROOT = Path(__file__).resolve().parents[1]

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, derandomize=True)
@given(_values, st.booleans())
def test_any_json_value(value: Any, sort_keys: bool) -> None:
    expected = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys)
    assert json_text.dumps(value, sort_keys=sort_keys) == expected


@pytest.mark.parametrize("name", ["rules.json", "rules.schema.json", "manifest.json"])
def test_the_documents_the_build_writes(name: str) -> None:
    text = (ROOT / "generated" / name).read_text(encoding="utf-8")
    doc = json.loads(text)
    assert json_text.dumps(doc, sort_keys=name == "manifest.json") + "\n" == text


def test_what_is_not_plain_json_is_the_standard_librarys() -> None:
    value = {"a": (1, 2), 3: "int key", "b": [{"c": float("nan")}]}
    assert json_text.dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)
    with pytest.raises(TypeError):
        json_text.dumps({"a": object()})
