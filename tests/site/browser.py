"""The browser the site tests drive: Debian's headless chromium, through
Playwright; the local server's handler, the refusal of every request for
another host, and a page watched for console errors, uncaught exceptions and
failed requests."""

from __future__ import annotations

import os
import shutil
from http.server import SimpleHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from ..conftest import ROOT

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Route

CHROMIUM = os.environ.get("RULEBOOK_CHROMIUM") or shutil.which("chromium") or ""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "site" / "_screenshots"
TIMEOUT_MS = 10_000


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


class Offsite:
    """Requests for anything but the local server: refused, and remembered."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.refused: list[str] = []

    def __call__(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(self.base_url) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()


class Watched:
    """A page with its console errors, uncaught exceptions and failed requests."""

    def __init__(self, context: BrowserContext) -> None:
        self.page: Page = context.new_page()
        self.problems: list[str] = []
        self.page.on(
            "console",
            lambda m: (
                self.problems.append(f"console {m.type}: {m.text}")
                if m.type == "error"
                else None
            ),
        )
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.page.on(
            "response",
            lambda r: (
                self.problems.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400
                else None
            ),
        )
        # a request cut short because the page was left (the next goto) is
        # no fault of the site; any other failure is
        self.page.on(
            "requestfailed",
            lambda r: (
                None
                if r.failure == "net::ERR_ABORTED"
                else self.problems.append(f"failed: {r.url} ({r.failure})")
            ),
        )

    def open(self, url: str, *, settle: bool = False) -> Page:
        """Load ``url``; with ``settle``, also wait until the network is quiet."""
        self.page.goto(url, wait_until="load")
        if settle:
            self.page.wait_for_load_state("networkidle")
        return self.page
