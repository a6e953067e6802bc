"""rulesc simulate: a rule that rolls dice, once (a process) or many times (a summary)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rulesc.kinds.process.workbench import clock
from rulesc.workbench.simulate import Progress

from .workbench_helpers import project, rulesc

__all__ = ["project"]

RADIATION = (
    "simulate",
    "d20_scifi.simulate_radiation",
    "--level",
    "High",
    "--exposed-minutes",
    "30",
    "--fort-bonus",
    "2",
)


def test_one_timeline_reads_event_by_event(project: Path) -> None:
    done = rulesc(*RADIATION, "--seed", "1", cwd=project)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("d20_scifi.simulate_radiation: Radiation sickness")
    assert "level=High, exposed_minutes=30, fort_bonus=2; seed 1" in out
    events = out.split("Totals")[0]
    assert "0m   contaminated" in events
    assert "30m   decontaminated" in events
    assert "instant, Low: incubation end; pool of" in events
    assert "save 1d20 rolls" in events and "vs dc 12" in events  # the instant exposure
    assert "vs dc 19" in events  # the full exposure, at High
    assert "con damage (total" in events and "heal 1 con damage (left:" in events
    assert "con damage dealt" in out.split("Totals")[1]
    again = rulesc(*RADIATION, "--seed", "1", cwd=project)
    assert again.stdout == out  # a seed gives one timeline


def test_json_and_the_totals_agree(project: Path) -> None:
    done = rulesc(*RADIATION, "--seed", "3", "--json", cwd=project)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["rule"] == "d20_scifi.simulate_radiation" and doc["seed"] == 3
    assert doc["inputs"] == {"level": "High", "exposed_minutes": 30, "fort_bonus": 2}
    answer = doc["answer"]
    dealt = sum(e["amount"] for e in answer["events"] if e["kind"] == "con_damage")
    assert answer["con_damage_dealt"] == dealt
    minutes = [e["minute"] for e in answer["events"]]
    assert minutes == sorted(minutes)


def test_many_runs_summarise(project: Path) -> None:
    done = rulesc(*RADIATION, "--seed", "1", "--runs", "300", "--json", cwd=project)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["summary"]
    damage = summary["con damage dealt, distribution"]
    assert sum(damage.values()) == 300
    first = summary["time to the first secondary effect"]
    assert len(first["times"]) + first["never"] == 300
    text = rulesc(*RADIATION, "--seed", "1", "--runs", "300", cwd=project)
    assert "300 runs from seed 1" in text.stdout
    assert "time to the first con damage" in text.stdout
    assert "\r" not in text.stdout  # no progress bar when piped


def test_other_rules_that_roll(project: Path) -> None:
    pool = rulesc(
        "simulate",
        "edge_of_darkness.dice_pool",
        "--dice",
        "5",
        "--seed",
        "2",
        cwd=project,
    )
    assert pool.returncode == 0, pool.stderr
    assert "successes" in pool.stdout and "Dice rolled, in order:" in pool.stdout
    assert "d10: " in pool.stdout


def test_usage_errors(project: Path) -> None:
    missing = rulesc(
        "simulate", "d20_scifi.simulate_radiation", "--level", "High", cwd=project
    )
    assert missing.returncode == 2
    assert "--exposed-minutes" in missing.stderr
    nodice = rulesc("simulate", "d20_scifi.crawl_speed", cwd=project)
    assert nodice.returncode == 2 and "rolls no dice" in nodice.stderr
    bad = rulesc(*RADIATION[:3], "Extreme", *RADIATION[4:], cwd=project)
    assert bad.returncode == 2 and "level is one of Minor" in bad.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    screen = _Terminal()
    bar = Progress(1000, screen)
    for done in range(0, 1001, 100):
        bar.update(done)
    bar.close()
    drawn = screen.getvalue()
    assert "\r  [###############...............]  50%  500/1000 runs" in drawn
    assert "100%" in drawn and drawn.endswith("\r")
    piped = io.StringIO()
    quiet = Progress(1000, piped)
    quiet.update(500)
    quiet.close()
    assert piped.getvalue() == ""


def test_clock() -> None:
    units = [("minutes", 1), ("hours", 60), ("days", 1440)]
    assert [clock(m, units) for m in (0, 12, 187, 4620)] == [
        "0m",
        "12m",
        "3h 07m",
        "3d 05h 00m",
    ]
    # A process counted in days shows days; units sharing a letter show in full.
    assert clock(3, [("days", 1)]) == "3d"
    weeks = [("days", 1), ("dekads", 10)]
    assert clock(23, weeks) == "2 dekads 3 days"
