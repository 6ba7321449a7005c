"""Reasons are language-neutral: a decision keeps its rule id and numbers; the sentence comes
from the rule's template (k8sjobs/trace/reasons.py) when it is shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from i18n_support import ROOT, runs, tool

from k8sjobs import i18n
from k8sjobs.trace import render_trace
from k8sjobs.trace.reasons import REASONS, render, template

EMIT_CALL = re.compile(r"""(?:_say|emit)\(\s*["']([a-z_.]+)["']""")


def emitted_rule_ids() -> set[str]:
    """Every rule id passed as a literal to ``emit(...)``/``_say(...)`` in the package."""
    found = set()
    for path in (ROOT / "k8sjobs").rglob("*.py"):
        found.update(EMIT_CALL.findall(path.read_text(encoding="utf-8")))
    return found


def all_reasons():
    for name, run in runs().items():
        for c in run.trace.cycles:
            for d in c.decisions:
                yield name, d.rule, d.fields
            yield name, c.headline.rule, c.headline.fields
        for n in run.trace.notes:
            yield name, n.rule, n.fields


def test_every_rule_id_written_in_the_source_has_a_template():
    ids = emitted_rule_ids()
    assert len(ids) > 40, "the scan found the emit calls"
    missing = sorted(r for r in ids if template(r) is None and not isinstance(REASONS.get(r), dict))
    assert missing == [], f"rules without a template in k8sjobs/trace/reasons.py: {missing}"


def test_every_decision_and_note_of_the_runs_has_a_template_for_its_case():
    seen = set()
    for name, rule, fields in all_reasons():
        assert "reason" not in fields, f"{name}: {rule} was emitted with a formatted sentence"
        assert template(rule, fields.get("case", "")) is not None, f"{name}: no template for {rule} case " \
                                                                   f"{fields.get('case', '')!r}"
        seen.add(rule)
    assert len(seen) > 30, f"the runs exercise most rules ({len(seen)})"


def test_a_rule_without_a_template_shows_its_english_reason_or_its_id():
    assert render("nobody.wrote.this", {"reason": "legacy sentence"}) == "legacy sentence"
    assert render("nobody.wrote.this", {}) == "nobody.wrote.this"


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


def test_switching_language_changes_no_number_and_each_rendering_is_stable():
    pseudo = tool().pseudo_translations()
    en_lines, pseudo_lines = [], []
    for _name, rule, fields in all_reasons():
        en_lines.append(render(rule, fields))
    previous = i18n.use_translations(pseudo, "pseudo")
    try:
        for _name, rule, fields in all_reasons():
            pseudo_lines.append(render(rule, fields))
        again = [render(rule, fields) for _name, rule, fields in all_reasons()]
        trace_a = render_trace(runs()["backoff"].trace)
        trace_b = render_trace(runs()["backoff"].trace)
    finally:
        i18n.use_translations(*previous)
    assert pseudo_lines == again and trace_a == trace_b, "a language renders byte-identically every time"
    assert sum("\u27e6" in line for line in pseudo_lines) == len(pseudo_lines), "every reason was translated"
    assert [numbers(x) for x in en_lines] == [numbers(x) for x in pseudo_lines]


def test_the_trace_stores_no_sentence_only_rule_ids_and_fields():
    for name, run in runs().items():
        for c in run.trace.cycles:
            for d in c.decisions:
                assert set(d.__slots__) == {"rule", "fields"}, name


@pytest.mark.parametrize("language", ["zh-CN", "zh-TW", "ru"])
def test_a_trace_renders_in_every_language_with_the_same_numbers(language):
    trace = runs()["quota"].trace
    english = render_trace(trace)
    i18n.set_language(language)
    try:
        translated = render_trace(trace)
    finally:
        i18n.set_language("en")
    # Line by line, the same numbers; a translation may put them in another order
    # ("{unmet} of {n} syncs" reads "{n} 次同步中有 {unmet} 次" in Chinese).
    english_lines, translated_lines = english.splitlines(), translated.splitlines()
    assert len(translated_lines) == len(english_lines)
    for en_line, tr_line in zip(english_lines, translated_lines):
        assert sorted(numbers(tr_line)) == sorted(numbers(en_line)), (en_line, tr_line)


def test_rule_templates_are_documented_in_developers_md():
    text = Path(ROOT / "DEVELOPERS.md").read_text(encoding="utf-8")
    assert "k8sjobs/trace/reasons.py" in text and "## Languages" in text
