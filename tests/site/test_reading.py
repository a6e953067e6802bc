"""The site reads as a rulebook, in a real browser: every form's answer in words,
refusals naming the field as the form does, previews of linked rules, a print
view, light and dark schemes, and pages that never scroll sideways.

Every rule's form is made for each of its calls (a call that rolls, from a
seed) and answers in words, with no JSON braces (the JSON is kept "for
programmers"); every number field given a value past its bounds is refused in
words that name it by its label and its bounds whole. Each form's fields are
the rules' titles and its options the rules' labels (in words where written as
identifiers), with no identifier, type name or None/True/False in its visible
text outside "For programmers"; each number of each answer reads as the CLI's
Python formatter writes it (signs, units, percentages, times on the clock). At
390 and 1280 pixels no page scrolls sideways, and a table too wide for the page
scrolls in its own box (at 1280 no table is made into cards:
tests/site/test_phone.py checks the cards at 390). Printed, a page shows no
navigation, header, search, footer or form. The dark scheme darkens the page; a
link to another rule shows that rule on hover and on keyboard focus. Screenshots
of the cover and radiation pages at both widths are left in site/_screenshots/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesc.emit.json.rules_json import refs, rule_data, system_data
from rulesc.front.model import Column, Rule, System
from rulesc.kinds.process.workbench import clock
from rulesc.lang.py_names import rules_name
from rulesc.pipeline import Outputs
from rulesc.workbench.common import show

from ..form_fill import Filled
from ..js_node import ported
from .browser import SCREENSHOTS, Watched
from .test_phone import SYSTEMS
from .test_tryit import Form

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, ViewportSize

WIDTHS: tuple[ViewportSize, ...] = (
    {"width": 390, "height": 844},
    {"width": 1280, "height": 900},
)
SHOTS = ("d20_scifi/cover.html", "d20_scifi/simulate_radiation.html")


def _start(form: Form, call: int) -> Filled:
    values = {f["name"]: f["start"] for f in form.data["fields"]}
    return Filled(values, call, None)


def _past(field: dict[str, Any]) -> int | None:
    """A value past a number field's bounds (None: it has none)."""
    if field["max"] is not None:
        return int(field["max"]) + 1
    if field["min"] is not None:
        return int(field["min"]) - 1
    return None


# Words a form's visible text never holds: an identifier (snake_case), a
# value of code (None, True, False, null) or a name written as code (x=y).
_CODE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b(?:None|True|False|null)\b|\w=\w")
# A form's text as a reader sees it: its "For programmers" part left out.
_VISIBLE = """
form => { const copy = form.cloneNode(true);
  copy.querySelectorAll('.rb-try-raw, script, style').forEach(e => e.remove());
  return copy.textContent; }
"""


def _words_of(name: str) -> str:
    """A name as a form titles it when the rules give no title."""
    words = name.strip("_").replace("_", " ")
    return words[:1].upper() + words[1:]


def _label_words(label: str) -> str:
    return (
        label.replace("_", " ")
        if re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", label)
        else label
    )


def _param_title(data: Any, name: str) -> str | None:
    """The title the rule's rules.json entry gives a parameter (a table's key,
    a range table's param_title), if any."""
    if isinstance(data, list):
        return next((t for t in (_param_title(v, name) for v in data) if t), None)
    if not isinstance(data, dict):
        return None
    param = data.get("param")
    if param == name and isinstance(data.get("title"), str):
        return str(data["title"])
    if isinstance(param, dict) and param.get("name") == name:
        return data.get("param_title")
    return next(
        (
            t
            for k, v in data.items()
            if k != "examples"
            for t in [_param_title(v, name)]
            if t
        ),
        None,
    )


def _type_names(system: System) -> set[str]:
    """The CamelCase names rules.json gives types: enums, records, results."""
    found: set[str] = set()
    for rule in system.rules:
        for key in ("result", "row", "enum", "record", "key_enum"):
            _names_at(rule_data(system, rule, refs(system)), key, found)
    return {n for n in found if re.fullmatch(r"[A-Z][a-z0-9]+[A-Z]\w*", n)}


