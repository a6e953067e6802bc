"""MkDocs hooks for the reference site (``hooks:`` in mkdocs.yml).

The pages in generated/docs/ are written to read well on their own (on GitHub,
in an editor); these hooks adapt them to the site without changing them:

- every rules file of the folders the reference was built from (rules/ and the
  house packs its package.yaml lists, as generated/manifest.json records them)
  becomes a page of the site (``rules/<system>/<file>.yaml``, ``tests/house/
  <system>/<file>.yaml``), its lines numbered and each line an anchor (``#L12``),
  so the pages' links to "rules/<system>/<file>.yaml#L12" land on the rule's
  first line;
- those links, which leave the docs folder, are pointed at these pages;
- an ``<a id="name"></a>`` anchor line before a heading becomes the heading's
  own id, so the table of contents, permalinks and search results use it, and
  no empty paragraph is left behind;
- the "@generated" comment on the first line is dropped, so that MkDocs takes
  the page's title from its heading;
- the site's small stylesheet and script (docsite/rulebook.css, rulebook.js)
  are added, and KaTeX with its fonts (docsite/package.json, installed into
  docsite/node_modules by ``make build``): the script renders the formulas,
  which pymdownx.arithmatex marks, with no request to any other host;
- the hand-written guides (docsite/guides/*.md) become pages under ``guides/``,
  in a "Guides" section of the navigation after the reference, in the order
  docsite/guides/index.md lists them; their links to the reference
  (``../../generated/docs/...``) and to rules files, written to work in the
  repository, are pointed at the site's pages;
- the "try it" forms' script (docsite/tryit.js and what it imports, with the
  JavaScript runtime of generated/js) is one classic script, written by the
  docsite/bundle.py hook, so that it runs from a folder (file://) too; it
  builds each rule page's form from the data rulesc wrote into the page and
  answers with that runtime, in the page.

The rules pages are left out of the navigation and of the search index: the
reference pages are what readers search. ``docsite/reader.py`` marks what of a
page only a programmer reads (its "For programmers" section, wrapped in
``div.rb-programmers``), and keeps it, the formulas' TeX and the runtime
contract out of the search index.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

try:
    from docsite.reader import reader_page
except ModuleNotFoundError:  # MkDocs loads this file by its path, docsite/ on sys.path
    from reader import reader_page  # type: ignore[import-not-found,no-redef]

HERE = Path(__file__).resolve().parent
STYLESHEET, SCRIPT = "assets/rulebook.css", "assets/rulebook.js"
KATEX = HERE / "node_modules" / "katex" / "dist"  # from docsite/package.json
KATEX_SITE = "assets/katex"  # where the site serves it
KATEX_FILES = ("katex.min.css", "katex.min.js")
SOURCE_FOLDER = "rules"  # in the site, as in the repository
MANIFEST = "manifest.json"  # beside the docs folder: records the rules folders
_FOLDERS: list[str] = [SOURCE_FOLDER]  # the build's rules folders (on_files)
GUIDES = HERE / "guides"  # the hand-written guides, served under guides/
GUIDES_SITE = "guides"
GUIDES_NAV = "Guides"  # their section of the navigation

# [text](../../rules/d20_scifi/cover.yaml#L4): a link from a docs page to a rules file.
_LINK = re.compile(r"\]\(((?:\.\./)+[A-Za-z0-9_./-]+\.yaml)(#L[0-9]+)?\)")
# The "@generated" comment of the first line: MkDocs takes a page's title from
# its heading only when the heading comes first.
_GENERATED = re.compile(r"\A<!-- @generated [^\n]*-->\n+")
# The anchor line the templates put before each rule's heading.
_ANCHOR = re.compile(r'^<a id="([a-z0-9_-]+)"></a>\n\n(#{1,6} .+)$', re.MULTILINE)


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def rules_folders(config: MkDocsConfig) -> list[str]:
    """The rules folders the reference was built from, as paths from the
    project's folder (``rules``, ``tests/house``): those its manifest records
    (rulesc writes it beside the docs folder), else ``rules``."""
    try:
        doc = json.loads((Path(config.docs_dir).parent / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return [SOURCE_FOLDER]
    folders = doc.get("folders") if isinstance(doc, dict) else None
    if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
        return [SOURCE_FOLDER]
    return [posixpath.normpath(f) for f in folders] or [SOURCE_FOLDER]


def site_folder(folder: str) -> str:
    """Where a rules folder's pages go in the site: its path from the project
    (``tests/house``), less any ``..`` (a pack beside the project is served
    under its own name)."""
    parts = [p for p in folder.split("/") if p not in ("..", ".", "")]
    return "/".join(parts) or SOURCE_FOLDER


def source_of(target: Path, root: Path, folders: list[str]) -> str | None:
    """The site's page of the rules file ``target`` (None: in no rules folder)."""
    for folder in folders:
        try:
            relpath = target.relative_to((root / folder).resolve()).as_posix()
        except ValueError:
            continue
        return f"{site_folder(folder)}/{relpath}.md"
    return None


