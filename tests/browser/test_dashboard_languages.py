"""The dashboard in another language, in JupyterLab (headless Debian Chromium).

The fixture notebook of test_dashboard.py is opened with ``set_language(<language>)`` put in
front of its first cell. The test reads the words it expects from the language's catalog (the
same ``.mo`` the kernel reads), so it follows the catalog: buttons, tabs, the status line, the
"Why this cycle" panel, the faults panel and a figure title must be the catalog's words, not
English; every glyph of them must render (no tofu box: each character is drawn on a canvas in
the page's own font and compared with the glyph of a code point no font has); no label may be
wider than its button, tab or field label, and no field may be squeezed by its label (Russian
runs about 30 % longer than English); Step must work.
Screenshots go to artifacts/browser/test_dashboard_in_language[<language>]-*.png.
"""

from __future__ import annotations

import json
import re

import pytest
from harness import ROOT
from playwright.sync_api import expect
from test_dashboard import EXPLORER, NB, STATUS, TIMELINE, check_bars_drawn, expect_status, timeline_title

from k8sjobs import i18n
from k8sjobs.i18n import _
from k8sjobs.viz import figure as view_figure
from k8sjobs.viz._common import figure_title
from k8sjobs.widgets.state import ExplorerState

LANGUAGES = ["zh-CN", "ru"]
"""The languages whose catalogs are translated (a catalog translator adds theirs when it is done)."""

_MANIFEST = re.compile(r'MANIFEST = """(.*?)"""', re.S)


def _fixture_manifest() -> str:
    cells = json.loads((ROOT / NB).read_text(encoding="utf-8"))["cells"]
    code = "".join(next(c for c in cells if c["cell_type"] == "code")["source"])
    return _MANIFEST.search(code).group(1)


def _expected(language: str) -> dict[str, object]:
    """What the dashboard must show in ``language`` (and in English, to tell them apart)."""
    manifest = _fixture_manifest()
    out: dict[str, object] = {}
    for lang in ("en", language):
        i18n.set_language(lang)
        try:
            state = ExplorerState(manifest, seed=0, nodes=3)
            words = {key: _(key) for key in (
                "Step", "Back", "Reset", "Play / Pause", "Timeline", "Counts", "Back-off", "Faults and actions",
                "Edit the Job (YAML)", "Why this cycle", "Fail pod", "Evict pod", "Delete pod", "Lose node",
                "Add node", "Suspend", "Resume", "Scale", "Set pod quota")}
            words["Text version: Timeline"] = _("Text version: {view}").format(view=_("Timeline"))
            s0 = state.status_line()
            state.step()
            s1 = state.status_line()
            # the timeline's title as the dashboard shows it above the figure (HTML: viz.outside)
            title1 = figure_title(view_figure("timeline", state.run.trace, 1)).split("\n")[0]
        finally:
            i18n.set_language("en")
        out[lang] = {"words": words, "s0": s0, "s1": s1, "title1": title1}
    return out


_TOFU_JS = """([selector, text]) => {
    // Draw each character in the element's font; a character no installed font has is drawn as the
    // same box as U+10FFFD (a private-use code point no font covers): that is tofu.
    const el = document.querySelector(selector);
    const font = getComputedStyle(el).font;
    const canvas = document.createElement('canvas');
    canvas.width = 64; canvas.height = 64;
    const ctx = canvas.getContext('2d', {willReadFrequently: true});
    const draw = ch => {
        ctx.clearRect(0, 0, 64, 64);
        ctx.font = font.replace(/\\d+(\\.\\d+)?px/, '40px');
        ctx.fillStyle = '#000'; ctx.textBaseline = 'top';
        ctx.fillText(ch, 4, 4);
        const d = ctx.getImageData(0, 0, 64, 64).data;
        let ink = 0, h = 0;
        for (let i = 3; i < d.length; i += 4) { if (d[i]) ink++; h = (h * 31 + d[i]) | 0; }
        return {ink, h};
    };
    const tofu = draw(String.fromCodePoint(0x10FFFD));
    const bad = [];
    const letters = new Set(Array.from(text).filter(c => c.codePointAt(0) > 0x7F && /\\p{L}/u.test(c)));
    for (const ch of letters) {
        const g = draw(ch);
        if (g.ink === 0 || (g.h === tofu.h && g.ink === tofu.ink)) bad.push(ch);
    }
    return {font, checked: letters.size, bad};
}"""


def assert_glyphs_render(probe, selector: str) -> None:
    text = probe.text(selector)
    result = probe.page.evaluate(_TOFU_JS, [selector, text])
    assert result["checked"] > 0, f"no letters beyond ASCII in {selector}: {text!r}"
    assert result["bad"] == [], f"tofu in {selector} ({result['font']}): {''.join(result['bad'])}"


_OVERFLOW_JS = """(root) => {
    // Every label that must fit: buttons and toggles, tab labels, field labels. A label wider than its
    // box is cut (ellipsis) or spills out; a field whose label leaves its input narrower than 40 px
    // cannot show its value.
    const out = {labels: [], cut: [], squeezed: []};
    const seen = el => el.getBoundingClientRect().width > 0;
    for (const el of document.querySelectorAll(root + ' button, ' + root + ' .lm-TabBar-tabLabel, '
                                               + root + ' .widget-label')) {
        if (!seen(el) || !el.innerText.trim()) continue;
        const label = el.innerText.trim();
        out.labels.push(label);
        if (el.scrollWidth > el.clientWidth) out.cut.push(`${label}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    for (const input of document.querySelectorAll(root + ' .widget-inline-hbox input')) {
        if (!seen(input)) continue;
        const w = input.getBoundingClientRect().width;
        const label = input.closest('.widget-inline-hbox').querySelector('.widget-label');
        if (w < 40) out.squeezed.push(`${label ? label.innerText.trim() : '?'}: input ${Math.round(w)} px`);
    }
    return out;
}"""


