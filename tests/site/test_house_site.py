"""The site of a project that lists a house pack: its rules files are pages too, and its pages read in players' words.

``make docs`` builds the site from generated/ with ``mkdocs build --strict``;
the hooks read the rules folders generated/ was built from in its manifest, so a
house pack's rule links to its own file, not to a page the site does not have.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesc.pipeline import build

from ..conftest import ROOT
from .conftest import missing, site_of
from .reader_text import offences, pages_of
from .test_reader_text import words_of_build

PACK = ROOT / "tests" / "house"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rules/ (its three systems) and the pack at tests/house, built together
    as ``rulesc build`` builds a project listing it, and their site."""
    if not (ROOT / "docsite" / "node_modules" / "katex").is_dir():
        missing("KaTeX (docsite/package.json, npm ci)")
    root = tmp_path_factory.mktemp("house-site")
    shutil.copytree(ROOT / "rules", root / "rules")
    shutil.copytree(PACK, root / "tests" / "house")
    outputs = build(root / "rules", run_examples=False, more=[root / "tests" / "house"])
    return site_of(root, outputs.files)


def test_the_packs_rules_files_are_pages_its_rules_link_to(site: Path) -> None:
    source = site / "tests" / "house" / "my_table" / "house.yaml.html"
    assert 'id="L13"' in source.read_text(encoding="utf-8")
    page = (site / "my_table" / "duck_for_cover.html").read_text(encoding="utf-8")
    assert 'href="../tests/house/my_table/house.yaml.html#L13"' in page
    # a rule the pack takes from its base links to the base's file
    cover = (site / "my_table" / "cover.html").read_text(encoding="utf-8")
    assert 'href="../rules/d20_scifi/cover.yaml.html#L' in cover


def test_the_packs_pages_read_in_players_words(site: Path) -> None:
    pages = [p for p in pages_of(site) if p.parent.name == "my_table"]
    assert len(pages) > 20
    found = offences(site, words_of_build(site.parent / "generated"))
    assert not found, "code words in reader text:\n" + "\n".join(found)
