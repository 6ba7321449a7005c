"""The dashboard's cycle slider shows its whole label in every language, in JupyterLab.

While a forked run is still being simulated the label reads "Cycle (so far)" (87 px in
JupyterLab's 13 px UI font), wider than the 80 px ipywidgets gives a description by default,
so it was cut to "Cycle (so f…". The fixture dashboard forks lazily here (the eager-fork
threshold set to 0), as a big Job's dashboard does.
"""

from __future__ import annotations

import pytest
from test_dashboard import EXPLORER, NB, STATUS

from k8sjobs import i18n
from k8sjobs.i18n import _

FORK = ("\nimport k8sjobs.widgets.state as _state\n_state.EAGER_FORK_WORK = 0  # fork lazily, as for a big Job\n"
        "explorer.step()\nassert explorer.act('scale', parallelism=2) == []\nexplorer\n")

_LABEL_JS = """(root) => {
    const label = document.querySelector(root + ' .k8sjobs-cycle .widget-label');
    return {text: label.innerText.trim(), scroll: label.scrollWidth, client: label.clientWidth};
}"""


@pytest.mark.parametrize("language", ["en", "zh-CN", "ru"])
def test_the_cycle_sliders_label_shows_whole_while_the_run_is_simulated(lab, probe, language):
    previous = i18n.get_language()
    i18n.set_language(language)
    try:
        so_far = _("Cycle (so far)")
    finally:
        i18n.set_language(previous)
    nb = lab.open_notebook(probe, NB)
    probe.page.evaluate(
        """([lang, fork]) => { const cell = window.jupyterapp.shell.currentWidget.content.widgets
                                   .find(c => c.model.type === 'code');
                               const src = cell.model.sharedModel.getSource();
                               cell.model.sharedModel.setSource(
                                   `from k8sjobs import set_language\\nset_language(${JSON.stringify(lang)})\\n`
                                   + src.replace(/\\nexplorer\\s*$/, fork)); }""",
        [language, FORK])
    run = nb.run_all()
    assert run.ok, run.errors
    probe.page.locator(STATUS).first.wait_for(state="visible")
    probe.page.wait_for_function(
        "([root, t]) => { const s = document.querySelector(root + ' .k8sjobs-cycle .widget-label');"
        " return s && s.innerText.trim() === t; }", arg=[EXPLORER, so_far], timeout=30_000)
    found = probe.page.evaluate(_LABEL_JS, EXPLORER)
    assert found["text"] == so_far
    assert found["scroll"] <= found["client"], f"{so_far!r} is cut: {found['scroll']} px in {found['client']} px"
    probe.shot("slider", scroll_to=EXPLORER)