def _names_at(data: Any, key: str, found: set[str]) -> None:
    if isinstance(data, dict):
        if isinstance(data.get(key), str):
            found.add(data[key])
        for value in data.values():
            _names_at(value, key, found)
    elif isinstance(data, list):
        for value in data:
            _names_at(value, key, found)


def form_reads_as_the_rules(
    form: Form, system: System, rule: Rule, types: set[str]
) -> None:
    """The form's fields are the rules' titles, its options the rules' labels
    (in words), and its visible text holds no code word."""
    data = rule_data(system, rule, refs(system))
    enums = {
        e["name"]: [m["label"] for m in e["members"]]
        for e in system_data(system)["enums"]
    }
    labels = {n: [_label_words(x) for x in found] for n, found in enums.items()}

    def enum(param: dict[str, Any], key: str, given: list[str]) -> str:
        """The enum rules.json names for a parameter (or, where its kind lists
        no parameters, the enum of the labels the form was given)."""
        if isinstance(param.get(key), str):
            return str(param[key])
        return next(str(n) for n, found in enums.items() if found == given)

    for field in form.data["fields"]:
        name = rules_name(field["name"])
        key: dict[str, Any] = data.get("key") or {}
        param: dict[str, Any] = next(
            (p for p in data.get("params", []) if p["name"] == name),
            key if key.get("param") == name else {},
        )
        title = param.get("title") or _param_title(data, name) or _words_of(name)
        where = (rule.qualified_id, name)
        control = form.root.locator(f"[data-field='{field['name']}']").first
        shown = control.evaluate(
            "e => (e.closest('.rb-try-mapping') || e.closest('label')).textContent"
        )
        assert title in shown, (where, title, shown)
        selects = form.root.locator(f"select[data-field='{field['name']}']")
        if field["kind"] == "choice":
            choices = selects.first.locator("option:not([value=''])")
            expected = labels[enum(param, "enum", field["labels"])]
            assert choices.all_text_contents() == expected, where
        if field["kind"] == "mapping":
            keys = control.evaluate(
                "e => Array.from(e.closest('fieldset')"
                ".querySelectorAll('.rb-try-entries .rb-try-name'), n => n.textContent)"
            )
            assert keys == labels[enum(param, "enum", field["labels"])], where
            values = labels[enum(param, "value_enum", field["values"])]
            each = selects.evaluate_all(
                "ss => ss.map(s => Array.from(s.options, o => o.textContent))"
            )
            assert each and all(options == values for options in each), where
    no_code(form, types, rule.qualified_id)


def no_code(form: Form, types: set[str], where: Any) -> None:
    """No identifier, type name or code value in the form's visible text."""
    text = form.root.evaluate(_VISIBLE)
    found = _CODE.findall(text) + [n for n in types if re.search(rf"\b{n}\b", text)]
    assert found == [], (where, found, text)


def _answer_figures(form: Form, where: Any) -> int:
    """Each whole number of the answer shown as the CLI's Python formatter
    writes it: ``clock`` for a time on the rule's clock, else ``show`` with the
    field's sign, unit and words for none. (How many were compared.)"""
    words = form.data["words"]
    units = [(str(n), int(t)) for n, t in words.get("clock", [])]
    compared = 0
    for name, raw, shown in form.root.locator(
        ".rb-try-answer [data-value]"
    ).evaluate_all(
        "es => es.map(e => [e.dataset.name, e.dataset.value, e.textContent])"
    ):
        value = json.loads(raw)
        if type(value) is not int:
            continue
        info = dict(words["names"].get(name, {}))
        if name == "":  # the answer is one value: the rule's unit
            info = dict(words["names"].get("value", {}))
            info["unit"] = words["unit"] or info.get("unit")
        if info.get("time") and units:
            expected = clock(value, units)
        else:
            column = Column(
                name,
                "int",
                False,
                info.get("empty") or "",
                bool(info.get("signed")),
                info.get("unit"),
                "",
                None,
            )
            expected = show(value, column)
        assert shown == expected, (where, name, value, shown, expected)
        compared += 1
    return compared


