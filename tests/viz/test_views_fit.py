"""Every view reads right and fits where the dashboard shows it, in every language: titles that
are English at cycle 0, box text inside its box, labels inside the figure, table cells one line.

Widths are measured with :func:`k8sjobs.viz._common.text_px` (DejaVu Sans as Chromium draws it;
a Chinese character is one em, as wide as two Latin letters)."""

from __future__ import annotations

import re

import pytest
import viz_scenarios as S

from k8sjobs import i18n, viz
from k8sjobs.viz._common import figure_title

LANGUAGES = ("en", "zh-CN", "ru")


@pytest.fixture(params=LANGUAGES)
def language(request):
    """Each test runs once per language; English again afterwards."""
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_english_titles_at_cycle_0_say_up_to_after_and_at_a_moment_not_before_the_first_cycle():
    trace = S.backoff().trace
    for view in viz.VIEWS:
        main = figure_title(viz.figure(view, trace, 0)).splitlines()[0]
        assert not re.search(r"\b(up to|after|at) before\b", main), f"{view}: {main!r}"
        assert viz.text(view, trace, 0).splitlines()[0] == main
