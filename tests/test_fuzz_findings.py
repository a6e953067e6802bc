"""What the fuzzers found: each a build, or located errors, never an internal error.

The broken rules files the fuzzers made are cases of tests/invalid/ (a state's
worked example with actions of the wrong shape, a decision naming a result
with no fields, a dice fact without its dice, a track effect written twice);
here are the findings that are not one broken file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.front.loader import load_text
from rulesc.front.semantics import build_system
from rulesc.kinds.registry import kinds
from rulesc.pipeline import generate, load_systems

from .conftest import RULES
from .workbench_helpers import rulesc


def test_rules_written_before_the_rules_they_use_build() -> None:
    """Every real rules file with the rules of the kinds built first (tables,
    dice...) put last builds, its worked examples hold: a rule's module-level
    data (a shift's rows of its table, the enum of a table) comes after what it
    uses, whatever the file's order (a shift before its table was an internal
    error: a NameError importing the module)."""
    order = list(kinds())
    systems = []
    for folder in sorted(p for p in RULES.iterdir() if p.is_dir()):
        shown = f"rules/{folder.name}"
        meta = load_text((folder / "system.yaml").read_bytes(), f"{shown}/system.yaml")
        files = []
        for path in sorted(folder.glob("*.yaml")):
            if path.name == "system.yaml":
                continue
            source = load_text(path.read_bytes(), f"{shown}/{path.name}")
            # rules of a kind built earlier (tables first) last, else in order
            source.data["rules"].sort(key=lambda r: -order.index(r["kind"]))
            files.append(source)
        systems.append(build_system(meta, files, kinds()))
    generate(systems)


SAFE = ("rules", "my-rules.v2", "_r", "R2")
UNSAFE = ("ru\nles", "a b", "r*", 'x"""', "rules\x1b[2J", "règles", "-rules")


@pytest.mark.parametrize("name", SAFE + UNSAFE)
def test_a_rules_folder_named_with_unsafe_characters_is_refused(
    name: str, tmp_path: Path
) -> None:
    """The rules folder's name begins every path the outputs name: it may use
    the characters a rules file's name may (a newline in it was an internal
    error of the build)."""
    folder = tmp_path / name
    shutil.copytree(RULES / "gurps", folder / "gurps")
    if name in SAFE:
        assert [s.id for s in load_systems(folder)] == ["gurps"]
        return
    with pytest.raises(RulesError) as caught:
        load_systems(folder)
    [d] = caught.value.diagnostics
    assert (d.file, d.line, d.col) == (folder.as_posix(), 1, 1)
    assert d.message == (
        f"rules folder name {name!r} may use only ASCII letters, digits, "
        "'_', '-' and '.'"
    )


def test_rulesc_build_refuses_a_rules_folder_with_a_newline(tmp_path: Path) -> None:
    folder = tmp_path / "ru\nles"
    shutil.copytree(RULES / "gurps", folder / "gurps")
    out = tmp_path / "out"
    done = rulesc("build", "--rules", str(folder), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "rules folder name 'ru\\nles' may use only" in done.stderr
    assert not out.exists()


METHOD = """      - name: resolve
        rule: random_hit
        args: {exposure: exposure}
"""


@pytest.mark.parametrize("name", ["resolve", "allowed", "to_dict", "extra_dr"])
def test_a_method_named_twice_or_like_a_member_is_a_located_error(
    name: str, tmp_path: Path
) -> None:
    """A decision's second method named like the first (their hidden arguments
    made a function with a duplicate parameter: a SyntaxError importing the
    module), or named like a field or a member of every record."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES / "gurps", rules / "gurps")
    cover = rules / "gurps" / "cover.yaml"
    text = cover.read_text("utf-8")
    assert text.count("    methods:\n") == 1
    text = text.replace(
        "    methods:\n", "    methods:\n" + METHOD.replace("resolve", name)
    )
    cover.write_text(text, "utf-8")
    with pytest.raises(RulesError) as caught:
        generate(load_systems(rules))
    [d] = caught.value.diagnostics
    assert d.file == "rules/gurps/cover.yaml", d
    assert text.split("\n")[d.line - 1].strip() == f"- name: {name}", d