def source_page(relpath: str, text: str) -> str:
    """The Markdown of the page showing one rules file, one anchor per line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    width = len(str(len(lines)))
    shown = "\n".join(
        f'<span class="rb-line" id="L{n}"><a class="rb-lineno" href="#L{n}" '
        f'aria-label="line {n}">{n:>{width}}</a>  {html.escape(line)}</span>'
        for n, line in enumerate(lines, start=1)
    )
    return (
        "---\nsearch:\n  exclude: true\n---\n\n"
        f"# {relpath}\n\n"
        "The rules data the reference is compiled from, as it stands in the "
        "repository. Each line has its own link; the pages of the reference link "
        "to the first line of each rule.\n\n"
        f'<pre class="rb-source"><code>{shown}</code></pre>\n'
    )


@event_priority(-200)  # after literate-nav has made the navigation of SUMMARY.md
def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    if _root(config) == HERE.parent:
        # The guides are this checkout's: they link to its rules and reference,
        # which a site of another build (a test's) does not have.
        add_guides(files, config)
    root = _root(config)
    _FOLDERS[:] = rules_folders(config)  # this build's, for the pages' hooks
    for folder in _FOLDERS:
        rules = root / folder
        for path in sorted(rules.rglob("*.yaml")):
            relpath = path.relative_to(rules).as_posix()
            shown = posixpath.normpath(f"{folder}/{relpath}")
            files.append(
                File.generated(
                    config,
                    f"{site_folder(folder)}/{relpath}.md",
                    content=source_page(shown, path.read_text(encoding="utf-8")),
                    inclusion=InclusionLevel.NOT_IN_NAV,
                )
            )
    for uri, name in ((STYLESHEET, "rulebook.css"), (SCRIPT, "rulebook.js")):
        files.append(File.generated(config, uri, content=(HERE / name).read_bytes()))
    for asset in katex_files():
        uri = f"{KATEX_SITE}/{asset.relative_to(KATEX).as_posix()}"
        files.append(File.generated(config, uri, content=asset.read_bytes()))
    return files


# An entry of the guides' index: "- [Writing rules](writing-rules.md)".
_GUIDE_ENTRY = re.compile(r"^[-*] \[([^\]]+)\]\(([a-z0-9-]+\.md)\)", re.MULTILINE)
# A Markdown link's target: [text](target).
_TARGET = re.compile(r"\]\(([^()\s]+)\)")


def add_guides(files: Files, config: MkDocsConfig) -> None:
    """The guides as pages, and their section of the navigation, in the order of
    docsite/guides/index.md (every guide must be listed there)."""
    index = (GUIDES / "index.md").read_text(encoding="utf-8")
    listed = _GUIDE_ENTRY.findall(index)
    names = sorted(p.name for p in GUIDES.glob("*.md") if p.name != "index.md")
    if sorted(name for _, name in listed) != names:
        raise PluginError(
            f"{GUIDES / 'index.md'} must list each guide of {GUIDES} once, as "
            f"'- [Title](name.md)': it lists {[n for _, n in listed]}, the folder "
            f"holds {names}"
        )
    entries: list[str | dict[str, str]] = [f"{GUIDES_SITE}/index.md"]
    for name in ["index.md", *names]:
        uri = f"{GUIDES_SITE}/{name}"
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"the reference has a page {uri}, where a guide goes")
        files.append(File(uri, str(HERE), config.site_dir, config.use_directory_urls))
    entries += [{title: f"{GUIDES_SITE}/{name}"} for title, name in listed]
    nav = config.nav if isinstance(config.nav, list) else []
    config.nav = [*nav, {GUIDES_NAV: entries}]


def guide_markdown(
    markdown: str, docs_dir: str, folders: list[str] | None = None
) -> str:
    """A guide as the site shows it: its links to the reference and to rules
    files, written relative to docsite/guides/ in the repository, point at the
    site's pages; any other link is left for MkDocs to check. ``docs_dir`` is the
    docs folder's path in the repository (generated/docs); ``folders`` the rules
    folders (``rules_folders``)."""
    here = f"{HERE.name}/{GUIDES.name}"  # the guides' folder in the repository
    folders = folders or [SOURCE_FOLDER]

    def link(match: re.Match[str]) -> str:
        target, _, anchor = match.group(1).partition("#")
        if not target or ":" in target:
            return match.group(0)  # an anchor of this page, or another site
        path = posixpath.normpath(posixpath.join(here, target))
        if path.startswith(f"{docs_dir}/"):
            page = path.removeprefix(f"{docs_dir}/")
        elif path.endswith(".yaml") and any(path.startswith(f"{f}/") for f in folders):
            folder = next(f for f in folders if path.startswith(f"{f}/"))
            page = f"{site_folder(folder)}/{path.removeprefix(f'{folder}/')}.md"
        else:
            return match.group(0)
        return (
            f"]({posixpath.relpath(page, GUIDES_SITE)}{'#' if anchor else ''}{anchor})"
        )

    return _TARGET.sub(link, markdown)


def katex_files() -> list[Path]:
    """KaTeX's script, stylesheet and fonts (the woff2 ones every browser in use
    reads first), as npm installed them."""
    if not (KATEX / "katex.min.js").is_file():
        raise PluginError(
            f"KaTeX is not installed in {KATEX.parent.parent}: `make build` "
            "installs it (npm ci in docsite/)"
        )
    return [KATEX / name for name in KATEX_FILES] + sorted(
        (KATEX / "fonts").glob("*.woff2")
    )


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    for css in (f"{KATEX_SITE}/katex.min.css", STYLESHEET):
        if css not in config.extra_css:
            config.extra_css.append(css)
    scripts = [str(s) for s in config.extra_javascript]
    for js in (f"{KATEX_SITE}/katex.min.js", SCRIPT):
        if js not in scripts:
            config.extra_javascript.append(js)
    return config


def site_markdown(
    markdown: str,
    src_uri: str,
    docs_dir: Path,
    root: Path,
    folders: list[str] | None = None,
) -> str:
    """A docs page's Markdown as the site shows it (see the module docstring).

    ``src_uri`` is the page's path in ``docs_dir``; ``root`` the repository;
    ``folders`` the rules folders (``rules_folders``).
    """
    page_dir = posixpath.dirname(src_uri) or "."
    folders = folders or [SOURCE_FOLDER]

    def link(match: re.Match[str]) -> str:
        target = (docs_dir / page_dir / match.group(1)).resolve()
        source = source_of(target, root.resolve(), folders)
        if source is None:
            return match.group(0)  # not a rules file: MkDocs checks it as usual
        page = posixpath.relpath(source, page_dir)
        return f"]({page}{match.group(2) or ''})"

    markdown = _GENERATED.sub("", markdown, count=1)
    markdown = _LINK.sub(link, markdown)
    return _ANCHOR.sub(lambda m: f"{m.group(2)} {{#{m.group(1)}}}", markdown)


def on_page_markdown(
    markdown: str, *, page: Page, config: MkDocsConfig, files: Files
) -> str:
    if page.file.generated_by is not None:  # a rules page: nothing to adapt
        return markdown
    if page.file.abs_src_path and Path(page.file.abs_src_path).is_relative_to(GUIDES):
        docs_dir = Path(config.docs_dir).resolve().relative_to(_root(config))
        return guide_markdown(markdown, docs_dir.as_posix(), _FOLDERS)
    return site_markdown(
        markdown,
        page.file.src_uri,
        Path(config.docs_dir).resolve(),
        _root(config),
        _FOLDERS,
    )


def on_page_content(
    html: str, *, page: Page, config: MkDocsConfig, files: Files
) -> str:
    return reader_page(html, page)
