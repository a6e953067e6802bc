"""House banners: a change the house rules make reads as the rule's page does (titles, labels, units)."""

from __future__ import annotations

from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from rulesc import pipeline
from rulesc.emit.markdown.house_words import change_words
from rulesc.emit.viewkit import cell_md
from rulesc.front.model import Override, Rule, System

from .conftest import ROOT

PACK = ROOT / "tests" / "house"


@cache
def _pack() -> tuple[System, Rule]:
    """The house system of tests/house and its (table) rule cover."""
    systems = {s.id: s for s in pipeline.load_systems(ROOT / "rules", more=[PACK])}
    system = systems["my_table"]
    return system, next(r for r in system.rules if r.id == "cover")


def _numbers() -> st.SearchStrategy[tuple[int, int, int, int | None]]:
    _, rule = _pack()
    columns = [c for c in rule.columns if c.type == "int"]  # type: ignore[attr-defined]
    return st.tuples(
        st.integers(0, len(rule.rows) - 1),  # type: ignore[attr-defined]
        st.integers(0, len(columns) - 1),
        st.integers(-50, 50),
        st.none() | st.integers(-50, 50),
    )


@given(_numbers())
def test_a_changed_cell_reads_as_the_table_shows_it(
    case: tuple[int, int, int, int | None],
) -> None:
    """Any row, any number column, any figures: the column's title, the row's
    label, each figure as the page's table writes it (sign, unit, the words of
    an empty cell)."""
    system, rule = _pack()
    row_at, column_at, now, was = case
    column = [c for c in rule.columns if c.type == "int"][column_at]  # type: ignore[attr-defined]
    member = rule.rows[row_at].key  # type: ignore[attr-defined]
    key = str(getattr(member, "label", member))  # the label a reader sees
    said = change_words(
        system, rule, Override(rule.id, ("rows", key, column.name), now, was)
    )
    assert said == (
        f"{column.title} for {key}: {cell_md(column, now)} at this table "
        f"(the book: {cell_md(column, was)})."
    )
    assert "_" not in said and "›" not in said


def test_the_pack_s_own_change_reads_in_words() -> None:
    system, rule = _pack()
    [change] = system.house.changes if system.house else ()
    assert change_words(system, rule, change) == (
        "Cover AC bonus for 3/4: +7 AC at this table (the book: +6 AC)."
    )


def test_an_added_ruling_reads_by_its_question_and_a_field_by_its_words() -> None:
    system, rule = _pack()
    added = Override(
        rule.id,
        ("rulings", "walls_of_glass"),
        {"id": "walls_of_glass", "question": "Is glass cover?", "ruling": "Yes."},
        None,
    )
    assert change_words(system, rule, added) == (
        "A ruling added at this table: Is glass cover?"
    )
    summary = Override(rule.id, ("summary",), "Walls  help.", "Walls help a little.")
    assert change_words(system, rule, summary) == (
        "Summary: Walls help. at this table (the book: Walls help a little.)."
    )
    ruling = rule.rulings[0]
    changed = Override(rule.id, ("rulings", ruling.id, "reason"), "Ours.", None)
    said = change_words(system, rule, changed)
    assert said == (
        f"Reason for the ruling “{ruling.question}”: Ours. at this table "
        "(the book has none)."
    )
