"""The Chinese and Russian start pages as a learner opens them: JupyterLab (in that UI language) and Voila.

For zh-CN and ru, in JupyterLab and in Voila: the start page runs, its dashboard steps, its exercise
is answered; and the course's own words are that language's:

* the page's prose (the lesson, written in the language) and the exercise's prompt and explanation;
* every label of the dashboard and of the exercise (buttons, toggles, tabs) and the status line are
  exactly what the package says in that language (the message catalogs, k8sjobs/locale): computed
  here by building the same dashboard with set_language(language), so the test holds while the
  catalogs are being translated and keeps holding once they are complete (an untranslated message
  shows English in both places; the count of translated labels is printed);
* Chinese glyphs render (no tofu: every CJK character drawn differs from the missing-glyph box and is
  not blank), and no label overflows its button or tab (scrollWidth > clientWidth), in both tabs.

Both detectors are proven on bad input first (missing glyphs, a clipped button). Screenshots go to
artifacts/browser/.
"""

from __future__ import annotations

import contextlib
import json
import re

import ipywidgets as W
import nbformat
import pytest
from harness import ROOT, JupyterLab, Voila

from k8sjobs.i18n import set_language, translations

LANGUAGES = ["zh-CN", "ru"]
UI_LOCALE = {"zh-CN": "zh_CN", "ru": "ru_RU"}
SCRIPT = {"zh-CN": re.compile(r"[\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
STATUS = ".k8sjobs-status"
# The last sentence of the start page's exercise explanation, in each language (notebooks/<lang>/00).
EXPLANATION_END = {"zh-CN": "所有事情都推迟了 25 秒。", "ru": "Всё сдвинулось на 25 с."}
HEADINGS = {"zh-CN": ["为什么", "试试仪表盘", "核对答案"], "ru": ["Зачем это нужно", "Попробуйте дашборд", "Проверка ответов"]}


def start_page(language: str) -> str:
    return f"notebooks/{language}/00-start-here.ipynb"


@contextlib.contextmanager
def speaking(language: str):
    previous = set_language(language)
    try:
        yield
    finally:
        set_language(previous if previous else "en")


def expected_dashboard(language: str) -> dict:
    """What the start page's dashboard shows in ``language``: built here from the page's own first cell."""
    nb = nbformat.read(ROOT / start_page(language), as_version=4)
    first = next(c.source for c in nb.cells if c.cell_type == "code")
    namespace: dict = {}
    with speaking(language):
        exec(compile(first, start_page(language), "exec"), namespace)  # noqa: S102 -- the lesson's own code
        dashboard = namespace["dashboard"]
        labels = set()
        stack = [dashboard.root]
        while stack:
            w = stack.pop()
            if isinstance(w, (W.Button, W.ToggleButton)) and w.description and w.layout.display != "none":
                labels.add(w.description)
            if isinstance(w, W.Tab):
                labels.update(t for t in w.titles if t)
            stack.extend(getattr(w, "children", ()) or ())
        before = dashboard.state.status_line()
        dashboard.step()
        after = dashboard.state.status_line()
        step, check = (translations(language).gettext(m) for m in ("Step", "Check"))
    return {"labels": labels, "before": before, "after": after, "step": step, "check": check}


def translated_share(language: str, labels: set[str]) -> str:
    done = sum(1 for label in labels if SCRIPT[language].search(label))
    return f"{done} of {len(labels)} dashboard labels in {language}"


# ----------------------------------------------------------------------------- detectors (page JS)

GLYPHS_JS = """([text, font]) => {
    const chars = Array.from(new Set(Array.from(text).filter(ch => /[\\u3400-\\u9fff\\ue000-\\uf8ff]/.test(ch))));
    const canvas = document.createElement('canvas'); canvas.width = 48; canvas.height = 48;
    const ctx = canvas.getContext('2d', {willReadFrequently: true});
    const draw = (ch) => {
        ctx.clearRect(0, 0, 48, 48); ctx.font = `32px ${font}`; ctx.fillStyle = '#000';
        ctx.textBaseline = 'top'; ctx.fillText(ch, 4, 4);
        const alpha = ctx.getImageData(0, 0, 48, 48).data.filter((_, i) => i % 4 === 3);
        return Array.from(alpha).join(',');
    };
    const missing = new Set(['\\ue000', '\\u0378', '\\ufdd0'].map(draw));
    const blank = draw(' ');
    const tofu = chars.filter(ch => { const d = draw(ch); return d === blank || missing.has(d); });
    return {font, checked: chars.length, tofu};
}"""

OVERFLOW_JS = """(root) => {
    const sel = ['button', '.lm-TabBar-tabLabel', '.p-TabBar-tabLabel', '.widget-label']
        .map(s => `${root} ${s}`).join(', ');
    return Array.from(document.querySelectorAll(sel))
        .filter(e => e.offsetParent !== null && e.innerText.trim())
        .map(e => ({text: e.innerText.trim(), scroll: e.scrollWidth, client: e.clientWidth}))
        .filter(r => r.scroll > r.client);
}"""


def glyph_report(probe, text: str, css: str) -> dict:
    font = probe.page.evaluate("(css) => getComputedStyle(document.querySelector(css)).fontFamily", css)
    return probe.page.evaluate(GLYPHS_JS, [text, font])


def overflowing(probe, root: str) -> list[dict]:
    return probe.page.evaluate(OVERFLOW_JS, root)


def detectors_catch_bad_pages(probe, css: str) -> None:
    """Each detector on known-bad input in this page, so it cannot pass vacuously."""
    bad = glyph_report(probe, "\ue000\ue001\ue002", css)
    assert bad["checked"] == 3 and len(bad["tofu"]) == 3, f"the glyph check misses missing glyphs: {bad}"
    probe.page.evaluate("""() => {
        const b = document.createElement('button'); b.id = 'k8sjobs-clipped-probe';
        b.textContent = 'Применить к работающему Job';
        b.style.cssText = 'width:40px;overflow:hidden;white-space:nowrap';
        document.querySelector('.k8sjobs-explorer').appendChild(b);
    }""")
    clipped = overflowing(probe, ".k8sjobs-explorer")
    probe.page.evaluate("() => document.getElementById('k8sjobs-clipped-probe').remove()")
    assert any(r["text"] == "Применить к работающему Job" for r in clipped), clipped


# ----------------------------------------------------------------------------- the checks


_LABELS_JS = """() => Array.from(document.querySelectorAll(
    '.k8sjobs-explorer button, .k8sjobs-explorer .lm-TabBar-tabLabel, .k8sjobs-explorer .p-TabBar-tabLabel'))
    .map(e => e.innerText.trim()).filter(Boolean)"""


def rendered_labels(probe) -> set[str]:
    return set(probe.page.evaluate(_LABELS_JS))


def wait_for_labels(probe, labels: set[str], timeout: float = 30) -> None:
    """Wait until every label in ``labels`` is rendered: a Box's children views render one by one,
    after the kernel went idle, so the status line can be there before the tabs and buttons."""
    probe.wait_until(f"want => {{ const have = new Set(({_LABELS_JS})()); return want.every(l => have.has(l)); }}",
                     sorted(labels), timeout=timeout)


def the_course_speaks(probe, language: str, want: dict, prose_css: str, app: str) -> dict:
    """The dashboard, the exercise and the page speak ``language``; no tofu; no clipped label."""
    wait_for_labels(probe, want["labels"])
    missing = sorted(want["labels"] - rendered_labels(probe))
    assert not missing, f"labels the package gives in {language} but the page does not show: {missing}"
    probe.expect_text(STATUS, want["before"])
    page_text = probe.page.inner_text("body")
    for heading in HEADINGS[language]:
        assert heading in page_text, f"the page's heading {heading!r} is not shown"
    report = {"labels": translated_share(language, want["labels"])}
    if language == "zh-CN":
        glyphs = glyph_report(probe, page_text, prose_css)
        assert glyphs["checked"] > 100 and not glyphs["tofu"], f"Chinese characters drawn as boxes: {glyphs}"
        report["glyphs"] = f"{glyphs['checked']} distinct CJK characters drawn in {glyphs['font']}"
    clipped = overflowing(probe, ".k8sjobs-explorer")
    probe.shot(f"{app}-{language}-faults-tab", scroll_to=".k8sjobs-faults")
    tools = probe.page.locator(".k8sjobs-explorer .lm-TabBar-tab, .k8sjobs-explorer .p-TabBar-tab")
    if tools.count() >= 2:  # the second tab (editing) has its own buttons
        tools.nth(tools.count() - 1).click()
        # the tab's panel is shown in a later frame: measure it once its buttons are on screen
        probe.page.locator(".k8sjobs-explorer .k8sjobs-edit button").first.wait_for(state="visible")
        clipped += overflowing(probe, ".k8sjobs-explorer")
        probe.shot(f"{app}-{language}-edit-tab", scroll_to=".k8sjobs-edit")
        tools.nth(tools.count() - 2).click()
    clipped += overflowing(probe, ".k8sjobs-exercise")
    assert not clipped, f"labels overflowing their button or tab: {clipped}"
    return report


def step_and_answer(probe, language: str, want: dict, app: str) -> None:
    probe.shot(f"{app}-{language}-dashboard", scroll_to=STATUS)
    titles = ".k8sjobs-explorer .k8sjobs-figure-title"
    # each figure draws its title once plotly has loaded and drawn it (after the kernel went idle)
    probe.wait_until("css => document.querySelectorAll(css).length >= 2", titles)
    before = probe.page.evaluate("(css) => Array.from(document.querySelectorAll(css)).map(e => e.textContent)", titles)
    assert len(before) == 2, f"the start page shows two figures: {before}"
    step = re.compile(rf"^\W*{re.escape(want['step'])}\s*$")  # the accessible name may carry the icon
    probe.page.locator(".k8sjobs-explorer").get_by_role("button", name=step).first.click()
    probe.expect_text(STATUS, want["after"])
    # each figure redraws for the new cycle (its title names the cycle, in whatever words)
    probe.page.wait_for_function("([css, old]) => { const now = Array.from(document.querySelectorAll(css))"
                                 ".map(e => e.textContent); return now.length === old.length && "
                                 "now.every((t, i) => t !== old[i]); }", arg=[titles, before], timeout=30_000)
    probe.shot(f"{app}-{language}-after-step", scroll_to=STATUS)
    box = probe.page.locator(".k8sjobs-exercise").first
    box.scroll_into_view_if_needed()
    # textContent, not innerText: JupyterLab leaves a cell that has just scrolled in undrawn until
    # the next frame (content-visibility: auto), and innerText of an undrawn cell is ''
    assert SCRIPT[language].search(box.text_content() or ""), "the exercise's prompt is in the language"
    box.get_by_role("textbox").fill("41")
    box.get_by_role("button", name=want["check"]).click()
    feedback = box.locator(".k8sjobs-exercise-feedback")
    feedback.get_by_text(EXPLANATION_END[language], exact=False).first.wait_for(timeout=60_000)
    assert feedback.inner_text().startswith("✔"), feedback.inner_text()
    probe.shot(f"{app}-{language}-exercise", scroll_to=".k8sjobs-exercise-feedback")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_start_page_speaks_its_language_in_jupyterlab(browser, language: str) -> None:
    want = expected_dashboard(language)
    with JupyterLab(locale=UI_LOCALE[language]) as lab:
        probe = browser.new_page(f"lab-{language}-start-page")
        try:
            nb = lab.open_notebook(probe, start_page(language))
            run = nb.run_all(timeout=240)
            assert run.ok, run.errors
            probe.expect_text(STATUS, want["before"])
            detectors_catch_bad_pages(probe, ".jp-RenderedMarkdown")
            report = the_course_speaks(probe, language, want, ".jp-RenderedMarkdown", "lab")
            step_and_answer(probe, language, want, "lab")
            menu = probe.page.inner_text("#jp-top-panel") if probe.count("#jp-top-panel") else ""
            assert SCRIPT[language].search(menu), f"JupyterLab's own menus are not in {language}: {menu[:80]!r}"
            print(json.dumps({language: report}, ensure_ascii=False))
            probe.assert_clean()
        finally:
            probe.close()
            lab.shutdown_kernels()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translated_start_page_speaks_its_language_as_a_voila_app(browser, language: str) -> None:
    want = expected_dashboard(language)
    with Voila(start_page(language)) as voila:
        probe = browser.new_page(f"voila-{language}-start-page")
        try:
            voila.open(probe, ready=STATUS, timeout=240)
            detectors_catch_bad_pages(probe, "body")
            report = the_course_speaks(probe, language, want, "body", "voila")
            step_and_answer(probe, language, want, "voila")
            print(json.dumps({language: report}, ensure_ascii=False))
            probe.assert_clean()
        finally:
            probe.close()
