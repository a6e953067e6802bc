"""The README stays the short way in, and what it and the guides point at is
there: every link leads to a file (and heading), every ``rulesc`` command and
option and every ``make`` target they name exists."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from .doc_blocks import (
    DOCUMENTS,
    GUIDES,
    README,
    ROOT,
    blocks,
    headings,
    links,
    make_named,
    make_targets,
    rulesc_named,
)

_IDS = [doc.relative_to(ROOT).as_posix() for doc in DOCUMENTS]


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < 250, f"README.md has {lines} lines: move the detail to a guide"


def test_the_readme_links_every_guide() -> None:
    linked = {(README.parent / target).resolve() for target in links(README)}
    for guide in GUIDES.glob("*.md"):
        if guide.name != "index.md":
            assert guide.resolve() in linked, f"README.md does not link {guide.name}"


def test_the_first_rule_shown_is_the_file_it_builds() -> None:
    [rule] = [block for block in blocks(README) if block.lang == "yaml"]
    shown = (ROOT / "docsite" / "first" / "starter" / "abilities.yaml").read_text()
    assert rule.body == shown


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_IDS)
def test_every_link_leads_to_a_file_and_heading(doc: Path) -> None:
    found = links(doc)
    for target in found:
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), f"{doc.name}: {target} leads nowhere"
        if anchor:
            assert file.suffix == ".md", (
                f"{doc.name}: {target}: an anchor of a non-page"
            )
            assert anchor in headings(file), f"{doc.name}: {target}: no such heading"


@cache
def _help(command: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rulesc", command, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"rulesc {command}: {done.stderr}"
    return done.stdout


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_IDS)
def test_every_rulesc_command_named_exists(doc: Path) -> None:
    named = rulesc_named(doc)
    for command, options in named:
        shown = _help(command)
        for option in options:
            assert option in shown, f"{doc.name}: rulesc {command} has no {option}"


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_IDS)
def test_every_make_target_named_exists(doc: Path) -> None:
    targets = make_targets()
    for target in make_named(doc):
        assert target in targets, f"{doc.name}: make {target} is no target"


def test_the_documents_name_commands() -> None:
    assert all(rulesc_named(doc) for doc in (README, GUIDES / "cli.md"))
    assert {"build", "test", "bench", "docs"} <= {
        target for doc in DOCUMENTS for target in make_named(doc)
    }
