"""The cookbook's rules (tests/cookbook: other systems, other kinds) built into a
site of their own: every form answers in words and refuses by its fields' labels,
as the reference's forms do (test_reading.py), with nothing made for them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rulesc.pipeline import Outputs, build

from ..conftest import ROOT
from .conftest import missing, served, site_of
from .reader_text import offences, pages_of
from .test_reader_text import words_of_build
from .test_reading import forms_in_words

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


@pytest.fixture(scope="module")
def cookbook(tmp_path_factory: pytest.TempPathFactory) -> tuple[Outputs, Path]:
    """The cookbook's rules built, and their site (``mkdocs build --strict``)."""
    if not (ROOT / "docsite" / "node_modules" / "katex").is_dir():
        missing("KaTeX (docsite/package.json, npm ci)")
    root = tmp_path_factory.mktemp("cookbook-site")
    shutil.copytree(ROOT / "tests" / "cookbook", root / "rules")
    outputs = build(root / "rules", run_examples=False)
    return outputs, site_of(root, outputs.files)


@pytest.fixture(scope="module")
def base_url(cookbook: tuple[Outputs, Path]) -> Iterator[str]:
    """The cookbook's site, served on 127.0.0.1 (the browser fixture's host)."""
    with served(cookbook[1]) as url:
        yield url


def test_every_cookbook_form_answers_in_words(
    cookbook: tuple[Outputs, Path], base_url: str, browser: BrowserContext
) -> None:
    outputs, site = cookbook
    forms, answers, _ = forms_in_words(outputs.systems, site, base_url, browser)
    assert forms >= 10 and answers >= forms


def test_every_cookbook_page_reads_in_players_words(
    cookbook: tuple[Outputs, Path],
) -> None:
    """No code word in the reader text of any page (test_reader_text.py)."""
    _, site = cookbook
    assert len(pages_of(site)) > 10
    found = offences(site, words_of_build(site.parent / "generated"))
    assert not found, "code words in reader text:\n" + "\n".join(found)
