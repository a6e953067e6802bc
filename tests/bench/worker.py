"""A fresh process of ``make bench`` timing calls into one side's code (HEAD or the base).

Run as ``python -P worker.py KIND ARG REPEAT [--profile NAME OUT]`` with
``PYTHONPATH`` naming the side's folders, so that ``compiler`` and ``rulebook``
are that side's (``-P``: this folder, whose ``profile.py`` would hide the
standard library's, is not on the path). KIND is ``runtime`` (the generated
d20_scifi module; ARG unused), ``charts`` (every chart of the rules folder ARG,
worked out from scratch) or ``odds`` (every ``<function>_odds`` of the build
ARG, its int parameters at their maximum). It prints JSON: for each figure the
seconds per call (on the clock, and of CPU) of REPEAT runs, and a note (what it
answers, a refusal, why it is not timed).
With ``--profile`` it times nothing: it writes a cProfile (in CPU time) of a second's calls of
figure NAME to OUT, and prints how many calls.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Call = Callable[[], object]


def runtime(_arg: str) -> tuple[dict[str, Call], dict[str, str]]:
    d20: Any = importlib.import_module("rulebook.d20_scifi")
    label = d20.CoverLevel("1/2").value
    member = d20.CoverLevel(label)

    def radiation() -> None:  # 40 seeds: the figure is per run
        for seed in range(40):
            d20.simulate_radiation("High", 10, 2, random.Random(seed))

    calls: dict[str, Call] = {
        "cover_label": lambda: d20.cover(label),
        "cover_member": lambda: d20.cover(member),
        "crawl_speed": lambda: d20.crawl_speed(climb_bonus=2, occupied_limbs=1),
        "radiation": radiation,
    }
    return calls, {}


def charts(arg: str) -> tuple[dict[str, Call], dict[str, str]]:
    """Drawing the build's charts from its pages (both sides of a bench run:
    before 0b4e183 ``for_pages`` took the systems and drew a success pool's
    charts from its engine; since, a rule's odds charts are drawn with its
    page, from the generated runtime, and come in drawn)."""
    import importlib
    import inspect

    # the side's compiler/ folder, by PYTHONPATH (HEAD's installed name is rulesc)
    pipeline: Any = importlib.import_module("compiler.pipeline")
    try:  # HEAD's layout; a base before issue 40 had it at compiler/'s root
        charts_mod: Any = importlib.import_module("compiler.emit.markdown.charts")
    except ModuleNotFoundError:
        charts_mod = importlib.import_module("compiler.charts")
    for_pages: Any = charts_mod.for_pages
    dice_mod: Any = importlib.import_module("compiler.runtime.dice")

    outputs = pipeline.build(Path(arg))
    pages = {
        path: blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("docs/") and path.endswith(".md")
    }
    drawn = {
        path.removeprefix("docs/"): blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("docs/charts/odds-")
    }
    draw: Any = for_pages
    if next(iter(inspect.signature(for_pages).parameters)) == "systems":
        engine: Any = importlib.import_module("compiler.runtime._success_pool")
        systems = list(outputs.systems)

        def once() -> int:
            dice_mod._sum_counts.cache_clear()  # pyright: ignore[reportPrivateUsage]
            engine._distribution.cache_clear()
            return len(draw(systems, pages))

        return {"charts": once}, {"charts": f"{once()} SVG charts drawn"}

    def drawn_once() -> int:
        dice_mod._sum_counts.cache_clear()  # pyright: ignore[reportPrivateUsage]
        return int(len(draw(pages, drawn)) - len(drawn))

    note = f"{drawn_once()} SVG charts of dice drawn ({len(drawn)} of odds come drawn)"
    return {"charts": drawn_once}, {"charts": note}


def odds(arg: str) -> tuple[dict[str, Call], dict[str, str]]:
    """Every odds function of the build ``arg``, with its int parameters at their
    maximum (from rules.json); a note says what each answers or why it is not
    timed."""
    catalog: Any = json.loads((Path(arg) / "rules.json").read_text("utf-8"))
    calls: dict[str, Call] = {}
    notes: dict[str, str] = {}
    for system in catalog["systems"]:
        module = importlib.import_module(f"rulebook.{system['id']}")
        for rule in system["rules"]:
            named = rule.get("odds_function") or f"{rule.get('function')}_odds"
            function = getattr(module, named, None)
            if function is None:
                continue
            params: list[dict[str, Any]] = rule.get("params") or []
            top: dict[str, int | None] = {
                p["name"]: p["max"] for p in params if p["type"] == "int"
            }
            name = (
                f"{function.__name__}({', '.join(f'{k}={v}' for k, v in top.items())})"
            )
            if len(top) < len(params) or None in top.values():
                notes[name] = "not timed: a parameter is not an int with a maximum"
                continue
            args = {k: v for k, v in top.items() if v is not None}
            calls[name], notes[name] = _guarded(function, args)
    return calls, notes


def _guarded(function: Callable[..., object], args: dict[str, int]) -> tuple[Call, str]:
    """The call, answering a refusal instead of raising it; what it answers."""
    try:
        chances: Any = function(**args)
    except Exception as exc:  # a refusal is timed too: the row says it refused
        note = f"refuses: {type(exc).__name__}: {exc}"

        def refused() -> object:
            try:
                return function(**args)
            except Exception as again:
                return again

        return refused, note
    return lambda: function(**args), f"{len(chances)} answers"


KINDS = {"runtime": runtime, "charts": charts, "odds": odds}


def per_call(call: Call, repeat: int, least: float) -> list[tuple[float, float]]:
    """Seconds per call on the clock and of this process's CPU, ``repeat`` times,
    each over enough calls to take ``least``."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            call()
        took = time.perf_counter() - start
        if took >= least:
            break
        number *= 10 if took < least / 10 else 2
    times: list[tuple[float, float]] = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            call()
        wall = (time.perf_counter() - start) / number
        times.append((wall, (time.process_time() - cpu) / number))
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("arg")
    parser.add_argument("repeat", type=int)
    parser.add_argument("--least", type=float, default=0.2)
    parser.add_argument("--profile", nargs=2, metavar=("NAME", "OUT"))
    options = parser.parse_args(argv)
    calls, notes = KINDS[options.kind](options.arg)
    if options.profile:
        name, out = options.profile
        call = calls[name]
        profiler = cProfile.Profile(time.process_time)
        start, count = time.perf_counter(), 0
        profiler.enable()
        while time.perf_counter() - start < 1.0:
            call()
            count += 1
        profiler.disable()
        profiler.dump_stats(out)
        json.dump({"calls": count}, sys.stdout)
        return 0
    times = {
        name: per_call(call, options.repeat, options.least)
        for name, call in calls.items()
    }
    json.dump({"times": times, "notes": notes}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