def _bounds(field: dict[str, Any]) -> str:
    """A number field's bounds, both ends, in words."""
    low, high = field["min"], field["max"]
    if low is not None and high is not None:
        return f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _answered_in_words(form: Form, where: Any) -> str:
    state, raw, _ = form.answer()
    shown = form.words()
    assert state in ("answer", "refused"), (where, state, raw)
    assert shown.strip(), where
    assert "{" not in shown and "}" not in shown, (where, shown)
    return state


def forms_in_words(
    systems: Sequence[System], site: Path, base_url: str, browser: BrowserContext
) -> tuple[int, int, int]:
    """Every form of ``systems``' rules in ``site``, each call made (with a seed
    where it rolls) and each bounded number field given a value past its bounds:
    the answers in words, the refusals naming the field. (forms, answers,
    refusals)"""
    forms = answers = refusals = figures = 0
    for system in systems:
        types = _type_names(system)
        for rule in system.rules:
            page = site / system.id / f"{rule.id}.html"
            if rule.qualified_id not in ported(system) or "data-form=" not in (
                page.read_text(encoding="utf-8")
            ):
                continue  # a rule with no form (an input no form can give)
            form = Form(Watched(browser), base_url, rule.qualified_id)
            forms += 1
            form_reads_as_the_rules(form, system, rule, types)
            for i, call in enumerate(form.data["calls"]):
                form.set(_start(form, i))
                if call["rng"]:
                    form.dice("seed", "1")
                where = (rule.qualified_id, call["label"])
                state = _answered_in_words(form, where)
                answers += state == "answer"
                figures += _answer_figures(form, where)
                no_code(form, types, where)
            for field in form.data["fields"]:
                # (a field of listed values is a select: no value past them to give)
                numbers = field["kind"] in ("int", "ints", "list")
                past = _past(field) if numbers and not field.get("one_of") else None
                if past is None:
                    continue
                filled = _start(form, 0)
                value = [past] if field["kind"] in ("ints", "list") else past
                form.set(Filled({**filled.values, field["name"]: value}, 0, None))
                if form.data["calls"][0]["rng"]:
                    form.dice("seed", "1")
                at = (rule.qualified_id, field["name"], past)
                assert _answered_in_words(form, at) == "refused", at
                shown = form.words()
                be = "be" if field["kind"] == "int" else "each be"
                said = f"{field['label']} must {be} {_bounds(field)}, not {past}"
                assert said in shown, (at, said, shown)
                refusals += 1
            form.close()
    print(f"{forms} forms, {answers} answers, {figures} figures, {refusals} refusals")
    assert figures > 0, "no answer had a number to compare"
    return forms, answers, refusals


def test_every_form_answers_in_words_and_refuses_by_label(
    built: Outputs, site: Path, base_url: str, browser: BrowserContext
) -> None:
    forms, answers, refusals = forms_in_words(built.systems, site, base_url, browser)
    assert forms >= 20 and answers >= forms and refusals >= 5


def test_a_table_row_reads_as_its_table(base_url: str, browser: BrowserContext) -> None:
    """The cover row: its columns' titles, units, signs and the table's words
    for an empty cell."""
    form = Form(Watched(browser), base_url, "d20_scifi.cover")
    form.set(Filled({"level": "Total"}, 0, None))
    form.answer()
    shown = form.words()
    for words in ("Cover AC bonus", "cannot be targeted", "50%", "N/A", "no"):
        assert words in shown, (words, shown)
    form.set(Filled({"level": "9/10"}, 0, None))
    form.answer()
    assert "+10 AC" in form.words()
    form.close()


