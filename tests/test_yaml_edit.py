"""yaml_edit.add: a key or an item added where the YAML says it belongs, whatever the document around it.

Hypothesis writes documents of block and flow collections nested in each
other, with comments after lines and on lines of their own, blank lines,
empty values, block scalars (kept trailing lines too), LF and CRLF mixed, and
adds a value (block, flow, nested) to any of their collections. The document
then reads as it did with that one value added at the end of that collection,
by a single insertion, in the line endings it had (or, where a line break
after the file's last line would change its text, is left as it is).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.front.loader import load_text
from rulesc.workbench import rewrite
from rulesc.workbench.yaml_edit import add
from rulesc.workbench.yaml_text import Flow

KEYS = st.sampled_from(["a", "b", "rule", "examples", "overrides", "x y"])
PLAIN = st.sampled_from(["word", "two words", "it's", "1/2", "-x"])


@st.composite
def scalars(draw: st.DrawFn, indent: int) -> tuple[str, list[str]]:
    """A scalar: its text after ``key:`` or ``-``, and the lines below it."""
    kind = draw(st.sampled_from(["int", "null", "empty", "plain", "quoted", "block"]))
    if kind == "int":
        return str(draw(st.integers(-9, 99))), []
    if kind == "null":
        return draw(st.sampled_from(["null", "~"])), []
    if kind == "empty":
        return "", []
    if kind == "plain":
        return draw(PLAIN), []
    if kind == "quoted":
        return json.dumps(draw(PLAIN)), []
    header = draw(st.sampled_from(["|", "|+", "|-", ">", ">+", ">-"]))
    body = [" " * indent + w for w in draw(st.lists(PLAIN, min_size=1, max_size=2))]
    return header, body + [""] * draw(st.integers(0, 2))  # kept blank lines


@st.composite
def nodes(
    draw: st.DrawFn, indent: int, depth: int, kind: str = ""
) -> tuple[str, list[str]]:
    """A node at ``indent``: its text after ``key:`` or ``-`` (a block
    collection: none), and the lines below it."""
    kinds = ["scalar", "map", "seq", "flow"] if depth else ["scalar", "flow"]
    kind = kind or draw(st.sampled_from(kinds))
    if kind == "scalar":
        return draw(scalars(indent))
    if kind == "flow":
        items = draw(st.lists(st.integers(0, 9), max_size=3))
        if draw(st.booleans()):
            comma = draw(st.sampled_from(["", ", "])) if items else ""
            return "[" + ", ".join(map(str, items)) + comma + "]", []
        return "{" + ", ".join(f"k{i}: {v}" for i, v in enumerate(items)) + "}", []
    lines: list[str] = []
    keys = draw(st.lists(KEYS, min_size=1, max_size=3, unique=True))
    for key in keys:
        head = " " * indent + (f"{key}:" if kind == "map" else "-")
        inline, below = draw(nodes(indent + 2, depth - 1))
        lines.append(head + (" " + inline if inline else "") + _tail(draw, inline))
        lines += below
        if draw(st.integers(0, 5)) == 0:
            lines.append(" " * draw(st.integers(0, indent + 2)) + "# a comment")
    return "", lines


def _tail(draw: st.DrawFn, inline: str) -> str:
    if inline[:1] in ("|", ">"):
        return ""
    return draw(st.sampled_from(["", "", "  # c", " # d: [1]"]))


@st.composite
def documents(draw: st.DrawFn) -> str:
    _, lines = draw(nodes(0, 3, "map"))
    if draw(st.booleans()):
        lines.append("# the end")
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=1, max_size=2))
    text = "".join(line + draw(st.sampled_from(endings)) for line in lines)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no line ending at the end
    return text


values = st.one_of(
    st.integers(0, 9),
    st.just("a: b # c"),
    st.none(),
    st.just({"name": "n", "expect": Flow({"a": [1, "x"]})}),
    st.just([{"rule": "r", "examples": [{"name": "e", "expect": Flow(3)}]}]),
    st.just(Flow([1, 2])),
)


def _collections(
    value: Any, path: tuple[str | int, ...]
) -> list[tuple[str | int, ...]]:
    found = [path] if isinstance(value, dict | list) else []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for key, item in items:
        found += _collections(item, (*path, key))
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, Flow):
        return _plain(value.value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(documents(), values, st.data())
def test_a_value_added_reads_back_where_it_belongs(
    text: str, value: Any, data: st.DataObject
) -> None:
    before = load_text(text.encode(), "x.yaml").data
    path = data.draw(st.sampled_from(_collections(before, ())))
    node: Any = before
    for step in path:
        node = node[step]
    key = None
    if isinstance(node, dict):
        key = "added" if "added" not in node else "added2"
    try:
        after_text = add(text, path, key, value)
    except LookupError:  # refused only where a line break would change the text
        assert load_text(f"{text}\n".encode(), "x.yaml").data != before
        return

    after = load_text(after_text.encode(), "x.yaml").data
    node = before
    for step in path:
        node = node[step]
    if key is None:
        node.append(_plain(value))
    else:
        node[key] = _plain(value)
    assert json.dumps(after) == json.dumps(before)  # in order
    # one insertion: every byte before and after it as it was
    start = 0
    while start < len(text) and text[start] == after_text[start]:
        start += 1
    end = 0
    while end < len(text) - start and text[-1 - end] == after_text[-1 - end]:
        end += 1
    assert start + end == len(text)
    old_endings = set(rewrite.LINE_BREAK.findall(text)) or {"\n"}
    assert set(rewrite.LINE_BREAK.findall(after_text)) <= old_endings
