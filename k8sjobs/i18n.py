"""Languages: every learner-visible word goes through gettext.

This is the bottom layer (beside ``clock``, ``ids`` and ``hooks``), so any layer may mark its
words with ``_()``, ``ngettext()``, ``pgettext()``, ``npgettext()`` or, for module-level
constants translated when shown, ``N_()`` (``Nn_()`` for a singular/plural pair, ``Np_()`` with a
context).

The catalogs are standard gettext: ``k8sjobs/locale/k8sjobs.pot`` (extracted by Babel with
``python tools/i18n.py extract``), one ``.po`` per language and the compiled ``.mo`` files
that ship inside the package. At run time only the standard library's :mod:`gettext` reads
them, so the package needs nothing compiled (it runs in Pyodide too). English is the source:
it needs no catalog.

The language is chosen with :func:`set_language` or, before ``k8sjobs`` is imported, the
``K8SJOBS_LANG`` environment variable (the CLI's ``--lang`` calls :func:`set_language`).
Whatever is created or rendered afterwards speaks that language.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import os
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

LANGUAGES = ("en", "zh-CN", "zh-TW", "ru")
"""The languages the course speaks, as BCP 47 tags (the gettext locale is ``zh_CN``, ...)."""

DOMAIN = "k8sjobs"
"""The gettext domain: ``locale/<ll_CC>/LC_MESSAGES/k8sjobs.mo``."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogs live inside the package."""

ENV_VAR = "K8SJOBS_LANG"
"""The environment variable that chooses the language at import time."""

_NULL = _gettext.NullTranslations()
_loaded: dict[str, _gettext.NullTranslations] = {"en": _NULL}
_current = "en"
_t: _gettext.NullTranslations = _NULL


def locale_name(language: str) -> str:
    """The gettext locale directory of a language tag: ``"zh-CN"`` -> ``"zh_CN"``."""
    return language.replace("-", "_")


def _canonical(language: str) -> str:
    """The tag of :data:`LANGUAGES` that ``language`` names (case and ``_``/``-`` do not matter)."""
    if isinstance(language, str):
        wanted = language.strip().replace("_", "-").lower()
        for known in LANGUAGES:
            if known.lower() == wanted:
                return known
    raise ValueError(_("unknown language {language!r}: choose one of {languages}").format(
        language=language, languages=join_list(LANGUAGES)))


