"""rulesc build --watch: rebuilds on save and prints errors as they appear."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from .conftest import copy_rules


def test_watch_rebuilds_and_reports_errors(tmp_path: Path) -> None:
    copy_rules(tmp_path / "rules")
    manifest = tmp_path / "generated" / "manifest.json"
    cover = tmp_path / "rules" / "d20_scifi" / "cover.yaml"
    args = ["build", "--watch", "--max-builds", "2", "--poll", "0.1"]
    with subprocess.Popen(
        [sys.executable, "-m", "rulesc", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as watcher:
        try:
            deadline = time.monotonic() + 60
            while not manifest.exists():  # the first build
                assert watcher.poll() is None, (
                    watcher.stderr.read() if watcher.stderr else ""
                )
                assert time.monotonic() < deadline, "no first build"
                time.sleep(0.05)
            text = cover.read_text("utf-8")
            cover.write_text(
                text.replace("cover_ac: 10\n", "cover_ac: ten\n", 1), "utf-8"
            )
            out, err = watcher.communicate(timeout=60)
        finally:
            if watcher.poll() is None:
                watcher.kill()
    assert watcher.returncode == 1  # the last build failed
    lines = out.splitlines()
    assert lines[0].startswith("watching rules/ (Ctrl-C to stop)")
    assert "ok: " in lines[1] and "generated/ written" in lines[1]
    assert "1 error; generated/ was left as it was" in lines[2]
    assert "rules/d20_scifi/cover.yaml:" in err
    assert "holds int values, not 'ten'" in err