def test_an_answer_lists_what_its_case_gives(
    base_url: str, browser: BrowserContext
) -> None:
    """A refused attack shows that it is refused and why, not the figures its
    case leaves at their defaults; an allowed one its signed AC bonus, and shot
    through, its miss chance in percent; options in words, fields by title."""
    form = Form(Watched(browser), base_url, "d20_scifi.attack_through_cover")
    start = _start(form, 0).values
    attack = {**start, "level": "Total", "mode": "at_target", "material": "hard"}
    form.set(Filled(attack, 0, None))
    form.answer()
    shown = form.words()
    assert "cannot be targeted" in shown and "Allowed" in shown, shown
    for figure in ("AC bonus", "Miss chance", "Target AC", "location"):
        assert figure not in shown, (figure, shown)
    form.set(
        Filled(
            {**attack, "level": "1/4", "caliber": "super", "material": "soft"}, 0, None
        )
    )
    form.answer()
    assert "AC bonus\n+0" in form.words() or "AC bonus+0" in form.words(), form.words()
    form.set(
        Filled(
            {
                **attack,
                "level": "1/2",
                "mode": "through_cover",
                "material": "soft",
                "caliber": "heavy",
            },
            0,
            None,
        )
    )
    form.answer()
    assert "20%" in form.words() and "AC bonus" not in form.words(), form.words()
    options = form.root.locator("select[data-field='mode'] option").all_text_contents()
    assert options == ["at target", "through cover", "at cover"], options
    form.close()


def test_odds_are_bars(base_url: str, browser: BrowserContext) -> None:
    form = Form(Watched(browser), base_url, "edge_of_darkness.dice_pool")
    odds = next(i for i, c in enumerate(form.data["calls"]) if c["odds"])
    form.set(Filled({"dice": 3}, odds, None))
    form.answer()
    bars = form.root.locator(".rb-try-answer .rb-try-bar")
    assert bars.count() >= 4
    widths = [bars.nth(i).bounding_box() for i in range(bars.count())]
    assert max(b["width"] for b in widths if b is not None) > 20
    assert "%" in form.words()
    form.close()


def _pages(site: Path) -> list[str]:
    return sorted(
        p.relative_to(site).as_posix().removesuffix("index.html")
        for p in site.rglob("*.html")
    )


def _ready(page: Page) -> None:
    page.wait_for_selector("html[data-rb-ready]", state="attached")


# Each table of the article that is not a table (made into cards) on a wide
# screen, or that neither fits its box nor scrolls in it, or a box wider than
# the window.
_BAD_TABLES = """
(wide) => Array.from(document.querySelectorAll('article table')).flatMap(t => {
  const box = t.closest('.md-typeset__scrollwrap, .rb-try-scroll') || t;
  const style = getComputedStyle(box);
  const scrolls = ['auto', 'scroll'].includes(style.overflowX);
  const found = [];
  const row = t.querySelector('tr');
  if (wide && row && getComputedStyle(row).display !== 'table-row') found.push('cards');
  const b = box.getBoundingClientRect();
  if (b.width > 0 && (b.left < -0.5 || b.right > window.innerWidth + 0.5)) found.push('box');
  if (t.scrollWidth > box.clientWidth + 1 && !scrolls && t.offsetParent) found.push('cut');
  return found.map(f => f + ': ' + t.textContent.trim().slice(0, 50));
})
"""


