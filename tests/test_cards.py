"""The site's cards (docsite/cards.py): every body cell of a table is labelled
with the text of its column's head cell, whatever that text holds, and the page
is otherwise left as it was."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsite.cards import labelled, on_page_content


class _Labels(HTMLParser):
    """Each cell's tag and data-label (None: it has none), in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("td", "th"):
            self.cells.append((tag, dict(attrs).get("data-label")))


def _labels(page: str) -> list[tuple[str, str | None]]:
    parser = _Labels()
    parser.feed(page)
    parser.close()
    return parser.cells


def _table(heads: list[str], rows: list[list[str]], attrs: str = "") -> str:
    head = "".join(f"<th{attrs}>{h}</th>\n" for h in heads)
    body = "".join(
        "<tr>\n" + "".join(f"<td{attrs}>{c}</td>\n" for c in row) + "</tr>\n"
        for row in rows
    )
    return (
        f"<table>\n<thead>\n<tr>\n{head}</tr>\n</thead>\n"
        f"<tbody>\n{body}</tbody>\n</table>"
    )


def _said(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# Titles as the rules may hold them: markup, quotes, references, any character.
_TITLES = st.text(
    st.characters(exclude_categories=["Cs"]).filter(lambda c: c != "\r"),
    max_size=20,
) | st.sampled_from(['"><script>alert(1)</script>', "a &amp; b", "' onload='x"])


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(_TITLES, min_size=1, max_size=4))
def test_a_title_comes_back_as_the_label_whole(titles: list[str]) -> None:
    heads = [f"<em>{html.escape(t)}</em>" for t in titles]
    page = _table(heads, [[f"{i}" for i in range(len(titles))]] * 2)
    done = labelled(page)
    cells = [label for tag, label in _labels(done) if tag == "td"]
    assert cells == [_said(t) for t in titles] * 2
    # Nothing else changed: no tag or attribute came from a title.
    assert re.sub(r' data-label="[^"]*"', "", done) == page


def test_cells_past_the_head_and_head_cells_of_a_row_get_no_label() -> None:
    page = _table(["A", "B"], [["1", "2", "3"]], ' style="text-align: right;"')
    page = page.replace("<td", '<th scope="row"', 1).replace("</td>", "</th>", 1)
    found = _labels(labelled(page))
    assert found[2:] == [("th", None), ("td", "B"), ("td", None)]


def test_a_table_with_no_head_and_text_around_are_left_alone() -> None:
    lone = "<table>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>"
    page = f"<p>a &lt;td&gt; in words</p>\n{lone}\n{_table(['X'], [['1']])}"
    done = on_page_content(page, page=None, config=None, files=None)
    assert done.startswith(f"<p>a &lt;td&gt; in words</p>\n{lone}\n")
    assert _labels(done)[-1] == ("td", "X")


def test_two_tables_each_keep_their_own_titles() -> None:
    both = _table(["A"], [["1"]]) + "\n" + _table(["B", "C"], [["2", "3"]])
    found = [label for tag, label in _labels(labelled(both)) if tag == "td"]
    assert found == ["A", "B", "C"]


@pytest.mark.parametrize(
    ("tex", "words"),
    [
        (r"\(\text{Cover AC bonus}(\textit{level})\)", "Cover AC bonus(level)"),
        (r"\(\frac{a}{2} \times b \le 3\,\%\)", "a/2 × b ≤ 3 %"),
        (r"\[\max(x, 0)\]", "max(x, 0)"),
    ],
)
def test_a_formula_in_a_title_is_read_as_words(tex: str, words: str) -> None:
    page = _table([f'Take <span class="arithmatex">{html.escape(tex)}</span>'], [["1"]])
    assert _labels(labelled(page))[-1] == ("td", f"Take {words}")