def assert_labels_fit(probe, root: str) -> list[str]:
    """Every button, tab and field label under ``root`` fits its box; every input keeps room; the labels."""
    found = probe.page.evaluate(_OVERFLOW_JS, root)
    assert found["labels"], f"no labels under {root}"
    assert found["cut"] == [], "labels wider than their box: " + "; ".join(found["cut"])
    assert found["squeezed"] == [], "fields squeezed by their label: " + "; ".join(found["squeezed"])
    return found["labels"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_dashboard_in_language(lab, probe, language):
    expected = _expected(language)
    en, tr = expected["en"], expected[language]
    untranslated = [k for k, v in tr["words"].items() if v == en["words"][k]]
    assert not untranslated, f"{language} catalog leaves these in English: {untranslated}"
    assert tr["s0"] != en["s0"] and tr["s1"] != en["s1"] and tr["title1"] != en["title1"]

    nb = lab.open_notebook(probe, NB)
    # set_language before anything else in the notebook (the fixture is the English dashboard's)
    probe.page.evaluate(
        """lang => { const cell = window.jupyterapp.shell.currentWidget.content.widgets
                         .find(c => c.model.type === 'code');
                     const src = cell.model.sharedModel.getSource();
                     cell.model.sharedModel.setSource(
                         `from k8sjobs import set_language\\nset_language(${JSON.stringify(lang)})\\n` + src); }""",
        language)
    run = nb.run_all()
    assert run.ok, run.errors
    assert f"kernel: {tr['s0']}" in run.text()
    expect_status(probe, tr["s0"])

    words = tr["words"]
    # the dashboard's children views render one by one after the kernel went idle: wait for its buttons
    probe.wait_until("([root, want]) => { const have = new Set(Array.from(document.querySelectorAll(root + ' button'))"
                     ".map(b => b.innerText.trim())); return want.every(w => have.has(w)); }",
                     [EXPLORER, [words[k] for k in ("Step", "Back", "Reset", "Play / Pause", "Text version: Timeline")]])
    labels = {t.strip() for t in probe.texts(f"{EXPLORER} button")}
    for key in ("Step", "Back", "Reset", "Play / Pause", "Text version: Timeline"):
        assert words[key] in labels, f"no button {words[key]!r} ({key}) among {sorted(labels)}"
        assert key not in labels, f"English button {key!r}"
    for key in ("Timeline", "Counts", "Back-off", "Faults and actions", "Edit the Job (YAML)"):
        expect(probe.page.get_by_role("tab", name=words[key], exact=True), f"no tab {words[key]!r} ({key})").to_have_count(1)
    expect(probe.page.locator(EXPLORER)).to_contain_text(words["Why this cycle"], use_inner_text=True)
    assert_glyphs_render(probe, STATUS)
    assert_glyphs_render(probe, f"{EXPLORER} .lm-TabBar-tab")
    assert_labels_fit(probe, EXPLORER)
    probe.shot("1-rendered", scroll_to=EXPLORER)

    # Step works, in the language: the status line and the timeline's title follow
    probe.click_button(words["Step"])
    expect_status(probe, tr["s1"])
    probe.page.wait_for_function(
        "([root, t]) => { const e = document.querySelector(root + ' .k8sjobs-figure-title');"
        " return e && e.textContent === t; }", arg=[TIMELINE, tr["title1"]], timeout=30_000)
    assert timeline_title(probe) == tr["title1"]
    check_bars_drawn(probe)
    assert_glyphs_render(probe, f"{TIMELINE} .k8sjobs-figure-title")
    probe.shot("2-step", scroll_to=EXPLORER)

    # the faults panel: its buttons in the language, their glyphs drawn
    faults = f"{EXPLORER} .k8sjobs-faults"
    probe.page.locator(faults).scroll_into_view_if_needed()
    for key in ("Fail pod", "Evict pod", "Delete pod", "Lose node", "Add node", "Suspend", "Resume", "Scale",
                "Set pod quota"):
        exact = re.compile(r"^\s*" + re.escape(words[key]).replace("\\ ", " ") + r"\s*$")
        button = probe.page.locator(f"{faults} button").filter(has_text=exact)
        expect(button, f"no faults-panel button {words[key]!r} ({key})").to_have_count(1)
        box = button.bounding_box()
        label = button.evaluate("b => { const r = document.createRange(); r.selectNodeContents(b);"
                                " return r.getBoundingClientRect().width; }")
        assert label <= box["width"], f"{words[key]!r} does not fit its button ({label} > {box['width']})"
    assert_glyphs_render(probe, faults)
    fitted = assert_labels_fit(probe, faults)
    assert len(fitted) == 19, f"the faults panel's 7 field labels and 12 buttons, measured: {fitted}"
    probe.shot("3-faults", scroll_to=faults)

    # the editing tab: its three buttons fit too
    probe.page.get_by_role("tab", name=words["Edit the Job (YAML)"]).click()
    probe.page.locator(f"{EXPLORER} .k8sjobs-edit button").first.wait_for(state="visible")
    assert_labels_fit(probe, f"{EXPLORER} .k8sjobs-edit")
    probe.shot("4-edit", scroll_to=f"{EXPLORER} .k8sjobs-edit")
    assert nb.settled_kernel_status() == "idle"
    probe.assert_clean()
    assert probe.blocked_requests == [], "JupyterLab tried to reach the internet"
