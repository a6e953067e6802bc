"""The JavaScript package as its users get it: ``npm install ./generated/js`` in a
project of their own, imported by name, and its types under ``tsc --strict``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from .js_node import JS_TESTS, PACKAGE, missing, node

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
    assert list(manifest["dependencies"]) == ["rulebook"]
    script = """
import { cover, CoverLevel, attackThroughCover } from "rulebook/d20_scifi";
import { Dice, Random, RuleInputError, d20_scifi } from "rulebook";
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
    done = subprocess.run(
        [node(), "--input-type=module", "-e", script],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    attack, refused, rolled = json.loads(done.stdout)
    assert attack["allowed"] is True and attack["miss_chance"] == 20
    assert refused is True
    import random

    rng = random.Random(7)
    assert rolled == sum(rng.randint(1, 6) for _ in range(3))


def test_the_package_has_no_dependencies() -> None:
    manifest = json.loads((PACKAGE / "package.json").read_text("utf-8"))
    assert manifest["name"] == "rulebook"
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


# The kinds whose rules have no JavaScript yet (their js_view is the shared
# calls.no_javascript): a kind's port takes it off this list, and the last one
# leaves it empty, when every module is complete.
NOT_YET_IN_JAVASCRIPT = {
    "process",
    "state",
    "track",
}


def test_which_kinds_have_no_javascript_yet() -> None:
    from compiler import registry
    from compiler.kinds import calls
    from compiler.kinds.base import JS_TARGETS

    waiting = {
        name
        for name, kind in registry.kinds().items()
        if kind.js_view is calls.no_javascript
    }
    assert waiting == NOT_YET_IN_JAVASCRIPT
    for name, kind in registry.kinds().items():
        if name not in waiting:
            for template in JS_TARGETS.values():
                assert (kind.folder / template).is_file(), f"{name} has no {template}"


def test_every_module_lists_what_it_leaves_out() -> None:
    """A module holds every rule of a ported kind (and whose calls are ported);
    the others are listed at its top, by rule and kind."""
    from compiler import registry
    from compiler.kinds import calls
    from compiler.pipeline import load_systems

    for system in load_systems(PACKAGE.parent.parent / "rules"):
        text = (PACKAGE / f"{system.id}.js").read_text("utf-8")
        for rule in system.rules:
            missing = f"//   {rule.qualified_id} ({rule.kind})" in text
            present = f"// -- {rule.qualified_id} --" in text
            assert missing != present, rule.qualified_id
            if registry.kind_of(rule).js_view is calls.no_javascript:
                assert missing, rule.qualified_id
