"""The pseudo-locale test: no learner-visible English outside the catalogs.

Every message of the template (extracted from the source now, so the test does not depend on
the committed catalogs) is "translated" into ``⟦àççéñtéd⟧`` form. Then every view (figure and
text twin), a whole Explorer (every tab, the why panel, the faults panel, notices and an error),
an answered Exercise and a CLI run are rendered, and what is left outside the markers is
scanned for English words.

What may stay English is decided by a rule, not by a list of strings:

* code and identifiers: a token with a digit, ``_``, ``.``, ``/``, ``=``, ``-`` inside, a
  camelCase or CamelCase word with two capitals (``activeDeadlineSeconds``, ``SuccessfulCreate``);
* Kubernetes' own words for this run: every word that the run's Kubernetes data holds (event
  types, reasons and messages, condition types, reasons and messages, object kinds and names,
  pod phases, node names) or that the kubectl mirrors print for it (``describe_job``,
  ``get_job``), and the API server's validation messages for a refused manifest;
* the YAML of the manifest (an editor's content) and single characters (units such as ``s``).

The test cannot pass vacuously: it asserts it found markers in every piece it scanned, and
that the scanner flags an unmarked sentence and the English rendering of the same pieces.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest
from i18n_support import DOCS, runs, tool

from k8sjobs import i18n

pytest.importorskip("plotly")
pytest.importorskip("ipywidgets")

OPEN, CLOSE = "\u27e6", "\u27e7"
MARKED = re.compile(OPEN + "[^" + OPEN + CLOSE + "]*" + CLOSE)
CUT = re.compile(OPEN + "[^" + CLOSE + "\n]*…")
"""A marked message a view shortened to fit ("…"): its closing marker was cut off."""
TAG = re.compile(r"<[^>]+>|&[a-z]+;|&#\d+;")
CODE = re.compile(r"<code>.*?</code>|%\{[^}]*\}", re.S)
"""Code: HTML code elements and plotly's hover-template variables (%{customdata})."""
IDENTIFIER = re.compile(r"[0-9_./=\-]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]")
WORD = re.compile(r"[A-Za-z]{2,}")


