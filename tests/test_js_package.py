"""The JavaScript package as its users get it: ``npm install ./generated/js`` in a
project of their own, imported by name, and its types under ``tsc --strict``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from .js_node import JS_TESTS, PACKAGE, missing, node, node_json

TSC = JS_TESTS / "node_modules" / ".bin" / "tsc"


def test_the_package_installs_alone_and_answers(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        missing("npm")
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text(
        json.dumps({"name": "app", "private": True, "type": "module"}), "utf-8"
    )
    done = subprocess.run(
        [npm, "install", "--offline", "--no-audit", "--no-fund", str(PACKAGE)],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    manifest = json.loads((app / "package.json").read_text("utf-8"))
    name = json.loads((PACKAGE / "package.json").read_text("utf-8"))["name"]
    assert name == "rulebook-tabletop"  # rules/package.yaml's npm name
    assert list(manifest["dependencies"]) == [name]
    script = """
import { cover, CoverLevel, attackThroughCover } from "rulebook-tabletop/d20_scifi";
import { Dice, Random, RuleInputError, d20_scifi } from "rulebook-tabletop";
const row = cover("1/2");
if (row.coverAc !== 4 || CoverLevel.HALF !== "1/2" || d20_scifi.cover !== cover) {
  throw new Error("wrong answer");
}
const attack = attackThroughCover("1/2", "hard", "warhead", "through_cover", {
  warheadPenetrates: true,
});
let refused = null;
try { cover("one half"); } catch (error) { refused = error; }
console.log(JSON.stringify([attack, refused instanceof RuleInputError,
  new Dice(3, 6).roll(new Random(7))]));
"""
    attack, refused, rolled = node_json(script, cwd=app)
    assert attack["allowed"] is True and attack["miss_chance"] == 20
    assert refused is True
    import random

    rng = random.Random(7)
    assert rolled == sum(rng.randint(1, 6) for _ in range(3))


def test_the_package_has_no_dependencies() -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text("utf-8"))
    assert manifest["name"] == "rulebook-tabletop"  # rules/package.yaml
    assert manifest["type"] == "module"
    assert "dependencies" not in manifest
    for entry in manifest["exports"].values():
        assert (PACKAGE / entry["default"]).is_file()
        assert (PACKAGE / entry["types"]).is_file()
    for module in PACKAGE.glob("*.js"):
        assert (PACKAGE / f"{module.stem}.d.ts").is_file(), module.name
        text = module.read_text("utf-8")
        for source in re.findall(
            r'^(?:import|export)\b[^;]*?\bfrom "([^"]+)"', text, re.M
        ):
            assert source.startswith("./"), f"{module.name} imports {source}"


def test_types_pass_tsc_strict() -> None:
    """``tsc --strict --noEmit`` on every .d.ts of the package and on a consumer
    (tests/js/consumer.ts) that also checks what the types refuse."""
    node()
    if not TSC.is_file():
        missing("TypeScript (tests/js: npm ci)")
    done = subprocess.run(
        [node(), str(TSC), "-p", str(JS_TESTS / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_module_holds_every_rule() -> None:
    """Each module holds every rule of its system (every kind lowers to the
    core, which the JavaScript emitter prints)."""
    from rulesc.pipeline import load_systems

    for system in load_systems(PACKAGE.parent.parent / "rules"):
        text = (PACKAGE / f"{system.id}.js").read_text("utf-8")
        for rule in system.rules:
            assert f"// -- {rule.qualified_id} --" in text, rule.qualified_id


# (level: any case is a label, stay in minutes, Fortitude bonus, seed)
RADIATION_RUNS: list[tuple[Any, int, int, int]] = [
    ("High", 30, 2, 7),
    ("Severe", 600, 0, 1),
    ("moderate", 5, 5, 12345),
]


def test_node_e_answers_cover_and_replays_the_radiation_simulation() -> None:
    """The issue's promise, as a user would check it: ``node -e`` importing
    generated/js/d20_scifi.js answers ``cover("1/2").coverAc === 4``, and
    ``simulateRadiation(..., new Random(seed))`` gives, event for event, the
    events Python's ``simulate_radiation(..., random.Random(seed))`` gives."""
    import random

    from rulebook.d20_scifi import simulate_radiation

    module = (PACKAGE / "d20_scifi.js").as_uri()
    runtime = (PACKAGE / "random.js").as_uri()
    script = f"""
import {{ cover, simulateRadiation }} from {json.dumps(module)};
import {{ Random }} from {json.dumps(runtime)};
const runs = {json.dumps(RADIATION_RUNS)}.map(([level, minutes, bonus, seed]) =>
  simulateRadiation(level, minutes, bonus, new Random(seed)).events.map((e) => e.toJSON()));
console.log(JSON.stringify({{ coverAc: cover("1/2").coverAc === 4, runs }}));
"""
    answer = node_json(script)
    assert answer["coverAc"] is True
    for (level, minutes, bonus, seed), events in zip(
        RADIATION_RUNS, answer["runs"], strict=True
    ):
        run = simulate_radiation(level, minutes, bonus, random.Random(seed))
        python = [e.to_dict() for e in run.events]
        assert len(events) == len(python) > 3
        for index, (js_event, py_event) in enumerate(zip(events, python, strict=True)):
            assert js_event == py_event, (level, minutes, bonus, seed, index)
