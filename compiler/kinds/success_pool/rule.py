"""success_pool: a dice pool that counts successes, said as a decision.

The kind is a front end: its figures (the die, the faces that succeed and roll
again, the chance die, how far its odds list counts) are checked here, then
written as the decision they mean and built by that kind, so the pool lowers
to the core as every decision does:

- ``pool``: the dice (none when there are none), each rolled again right
  after it while it shows ``again_at`` or more (``(max(dice, 0))dS!>=A``);
- ``chance``: with no dice (or fewer), one chance die;
- ``again``: when the chance die succeeds, one more die, rolled again as any;
- the answer: the successes among the pool's dice; or for a chance die its
  dramatic failure, no success, or one and the successes of the die after it;
  ``rolls`` every die in the order rolled;
- its odds are those of the successes, followed ``max(dice, 0) + listed_beyond``
  dice deep: each count up to the pool's size plus ``listed_beyond`` with its
  whole chance, the larger ones their ``tail``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...common.diagnostics import pointer
from ...common.limits import (
    MAX_CHART_COLUMNS,
    MAX_POOL_CHARTS,
    most_pool_dice,
    pool_work,
)
from ..decision import rule as decision
from ..decision.model import DecisionRule

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

_KEPT = ("id", "title", "summary", "source", "rulings", "errata", "examples")
"""The keys of the rule that the decision keeps as written."""


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> DecisionRule | None:
    """The pool's figures checked, then the decision they say, built."""
    if not _figures_hold(b, src, path, raw):
        return None
    written = {
        "function": (*path, "functions", "roll"),
        "odds_function": (*path, "functions", "distribution"),
        "result": (*path, "result"),
    }
    return decision.build(b, src, path, as_decision(raw), common, written)


def as_decision(raw: dict[str, Any]) -> dict[str, Any]:
    """The decision a pool's figures say (see the module's docstring)."""
    sides, success, again = raw["sides"], raw["success_at"], raw["again_at"]
    chance = raw["chance"]
    die = f"d{sides}!" if again == sides else f"d{sides}!>={again}"
    hits = f"{success}, {sides}"
    answer = {"successes": f"count(pool, {hits})", "dramatic_failure": False}
    decided: dict[str, Any] = {k: raw[k] for k in _KEPT if k in raw}
    decided |= {
        "kind": "decision",
        "function": raw["functions"]["roll"],
        "parameters": [
            {
                "name": "dice",
                "type": "int",
                "max": raw["max_dice"],
                "description": "The dice in the pool (none or fewer: one chance die).",
            }
        ],
        "let": [
            {
                "name": "pool",
                "value": f"rolls((max(dice, 0)){die})",
                "description": "The pool's dice, each rolled again while it shows "
                f"{again} or more.",
            },
            {
                "name": "chance",
                "value": f"rolls((1 if dice <= 0 else 0)d{sides})",
                "description": "With no dice, the chance die.",
            },
            {
                "name": "again",
                "value": f"rolls((1 if dice <= 0 and sum(chance) >= "
                f"{chance['success_at']} else 0){die})",
                "description": "When the chance die succeeds, one more die, "
                "rolled again as any.",
            },
        ],
        "result": raw.get("result", "PoolResult"),
        "fields": [
            {"name": "successes", "title": "Successes", "type": "int"},
            {"name": "dramatic_failure", "title": "Dramatic failure", "type": "bool"},
            {
                "name": "rolls",
                "title": "Dice rolled",
                "type": "list",
                "items": "int",
                "default": "pool + chance + again",
            },
        ],
        "odds": "successes",
        "odds_function": raw["functions"]["distribution"],
        "depth": f"max(dice, 0) + {raw['listed_beyond']}",
        "cases": [
            {"when": "dice > 0", "then": answer},
            {
                "when": f"sum(chance) == {chance['dramatic_failure_at']}",
                "then": {"successes": 0, "dramatic_failure": True},
            },
            {
                "when": f"sum(chance) < {chance['success_at']}",
                "then": {"successes": 0, "dramatic_failure": False},
            },
            {
                "when": "true",
                "then": {
                    "successes": f"1 + count(again, {hits})",
                    "dramatic_failure": False,
                },
            },
        ],
    }
    if "chart" in raw:
        chart = raw["chart"]
        decided["odds_chart"] = {
            "over": "dice",
            "values": list(chart["pools"]),
            "beat": list(chart["beat"]),
            "title": chart["title"],
        }
    return decided


