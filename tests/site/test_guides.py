"""The guides (docsite/guides/*.md) are pages of the built site, in its "Guides"
navigation, and every link of theirs lands on a page or file of the site."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from ..doc_blocks import GUIDES

_NAMES = sorted(guide.stem for guide in GUIDES.glob("*.md") if guide.stem != "index")
_HREF = re.compile(r'<a [^>]*href="([^"]+)"')


def _page(site: Path, name: str) -> Path:
    return site / "guides" / f"{name}.html"


@pytest.mark.parametrize("name", ["index", *_NAMES])
def test_each_guide_is_a_page_whose_links_land(site: Path, name: str) -> None:
    page = _page(site, name)
    assert page.is_file(), f"guide {name} has no page"
    html = page.read_text(encoding="utf-8")
    for href in _HREF.findall(html):
        url = urlsplit(href)
        if url.scheme or url.netloc or not url.path:
            continue  # another site, or an anchor of this page
        target = (page.parent / unquote(url.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        assert target.is_file(), f"guides/{name}: {href} leads nowhere"


def test_the_navigation_lists_the_guides_in_a_section_of_their_own(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "Guides" in html
    at = html.index("Guides")
    for name in _NAMES:
        assert f'href="guides/{name}.html"' in html[at:], (
            f"{name} is not in the navigation"
        )


def test_a_guide_points_its_repository_links_at_the_site(site: Path) -> None:
    """python.md links ../../generated/docs/contract.md, which the site serves
    as contract.html; writing-rules.md a rules file, which it serves as a page."""
    html = _page(site, "python").read_text(encoding="utf-8")
    assert 'href="../contract.html"' in html
    assert "generated/docs" not in "".join(_HREF.findall(html))
    html = _page(site, "writing-rules").read_text(encoding="utf-8")
    assert 'href="../rules/d20_scifi/cover.yaml.html"' in html