def test_no_page_scrolls_sideways(
    site: Path, base_url: str, browser: BrowserContext
) -> None:
    """At 390 and 1280 pixels: no page is wider than the window; every table
    fits its box or scrolls in it (a table at 1280); formulas and images fit."""
    page = browser.new_page()
    for size in WIDTHS:
        page.set_viewport_size(size)
        for path in _pages(site):
            phone = (
                size["width"] < 600
                and path.split("/")[0].removesuffix(".html") in SYSTEMS
            )
            if phone and not path.startswith(SHOTS):
                continue  # read at 390 by tests/site/test_phone.py
            page.goto(base_url + path, wait_until="load")
            _ready(page)
            if path.startswith(SHOTS):
                page.wait_for_selector(
                    "div.rulebook-try[data-rb-ready]", state="attached"
                )
                name = path.removesuffix(".html").replace("/", "-")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                shot = SCREENSHOTS / f"{name}-{size['width']}.png"
                page.screenshot(path=str(shot), full_page=True)
            width = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width[0] <= width[1], (path, size, width)
            wide = size["width"] > 600  # cards below (docsite/guides/site.md)
            assert page.evaluate(_BAD_TABLES, wide) == [], (path, size)
            too_wide: list[str] = page.evaluate(
                "Array.from(document.querySelectorAll('article .arithmatex, article img'))"
                ".filter(e => !e.closest('table'))"  # a table scrolls in its box
                ".filter(e => { const b = e.getBoundingClientRect();"
                " return b.left < -0.5 || b.right > window.innerWidth + 0.5"
                " || e.scrollWidth > e.clientWidth + 1; })"
                ".map(e => e.tagName + ': ' + e.textContent.trim().slice(0, 60))"
            )
            assert too_wide == [], (path, size, too_wide)
    page.close()


def test_print_shows_the_rule_alone(base_url: str, browser: BrowserContext) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "d20_scifi/cover.html")
    page.wait_for_selector("div.rulebook-try[data-rb-ready]", state="attached")
    assert page.locator("form.rb-try").is_visible()
    page.emulate_media(media="print")
    for hidden in (
        ".md-header",
        ".md-sidebar--primary",
        ".md-search",
        ".md-footer",
        "form.rb-try",
    ):
        found = page.locator(hidden)
        assert found.count() >= 1, hidden
        assert not found.first.is_visible(), hidden
    assert page.locator("article h1").is_visible()
    assert page.locator("article table").first.is_visible()
    page.emulate_media(media="screen")
    assert page.locator(".md-header").is_visible()
    assert watched.problems == []
    page.close()


_BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def test_the_dark_scheme_darkens_the_page(
    base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    # a page with no form; all it loads loaded (a reload cuts nothing off)
    page = watched.open(base_url + "d20_scifi.html", settle=True)
    _ready(page)
    page.emulate_media(color_scheme="light")
    light = page.evaluate(_BACKGROUND)
    page.emulate_media(color_scheme="dark")
    page.reload(wait_until="networkidle")
    _ready(page)
    dark = page.evaluate(_BACKGROUND)
    assert light != dark, (light, dark)
    assert (
        page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    )
    # The header's toggle changes the scheme too (and back).
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    page.wait_for_function(f"b => {_BACKGROUND} !== b", arg=dark)
    assert watched.problems == []
    page.close()


def test_a_link_to_a_rule_shows_its_preview(
    base_url: str, browser: BrowserContext
) -> None:
    watched = Watched(browser)
    page = watched.open(base_url + "d20_scifi/simulate_radiation.html")
    _ready(page)
    link = page.locator("article a[data-rb-preview][href='exposures.html']").first
    preview = page.locator(".rb-preview")
    link.scroll_into_view_if_needed()
    link.hover()
    preview.wait_for(state="visible")
    assert preview.inner_text().startswith("Exposures of one encounter"), (
        preview.inner_text()
    )
    assert link.get_attribute("aria-describedby") == "rb-preview"
    page.mouse.move(0, 0)
    preview.wait_for(state="hidden")
    other = page.locator("article a[data-rb-preview][href='healing.html']").first
    other.focus()  # by keyboard, too
    preview.wait_for(state="visible")
    assert preview.inner_text().startswith("Healing radiation damage")
    assert page.locator(".rb-preview table, .rb-preview p").count() >= 1
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    assert watched.problems == []
    page.close()
