"""Names a formula binds (``let``): each worked out once, in order, before the
expression, in the runtime, on the page, in rules.json and in ``rulesc explain``;
a roll bound to a name is one roll however often it is read (the odds of such a
formula are checked against every roll in tests/test_formula_odds.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

from .conftest import ROOT, run_rulesc

RULES = ROOT / "tests" / "dice_formulas"


class Faces:
    """An rng answering the faces given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        face = self.faces.pop(0)
        assert low <= face <= high
        return face


def test_a_bound_roll_is_rolled_once_and_read_again(df: ModuleType) -> None:
    assert df.open_total(3, 2, Faces(10, 4)) == 19  # 10 adds a die
    assert df.open_total(3, 2, Faces(1, 4)) == 2  # 1 takes a die off
    assert df.open_total(3, 2, Faces(6)) == 11  # no second die rolled
    # the pool is rolled once and read for its sixes and for its highest
    assert df.pool_twice(3, Faces(6, 2, 6)) == 3
    assert df.pool_twice(3, Faces(6, 2, 1)) == 2
    assert df.pool_twice(3, Faces(4, 2, 1)) == 1
    assert df.pool_twice(3, Faces(3, 2, 1)) == 0
    for seed in range(30):
        rng = random.Random(seed)
        pool = [rng.randint(1, 6) for _ in range(4)]
        expected = (
            3
            if pool.count(6) >= 2
            else 2
            if max(pool) == 6
            else 1
            if max(pool) >= 4
            else 0
        )
        assert df.pool_twice(4, random.Random(seed)) == expected


def test_the_page_shows_the_names_in_order(df_out: Path) -> None:
    page = (df_out / "docs" / "dice_formulas" / "open_total.md").read_text(
        encoding="utf-8"
    )
    first = page.index(r"\textit{first} = \text{d10}")
    extra = page.index(r"\textit{extra} = \begin{cases}")
    then = page.index("Then it gives:")
    assert first < extra < then
    assert "The first die." in page


def test_rules_json_holds_the_names(df_out: Path) -> None:
    data = json.loads((df_out / "rules.json").read_text(encoding="utf-8"))
    (system,) = data["systems"]
    rule = next(r for r in system["rules"] if r["id"] == "open_total")
    lets = rule["let"]
    assert [(b["name"], b["value"]["source"]) for b in lets] == [
        ("first", "d10"),
        ("extra", "d10 if first == 10 else -d10 if first == 1 else 0"),
    ]


def test_explain_shows_each_name_then_the_formula() -> None:
    done = run_rulesc(
        "explain", "--rules", str(RULES), "dice_formulas.open_total",
        "stat=3", "skill=2", "--dice", "10,4", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "First, in order\n  first = d10 = 10\n" in text
    assert "= 4\n" in text.split("First, in order")[1].split("Formula")[0]
    # the answer, then (it rolls) the exact odds of an answer for these inputs
    assert "\nAnswer\n  19\n\nExact odds of its answer\n" in text