def _figures_hold(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]
) -> bool:
    """The pool's figures: faces of its die, in order; within what rulesc works
    out exactly."""
    reported = len(b.errors)
    sides = raw["sides"]
    checks = [
        (
            "success_at",
            1 <= raw["success_at"] <= sides,
            f"must be a face of the d{sides}",
        ),
        (
            "again_at",
            raw["success_at"] <= raw["again_at"] <= sides and raw["again_at"] > 1,
            f"must be a face of the d{sides}, at least success_at and above 1 (or re-rolls never end)",
        ),
        (
            "chance",
            1 <= raw["chance"]["success_at"] <= sides
            and 1 <= raw["chance"]["dramatic_failure_at"] < raw["chance"]["success_at"],
            f"faces of the d{sides}, the dramatic failure below the success",
        ),
    ]
    for key, ok, why in checks:
        if not ok:
            b.err(src, (*path, key), f"{key} {why}")
    _check_work(b, src, path, raw)
    return len(b.errors) == reported


def _check_work(
    b: SystemBuilder, src: SourceFile, path: Path, raw: dict[str, Any]
) -> None:
    """The exact distributions the rule promises, and those its chart needs at
    build time, within the limits of rulesc: checked before any is worked out."""
    sides, beyond, most = raw["sides"], raw["listed_beyond"], raw["max_dice"]
    largest = most_pool_dice(sides, beyond)
    if most > largest:
        b.err(
            src,
            (*path, "max_dice"),
            f"max_dice {most} is more than rulesc works out exactly: at most {largest} "
            f"dice of d{sides} with listed_beyond {beyond} (a limit of rulesc)",
            "each pool's exact distribution is worked out on demand, and its cost grows "
            "with the pool, the sides and listed_beyond",
        )
        return
    chart = raw.get("chart")
    if chart is None:
        return
    for key, top in (("pools", most), ("beat", None)):
        low, high = chart[key]
        if low > high or low < 0:
            b.err(
                src,
                (*path, "chart", key),
                f"{key} must be [low, high] with 0 <= low <= high",
            )
            return
        if top is not None and high > top:
            b.err(
                src,
                (*path, "chart", key),
                f"the chart's pools go up to {high}, past max_dice ({top})",
                f"chart pools of at most {top} dice: larger ones are refused",
            )
            return
        if top is None and high - low + 1 > MAX_CHART_COLUMNS:
            b.err(
                src,
                (*path, "chart", key),
                f"the chart beats {high - low + 1:,} numbers: at most "
                f"{MAX_CHART_COLUMNS} columns (a limit of rulesc)",
                f"chart at most {MAX_CHART_COLUMNS} numbers to beat",
            )
            return
    work = sum(pool_work(sides, beyond, n) for n in range(chart["pools"][1] + 1))
    budget = b.budget("pool charts", MAX_POOL_CHARTS)
    total = budget.spend(src.path, pointer(path), work)
    if total is not None and budget.first_refusal(src.path):
        b.err(
            src,
            (*path, "chart", "pools"),
            f"charting pools up to {chart['pools'][1]} dice brings this file's pool "
            f"charts to {total:,} units of work: at most {MAX_POOL_CHARTS:,} a file "
            "(a limit of rulesc)",
            "every pool from none to the chart's most is charted with its exact "
            "chances: chart smaller pools, or fewer sides or listed_beyond",
        )
