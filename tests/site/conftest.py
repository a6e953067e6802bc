"""The reference site (mkdocs.yml), built once with ``--strict`` for the site tests.

Without MkDocs or chromium these tests skip, except under ``make test``
(``RULEBOOK_SITE_TESTS=required``) and in CI, where a missing tool is a failure.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

import pytest

from ..conftest import ROOT


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
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr}"
    print(f"site built in {time.perf_counter() - started:.1f}s")
    return out