def kubernetes_words(run, extra: str = "") -> set[str]:
    """Every word Kubernetes itself prints for this run (see the module docstring)."""
    from k8sjobs.api.types import JobConditionType, JobReason, Phase
    from k8sjobs.trace import describe_job
    from k8sjobs.trace.kubectl import get_job

    tr = run.trace
    texts = [extra, describe_job(tr), get_job(tr), tr.job_name, "Job Pod Node"]
    for e in tr.events:
        texts += [e.type, e.reason, e.message]
    for c in tr.cycles:
        for cond in c.after.conditions:
            texts += list(cond)
    for k in range(0, len(tr.cycles) + 1, max(1, len(tr.cycles) // 4)):
        st = tr.state_at(k)
        texts += [p.metadata.name for p in st.pods] + [n.metadata.name for n in st.nodes]
        texts += [p.status.phase or "" for p in st.pods]
    for enum in (JobConditionType, JobReason, Phase):
        texts += [str(v) for k, v in vars(enum).items() if not k.startswith("_") and isinstance(v, str)]
    return {w for t in texts for w in WORD.findall(t)}


def leftovers(text: str, allowed: set[str]) -> list[str]:
    """English words outside the markers that no rule allows."""
    text = CODE.sub(" ", text)
    while True:
        stripped = CUT.sub(" ", MARKED.sub(" ", text))
        if stripped == text:
            break
        text = stripped
    text = TAG.sub(" ", text)
    bad = []
    for token in text.split():
        core = token.strip("()[]{},;:.!?'\"«»…·→←◀▶*#>%")
        if not core or IDENTIFIER.search(core):
            continue
        for word in WORD.findall(core):
            if word not in allowed:
                bad.append(word)
    return bad


@pytest.fixture(scope="module")
def pseudo():
    catalog = tool().pseudo_translations()
    previous = i18n.use_translations(catalog, "pseudo")
    yield catalog
    i18n.use_translations(*previous)


def figure_texts(fig) -> list[str]:
    """The strings of a plotly figure a learner can read: titles, axes, legend, hover, labels, cells."""
    d = fig.to_plotly_json()
    lay = d["layout"]
    out = [lay.get("title", {}).get("text", ""), lay.get("title", {}).get("subtitle", {}).get("text", "")]
    for key, axis in lay.items():
        if key.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            out.append((axis.get("title") or {}).get("text", ""))
            out += [str(x) for x in axis.get("ticktext", ()) or ()]
    out += [a.get("text", "") for a in lay.get("annotations", ()) or ()]
    for tr in d["data"]:
        if tr.get("showlegend", True) is not False:
            out.append(tr.get("name", "") or "")
        for key in ("text", "hovertext", "customdata"):
            v = tr.get(key)
            out += [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v or "")]
        out.append(tr.get("hovertemplate", "") or "")
        if tr.get("type") == "table":
            out += [str(x) for x in tr["header"]["values"]]
            out += [str(x) for col in tr["cells"]["values"] for x in col]
    return [s for s in out if s]


def scan(pieces: dict[str, str], allowed: set[str]) -> dict[str, list[str]]:
    """{piece: its leftover English words} for every piece with any; every piece must hold markers."""
    unmarked = [name for name, text in pieces.items() if text.strip() and OPEN not in text]
    assert not unmarked, f"pieces without a single marker (not rendered through the catalog?): {unmarked}"
    return {name: bad for name, text in pieces.items() if (bad := leftovers(text, allowed))}


def test_the_scanner_catches_an_unmarked_sentence_and_allows_code_and_kubernetes_words():
    allowed = {"SuccessfulCreate", "Created", "pod"}
    assert leftovers("⟦çréàtéd⟧ Hello from an unmarked string", allowed) == ["Hello", "from", "an", "unmarked",
                                                                           "string"]
    assert leftovers("⟦a ⟦nested⟧ one⟧ fail_pod(name='pi-x') activeDeadlineSeconds x=3 SuccessfulCreate "
                     "<code>anything goes</code> Created pod", allowed) == []


def test_every_view_and_its_text_twin_speak_only_through_the_catalog(pseudo):
    from k8sjobs import viz

    problems = {}
    for name in ("backoff", "per_index", "quota", "scale_down", "elastic", "lag", "lost-node", "evicted",
                 "suspended", "docs-job-pod-failure-policy-example", "docs-job-success-policy"):
        run = runs()[name]
        allowed = kubernetes_words(run)
        n = len(run.trace.cycles)
        pieces = {}
        for view in viz.VIEWS:
            for k in sorted({0, 1, n // 2, n}):
                pieces[f"{name}/{view}/{k}/text"] = viz.text(view, run.trace, k)
                pieces[f"{name}/{view}/{k}/figure"] = "\n".join(figure_texts(viz.figure(view, run.trace, k)))
        problems.update(scan(pieces, allowed))
    assert problems == {}


def test_the_cronjob_views_and_their_text_twins_speak_only_through_the_catalog(pseudo):
    import sys
    from pathlib import Path

    from k8sjobs import viz

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "viz"))
    import cron_scenarios as C

    problems = {}
    for name in ("forbid", "replace", "down_deadline", "suspended", "history", "ttl", "zone", "minutes"):
        tr = C.trace(name)
        # Kubernetes' own words: the events and kubectl's Events block ("x10 over 45m"), policies, kinds, names.
        texts = [tr.job_name, "Job CronJob Allow Forbid Replace UTC Asia Shanghai Events Type Reason Age From Message over",
                 *[f"{e.type} {e.reason} {e.message}" for e in tr.events]]
        allowed = {w for t in texts for w in WORD.findall(t)}
        n = len(tr.cycles)
        pieces = {}
        for view in viz.views_for("CronJob"):
            for k in sorted({0, 1, n // 2, n}):
                pieces[f"{name}/{view}/{k}/text"] = viz.text(view, tr, k)
                pieces[f"{name}/{view}/{k}/figure"] = "\n".join(figure_texts(viz.figure(view, tr, k)))
        problems.update(scan(pieces, allowed))
    assert problems == {}


def widget_texts(widget) -> list[str]:
    """Every string a widget tree shows: descriptions, tooltips, placeholders, HTML, tab titles, options."""
    import ipywidgets as W

    out = []
    seen = set()

    def walk(w):
        if id(w) in seen:
            return
        seen.add(id(w))
        for attr in ("description", "tooltip", "placeholder"):
            v = getattr(w, attr, None)
            if isinstance(v, str):
                out.append(v)
        if isinstance(w, (W.HTML, W.Label, W.HTMLMath)):
            out.append(w.value)
        if isinstance(w, W.Tab):
            out.extend(w.titles)
        if isinstance(w, (W.Dropdown, W.Select, W.RadioButtons)):
            out.extend(str(o[0]) if isinstance(o, tuple) else str(o) for o in w.options)
        for child in getattr(w, "children", ()) or ():
            walk(child)

    walk(widget)
    return [s for s in out if s and s.strip()]


def test_a_whole_explorer_every_tab_the_why_panel_faults_and_an_error_speak_through_the_catalog(pseudo):
    from k8sjobs import Explorer

    text = (DOCS / "job-pod-failure-backoff.yaml").read_text()
    ex = Explorer(text)
    allowed = kubernetes_words(ex.state.run)
    pieces = {"start": "\n".join(widget_texts(ex.widget))}
    ex.step()
    ex.step()
    ex.step()
    for i, view in enumerate(ex.views):
        ex.tabs.selected_index = i
        ex._twin_toggles[view].value = True
        pieces[f"tab {view} twin"] = ex._twins[view].value
        fig = figure_texts(ex.figure_widget(view))
        # (the dashboard shows a figure's title and legend beside it, as HTML: viz.outside)
        meta = ex.figures[view].layout.meta
        pieces[f"tab {view} figure"] = "\n".join([meta["k8sjobs_title"], meta["k8sjobs_legend"], *fig])
    pieces["why panel"] = ex.explanation.value
    pieces["status"] = ex.status.value
    pod = ex.state.pods()[0]
    ex.act("fail_pod", name=pod, exit_code=3)
    pieces["notice after an action"] = ex.notice.value
    pieces["faults panel"] = "\n".join(widget_texts(ex.tools))
    ex.seek(0)
    ex._act_on_pod("fail_pod")
    pieces["error notice"] = ex.error.value
    pieces["whole dashboard"] = "\n".join(t for t in widget_texts(ex.widget) if t != ex.yaml.value)
    problems = scan(pieces, allowed)
    assert problems == {}


def test_a_cronjob_dashboard_its_status_line_picker_tabs_faults_and_errors_speak_through_the_catalog(pseudo):
    from k8sjobs import Explorer

    text = (DOCS.parent / "cronjob" / "hello.yaml").read_text()
    ex = Explorer(text, nodes=1, max_time=4 * 3600)
    cj = ex.state.run.trace
    allowed = {w for t in [cj.job_name, "CronJob Job UTC", *[f"{e.type} {e.reason} {e.message}" for e in cj.events]]
               for w in WORD.findall(t)}
    pieces = {"start": "\n".join(widget_texts(ex.widget))}
    ex.step()
    ex.next_schedule()
    pieces["status after the next schedule"] = ex.status.value + ex.clock_label.value
    for i, view in enumerate(ex.cronjob_views):
        ex.tabs.selected_index = i
        ex._twin_toggles[view].value = True
        pieces[f"tab {view} twin"] = ex._twins[view].value
    ex.stop_controllers("3h")
    pieces["notice after a stop"] = ex.notice.value
    ex.next_schedule()
    pieces["status after 3 h down"] = ex.status.value
    pieces["why panel"] = ex.why_title.value + ex.explanation.value
    ex.stop_controllers("soon")
    pieces["error: a duration that does not read"] = ex.error.value
    ex.suspend_cronjob_for("30m")
    pieces["notice after suspend for a while"] = ex.notice.value
    ex.step()
    pieces["status while suspended"] = ex.status.value
    ex.next_schedule()
    pieces["error: no schedule to come"] = ex.error.value
    pieces["faults panel and picker"] = "\n".join(widget_texts(ex.tools) + widget_texts(ex.job_menu))
    # Kubernetes' own words: the Jobs' names, the events (also those of the forked runs) and kubectl's Events block.
    for job in ex.state.jobs[1:]:
        allowed |= set(WORD.findall(job))
    for e in ex.state.run.trace.events:
        allowed |= set(WORD.findall(f"{e.type} {e.reason} {e.message}"))
    allowed |= set(WORD.findall("Events Type Reason Age From Message over"))
    pieces["whole dashboard"] = "\n".join(t for t in widget_texts(ex.widget) if t != ex.yaml.value)
    problems = scan(pieces, allowed)
    assert problems == {}


def test_an_answered_exercise_speaks_through_the_catalog(pseudo):
    from k8sjobs import Exercise

    run = runs()["quota"]
    ex = Exercise("How many pods does the first sync create?", kind="number", run=run,
                  answer=lambda r: len(r.cycle(1).created), explanation="Slow start.")
    pieces = {"exercise": "\n".join(widget_texts(ex.widget))}
    verdicts = []
    for guess in ("", "x", "1", str(len(run.trace.cycles[0].created))):
        v = ex.check(guess)
        verdicts.append(v.message)
    pieces["verdicts"] = "\n".join(verdicts)
    # The lesson's own words (prompt, explanation) are the lesson's to translate.
    allowed = kubernetes_words(run) | {"How", "many", "pods", "does", "the", "first", "sync", "create", "Slow",
                                       "start"}
    assert scan(pieces, allowed) == {}


def test_a_cli_run_and_its_errors_speak_through_the_catalog(pseudo, tmp_path):
    from k8sjobs.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        assert main(["run", str(DOCS / "job-pod-failure-backoff.yaml")]) == 0
        assert main(["run", str(DOCS / "job.yaml"), "--until", "-1"]) == 1
        assert main(["run", str(tmp_path)]) == 1
    run = runs()["backoff"]
    pieces = {"stdout": out.getvalue(), "stderr": "\n".join(line.removeprefix("run: ")
                                                            for line in err.getvalue().splitlines())}
    assert scan(pieces, kubernetes_words(run)) == {}


def test_the_scan_would_fail_on_the_english_rendering():
    import gettext

    from k8sjobs import viz

    run = runs()["backoff"]
    previous = i18n.use_translations(gettext.NullTranslations(), "en")
    try:
        text = viz.text("backoff", run.trace, len(run.trace.cycles))
    finally:
        i18n.use_translations(*previous)
    assert len(leftovers(text, kubernetes_words(run))) > 20, "English words are found when nothing is marked"
    from k8sjobs import Explorer

    previous = i18n.use_translations(gettext.NullTranslations(), "en")
    try:
        ex = Explorer((DOCS / "job-pod-failure-backoff.yaml").read_text())
    finally:
        i18n.use_translations(*previous)
    shown = "\n".join(t for t in widget_texts(ex.widget) if t != ex.yaml.value)
    assert len(leftovers(shown, kubernetes_words(ex.state.run))) > 100
