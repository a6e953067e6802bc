"""The reference site (mkdocs.yml), built once with ``--strict`` for the site tests.

Without MkDocs or chromium these tests skip, except under ``make test``
(``RULEBOOK_SITE_TESTS=required``) and in CI, where a missing tool is a failure.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from ..conftest import ROOT
from .browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, Offsite, QuietHandler

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


def site_tests_required() -> bool:
    return os.environ.get("RULEBOOK_SITE_TESTS") == "required" or bool(
        os.environ.get("CI")
    )


def missing(what: str) -> NoReturn:
    """Skip for want of ``what``, or fail where the site tests are required."""
    message = f"{what} is missing; `make test` installs it"
    if site_tests_required():
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from generated/docs by ``mkdocs build --strict``."""
    if importlib.util.find_spec("mkdocs") is None:
        missing("MkDocs (the docs extra)")
    if not (ROOT / "docsite" / "node_modules" / "katex").is_dir():
        missing("KaTeX (docsite/package.json, npm ci)")
    out = tmp_path_factory.mktemp("site")
    started = time.perf_counter()
    mkdocs_build(ROOT, out)
    print(f"site built in {time.perf_counter() - started:.1f}s")
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    """The site, served on an unused port of 127.0.0.1 while the tests run."""
    with served(site) as url:
        yield url


def mkdocs_build(project: Path, out: Path) -> None:
    """``mkdocs build --strict`` of ``project``'s mkdocs.yml into ``out``."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=project,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr}"


def site_of(root: Path, files: dict[str, bytes]) -> Path:
    """The site of a build's ``files`` (rulesc's outputs), written into
    ``root``/generated beside this project's mkdocs.yml and docsite/ and built
    by ``mkdocs build --strict`` into ``root``/site."""
    for path, blob in files.items():
        target = root / "generated" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    (root / "mkdocs.yml").write_bytes((ROOT / "mkdocs.yml").read_bytes())
    (root / "docsite").symlink_to(ROOT / "docsite")
    out = root / "site"
    mkdocs_build(root, out)
    return out


@contextmanager
def served(directory: Path) -> Iterator[str]:
    """``directory`` served on an unused port of 127.0.0.1 (the browser's host)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def offsite(base_url: str) -> Offsite:
    return Offsite(base_url)


@pytest.fixture(scope="module")
def browser(
    tmp_path_factory: pytest.TempPathFactory, offsite: Offsite
) -> Iterator[BrowserContext]:
    """A fresh headless chromium profile, every off-site request refused."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python (the docs extra)")
    if not CHROMIUM or not Path(CHROMIUM).is_file():
        missing("chromium (Debian's package)")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
            service_workers="block",
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.route("**/*", offsite)
        try:
            yield context
        finally:
            context.close()
    assert not offsite.refused, f"the site asked for other hosts: {offsite.refused}"
