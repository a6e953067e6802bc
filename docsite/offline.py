"""The site opened from its folder (file://): search with no server (a hook).

Material's offline plugin (``offline`` in mkdocs.yml) writes the search index
as a script too (``search/search_index.js``) and turns directory URLs off, so
that every link names its page's file (``d20_scifi/cover.html``). It would add
a worker shim from a CDN; the site loads nothing from another host, so this
hook puts its own in that place: docsite/worker.js, which runs Material's
search worker in a hidden frame where a page opened from file:// may start no
worker (served, the browser's own worker runs). The plugin writes the script
before docsite/titles.py escapes the index's text: this hook writes it again,
last, from the index as it is served.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
INDEX = "search/search_index.json"  # the search plugin's index, as served
INDEX_SCRIPT = "search/search_index.js"  # the offline plugin's copy, as a script
WORKER = "assets/worker.js"  # docsite/worker.js, where the site serves it
_SHIM = "iframe-worker"  # what names the offline plugin's shim


@event_priority(-100)  # after the offline plugin has added its shim
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    polyfills = config.extra.get("polyfills", [])
    config.extra["polyfills"] = [
        *(p for p in polyfills if _SHIM not in str(p) and str(p) != WORKER),
        WORKER,
    ]
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    files.append(
        File.generated(config, WORKER, content=(HERE / "worker.js").read_bytes())
    )
    return files


def index_script(index: str) -> str:
    """The search index as the script Material reads at file:// (the offline
    plugin's form: the JSON as the value of ``__index``)."""
    return f"var __index = {index}"


@event_priority(-400)  # after docsite/titles.py has escaped the index (-300)
def on_post_build(*, config: MkDocsConfig) -> None:
    script = Path(config.site_dir) / INDEX_SCRIPT
    if script.is_file():
        index = (Path(config.site_dir) / INDEX).read_text(encoding="utf-8")
        script.write_text(index_script(index), encoding="utf-8")
