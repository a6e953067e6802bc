"""success_pool: a dice pool that counts successes, with re-rolls and a chance die."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...charts import pool_chart
from ...diagnostics import pointer
from ...kinds.success_pool.model import SuccessPoolRule
from ...limits import (
    MAX_CHART_COLUMNS,
    MAX_POOL_CHARTS,
    most_pool_dice,
    pool_work,
)
from ...literals import code, docstring, md, number
from ...model import Rolls, System
from ...runtime._success_pool import SuccessPool
from ...viewkit import View, api, where_doc

if TYPE_CHECKING:
    from ...diagnostics import Path
    from ...loader import SourceFile
    from ...semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> SuccessPoolRule | None:
    functions = raw["functions"]
    for key in ("roll", "distribution"):
        b.claim(src, (*path, "functions", key), functions[key], "function")
    b.claim(src, (*path, "constant"), raw["constant"], "constant")
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
    chart = raw.get("chart")
    examples = b.examples(src, path, raw, {"dice"}, roll_columns=set())
    return SuccessPoolRule(
        **common,
        examples=examples,
        constant=raw["constant"],
        roll_function=functions["roll"],
        distribution_function=functions["distribution"],
        pool=SuccessPool(
            sides,
            raw["success_at"],
            raw["again_at"],
            raw["chance"]["success_at"],
            raw["chance"]["dramatic_failure_at"],
            raw["listed_beyond"],
            raw["max_dice"],
        ),
        chart_pools=tuple(chart["pools"]) if chart else None,
        chart_beat=tuple(chart["beat"]) if chart else None,
        chart_title=chart["title"] if chart else None,
    )


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


def python_view(system: System, rule: SuccessPoolRule) -> View:
    p = rule.pool
    return {
        "id": rule.qualified_id,
        "constant": rule.constant,
        "value": (
            f"SuccessPool(sides={p.sides}, success_at={p.success_at}, "
            f"again_at={p.again_at}, chance_success_at={p.chance_success_at}, "
            f"chance_dramatic_at={p.chance_dramatic_at}, listed_beyond={p.listed_beyond}, "
            f"max_dice={p.max_dice})"
        ),
        "const_doc": docstring(f"{rule.title}.\n\n{rule.summary}\n\n{where_doc(rule)}"),
        "roll": rule.roll_function,
        "roll_doc": docstring(
            f"Roll a pool of ``dice`` dice (a chance die for 0 or fewer). {where_doc(rule)}",
            "    ",
        ),
        "distribution": rule.distribution_function,
        "distribution_doc": docstring(
            "The exact chance of each success count; ``tail`` holds the chance of "
            f"more than the counts listed. {where_doc(rule)}",
            "    ",
        ),
        "imports": [
            ("typing", "Final"),
            ("rulebook._success_pool", "PoolDistribution"),
            ("rulebook._success_pool", "PoolResult"),
            ("rulebook._success_pool", "SuccessPool"),
            ("rulebook._support", "bad_int"),
            ("rulebook.dice", "RNG"),
        ],
        "exports": [
            rule.constant,
            rule.roll_function,
            rule.distribution_function,
            "PoolDistribution",
            "PoolResult",
        ],
    }


_CHARTED = 5  # without a chart, the pools up to this are charted (a docs choice)


def _percent(value: Fraction) -> str:
    if 0 < value < Fraction(1, 20000):
        return "<0.01%"
    return f"{float(value) * 100:.2f}%"


def docs_view(system: System, rule: SuccessPoolRule, common: View) -> View:
    p = rule.pool
    chart = None
    if rule.chart_pools and rule.chart_beat:
        pools = range(rule.chart_pools[0], rule.chart_pools[1] + 1)
        beats = range(rule.chart_beat[0], rule.chart_beat[1] + 1)
        chart = {
            "title": md(rule.chart_title or ""),
            "headers": ["Dice", *(f"beat {d}" for d in beats)],
            "rows": [
                [str(n), *(_percent(p.distribution(n).at_least(d + 1)) for d in beats)]
                for n in pools
            ],
        }
    most = rule.chart_pools[1] if rule.chart_pools else min(p.max_dice, _CHARTED)
    means = [(n, number(p.mean(n))) for n in range(0, most + 1)]
    return common | {
        "sides": p.sides,
        "success_at": p.success_at,
        "again_at": p.again_at,
        "chance_success_at": p.chance_success_at,
        "chance_dramatic_at": p.chance_dramatic_at,
        "api": api(
            common,
            "Calls: "
            + code(f"{rule.roll_function}(dice, rng) -> PoolResult")
            + " rolls a pool; "
            + code(f"{rule.distribution_function}(dice) -> PoolDistribution")
            + " gives its exact chances.",
        ),
        "chart": chart,
        "means": means,
        "charts": [pool_chart(system.id, rule.id, n) for n, _ in means],
    }


def rolls(rule: SuccessPoolRule) -> Rolls:
    return Rolls(rule.roll_function, ("dice",), "PoolResult")