def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (loaded once; English is the identity)."""
    language = _canonical(language)
    found = _loaded.get(language)
    if found is None:
        path = LOCALE_DIR / locale_name(language) / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            with open(path, "rb") as fh:
                found = _gettext.GNUTranslations(fh)
        except OSError as exc:
            raise RuntimeError(f"the {language} catalog is missing ({path}): the package was built without "
                               "its compiled catalogs; run `python tools/i18n.py compile`") from exc
        _loaded[language] = found
    return found


def set_language(language: str) -> str:
    """Choose the language of everything shown from now on; returns its tag.

    ``language`` is one of :data:`LANGUAGES` (``"zh_CN"`` or ``"ZH-cn"`` are accepted too).
    Raises ``ValueError`` naming the known languages for an unknown one.
    """
    global _current, _t
    language = _canonical(language)
    _t = translations(language)
    _current = language
    return _current


def get_language() -> str:
    """The language chosen with :func:`set_language` (``"en"`` by default)."""
    return _current


def use_translations(catalog: _gettext.NullTranslations, name: str) -> tuple[_gettext.NullTranslations, str]:
    """Speak through ``catalog`` (e.g. a test's pseudo-locale); returns what to pass back to restore.

    ``use_translations(*previous)`` restores the language that was current before.
    """
    global _current, _t
    previous = (_current, _t)
    _t, _current = catalog, name
    return previous[1], previous[0]


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _t.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it with ``_()`` when it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction only; show it with ``ngettext(*pair, n)``."""
    return singular, plural


def Np_(context: str, message: str) -> str:
    """Mark ``message`` with its context for extraction only; show it with ``pgettext(context, message)``.

    For module-level constants whose English word needs other words elsewhere ("created" as a
    table column is a time, as a legend a count)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` (Russian has three)."""
    return _t.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` where the same English needs different words in another context."""
    return _t.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return _t.npgettext(context, singular, plural, n)


# ------------------------------------------------------------------ joining pieces of a sentence


def join_list(items: Iterable[str]) -> str:
    """Items of a list in a sentence, joined as the language does: ``3 running, 2 succeeded`` in
    English, ``3 个运行中、2 个成功`` in Chinese (the separator is a catalog message)."""
    # TRANSLATORS: joins the items of a list inside a sentence ("3 running, 2 succeeded", pod names,
    # batch sizes "1, 2, 2"); keep the space if your language puts one after the mark.
    return pgettext("list separator", ", ").join(items)


def join_clauses(clauses: Iterable[str]) -> str:
    """Clauses of one sentence (a view's subtitle), joined with the language's semicolon."""
    # TRANSLATORS: joins the clauses of a view's subtitle ("5 pods: 5 succeeded; ticks at the top mark
    # reconcile cycles"); keep the space if your language puts one after the mark.
    return pgettext("clause separator", "; ").join(clauses)


def join_sentences(sentences: Iterable[str], end: bool = False) -> str:
    """Sentences (each without its final stop) joined with the language's full stop and space;
    ``end=True`` ends the last one with the stop too (``... 3. 1 of 3 in the right place.``,
    Chinese ``…… 3。3 项中有 1 项位置正确。``)."""
    # TRANSLATORS: ends one sentence and starts the next ("2 pods deleted from the top. The cut: ...").
    stop = pgettext("sentence separator", ". ")
    text = stop.join(sentences)
    # The stop without its trailing space ends a paragraph: "." in English, "。" in Chinese.
    return text + stop.rstrip() if end else text


def close_gaps(text: str) -> str:
    """``text`` without a lone space between two wide (Chinese) characters or marks.

    A template leaves a space around a placeholder for a number or a Latin value (``运行结果是 3``,
    a space between Chinese and digits as kubernetes.io/zh-cn writes it); when the value is Chinese
    itself (an exercise's choice label) the space must go: ``运行结果是它会被删除``. Only a single
    space between two wide characters is removed: two or more are a text table's column padding,
    and English or Russian text has no wide characters, so it comes back unchanged.
    """
    if text.isascii() or " " not in text:
        return text
    out = []
    last = len(text) - 1
    for i, ch in enumerate(text):
        if (ch == " " and 0 < i < last and text[i - 1] != " " and text[i + 1] != " "
                and is_wide(text[i - 1]) and is_wide(text[i + 1])):
            continue
        out.append(ch)
    return "".join(out)


def is_wide(ch: str) -> bool:
    """Whether ``ch`` is an East Asian wide or fullwidth character (Chinese, ``，：（）``): two
    columns in a monospace font, one em in a proportional one, and no spaces around it in Chinese."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


# ------------------------------------------------------------------ width of text in a monospace font


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font (a terminal, a ``<pre>`` twin, a golden file).

    East Asian wide and fullwidth characters (Chinese, ``，：（）``) take two columns, combining
    marks none, everything else one: ``len()`` would count ``周期`` as 2 where it takes 4.
    Fixed-width tables pad with this (:func:`ljust`, :func:`rjust`) so a translated column
    lines up with its numbers.
    """
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if is_wide(ch) else 1
    return width


def ljust(text: str, width: int) -> str:
    """``text`` padded with spaces on the right to ``width`` display columns (see :func:`display_width`)."""
    return text + " " * max(0, width - display_width(text))


def rjust(text: str, width: int) -> str:
    """``text`` padded with spaces on the left to ``width`` display columns (see :func:`display_width`)."""
    return " " * max(0, width - display_width(text)) + text


_NO_BREAK_BEFORE = frozenset("，。、；：？！）》」』”’…·,.;:!?)]}%")
"""Characters a line should not start with (closing punctuation), in the style of CJK line breaking."""
_NO_BREAK_AFTER = frozenset("（《「『“‘([{")
"""Characters a line should not end with (opening punctuation)."""


def wrap_width(text: str, width: float, measure: Callable[[str], float] = display_width) -> list[str]:
    """Greedy wrap into lines of at most ``width`` display columns; longer Latin words stay whole.

    Latin text breaks at spaces as usual; text with wide (Chinese) characters, which has no
    spaces between words, may also break between two characters, but never before closing
    punctuation such as ``，`` or ``）``. ``measure`` gives the width of a piece of text in
    the unit of ``width`` (display columns by default; a figure passes pixels).
    """
    lines: list[str] = []
    cur, cur_w = "", 0.0
    space = measure(" ")
    for piece in _break_pieces(text):
        w = measure(piece)
        if piece == " ":
            if cur:
                cur, cur_w = cur + " ", cur_w + space
            continue
        if cur.strip() and cur_w + w > width:
            lines.append(cur.rstrip())
            cur, cur_w = piece, w
        else:
            cur, cur_w = cur + piece, cur_w + w
    if cur.strip():
        lines.append(cur.rstrip())
    return lines


def _break_pieces(text: str) -> list[str]:
    """``text`` cut where a line may break: spaces (kept as pieces), and after each wide character
    unless closing punctuation follows (which stays glued to what it closes)."""
    pieces: list[str] = []
    cur = ""
    for ch in text:
        if ch == " ":
            if cur:
                pieces.append(cur)
            pieces.append(" ")
            cur = ""
            continue
        prev = cur[-1] if cur else ""
        if not cur or ch in _NO_BREAK_BEFORE or prev in _NO_BREAK_AFTER:
            cur += ch
            continue
        if is_wide(prev) or is_wide(ch):
            pieces.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        pieces.append(cur)
    return pieces


def speech() -> tuple[str, _gettext.NullTranslations]:
    """The language in force and its catalog (what :func:`speaking` takes back later)."""
    return _current, _t


@contextlib.contextmanager
def speaking(saved: tuple[str, _gettext.NullTranslations]) -> Iterator[str]:
    """Speak a :func:`speech` taken earlier inside the block, then the language before it again (what a
    dashboard built in one language uses, so a later :func:`set_language` elsewhere does not change it)."""
    previous = (_current, _t)
    _restore((saved[0], saved[1]))
    try:
        yield saved[0]
    finally:
        _restore(previous)


def _restore(previous: tuple[str, _gettext.NullTranslations]) -> None:
    global _current, _t
    _current, _t = previous


def _from_environment() -> None:
    value = os.environ.get(ENV_VAR, "").strip()
    if value:
        try:
            set_language(value)
        except ValueError as exc:
            # A bad setting must not make `import k8sjobs` fail: say so once and speak English.
            warnings.warn(f"{ENV_VAR}={value}: {exc}; using English", stacklevel=2)


_from_environment()
