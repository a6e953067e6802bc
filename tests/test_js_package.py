"""The JavaScript package as its users get it: ``npm install ./generated/js`` in a
project of their own, imported by name, and its types under ``tsc --strict``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from .doc_blocks import GUIDES, ROOT, blocks
from .js_node import JS_TESTS, PACKAGE, missing, node, node_json

TSC = JS_TESTS / "node_modules" / ".bin" / "tsc"


def _npm(*words: str, cwd: Path) -> str:
    npm = shutil.which("npm")
    if npm is None:
        missing("npm")
    done = subprocess.run(
        [npm, *words, "--offline", "--no-audit", "--no-fund"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """An app that installed the package's tarball (``npm pack``, then ``npm
    install ./x.tgz``, as the readme says), and what ``npm pack --json`` said."""
    app = tmp_path_factory.mktemp("app")
    (app / "package.json").write_text(
        json.dumps({"name": "app", "private": True, "type": "module"}), "utf-8"
    )
    [pack] = json.loads(_npm("pack", str(PACKAGE), "--json", cwd=app))
    _npm("install", f"./{pack['filename']}", cwd=app)
    return app, pack


def test_the_tarball_holds_the_licence_and_names_it(
    packed: tuple[Path, dict[str, Any]],
) -> None:
    app, pack = packed
    manifest = json.loads((PACKAGE / "package.json").read_text("utf-8"))
    assert pack["filename"] == f"{manifest['name']}-{manifest['version']}.tgz"
    assert pack["filename"] in (PACKAGE / "README.md").read_text("utf-8")
    assert "LICENSE" in {f["path"] for f in pack["files"]}
    installed = app / "node_modules" / manifest["name"]
    assert (installed / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    # what npm shows of an installed package
    [shown] = json.loads(_npm("query", f"#{manifest['name']}", cwd=app))
    assert shown["license"] == manifest["license"] == "MIT"
    # npm view of the package's folder, and of the tarball's unpacked: a
    # tarball's path itself npm view takes for a version ("No match found")
    unpacked = app / "unpacked"
    unpacked.mkdir()
    with tarfile.open(app / pack["filename"]) as tar:
        tar.extractall(unpacked, filter="data")
    for folder in (PACKAGE, unpacked / "package"):
        assert _npm("view", str(folder), "license", cwd=app).strip() == "MIT"


def test_the_package_installs_alone_and_answers(
    packed: tuple[Path, dict[str, Any]],
) -> None:
    app, _ = packed
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


def _documented(lang: str) -> list[str]:
    """The ``lang`` blocks of the JavaScript guide and of the package's readme."""
    return [
        block.body
        for doc in (GUIDES / "javascript.md", PACKAGE / "README.md")
        for block in blocks(doc)
        if block.lang == lang
    ]


def test_commonjs_requires_the_package_as_documented(
    packed: tuple[Path, dict[str, Any]],
) -> None:
    """The guide's CommonJS block (and the readme's) run as a .cjs program of
    an app that installed the package; the guide's states its answer."""
    app, _ = packed
    found = [b for b in _documented("javascript") if "require(" in b]
    found += [b for b in _documented("js") if "require(" in b]
    assert len(found) == 2, found
    for number, body in enumerate(found):
        program = app / f"documented{number}.cjs"
        program.write_text(body + "\nconsole.log('ran');\n", "utf-8")
        done = subprocess.run(
            [node(), str(program)], cwd=app, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        printed = done.stdout.split()
        stated = re.findall(r"console\.log\((.*)\);\s*// (\S+)", body)
        assert printed == [said for _, said in stated] + ["ran"], done.stdout


def test_the_documented_tsconfig_passes_and_refuses_a_misspelt_label(
    packed: tuple[Path, dict[str, Any]],
) -> None:
    """``tsc`` with the tsconfig the guide and the readme give: an app using
    the package compiles, and a misspelt label is error TS2345 (one run)."""
    app, _ = packed
    node()
    if not TSC.is_file():
        missing("TypeScript (tests/js: npm ci)")
    configs = {body for body in _documented("json") if "compilerOptions" in body}
    assert len(configs) == 1, configs  # the same config in both places
    project = json.loads(configs.pop())
    assert project["compilerOptions"]["strict"] is True
    project["files"] = ["app.ts", "misspelt.ts"]
    (app / "tsconfig.json").write_text(json.dumps(project), "utf-8")
    (app / "app.ts").write_text(
        'import { cover, CoverLevel } from "rulebook-tabletop/d20_scifi";\n'
        'import { Random, parseNotation, roll } from "rulebook-tabletop";\n'
        "export const ac: number | null = cover(CoverLevel.HALF).coverAc;\n"
        'export const total = roll(parseNotation("4d6kh3"), new Random(7)).total;\n',
        "utf-8",
    )
    (app / "misspelt.ts").write_text(
        'import { cover } from "rulebook-tabletop/d20_scifi";\n'
        'export const row = cover("Halff");\n',
        "utf-8",
    )
    done = subprocess.run(
        [node(), str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = re.findall(r"^(\S+)\(\d+,\d+\): error (TS\d+)", done.stdout, re.M)
    assert errors == [("misspelt.ts", "TS2345")], done.stdout + done.stderr


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
