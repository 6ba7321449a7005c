"""Languages: every learner-visible word goes through gettext-style calls.

This is the bottom layer (beside ``clock``, ``ids`` and ``hooks``), so any layer may mark its
words with ``_()``, ``ngettext()``, ``pgettext()``, ``npgettext()`` or, for module-level
constants translated when shown, ``N_()``.

Stage 1 (this file as first committed): the calls and :func:`set_language` exist and speak
English only, so code written now is already marked. The message catalogs (Babel, issue 13)
replace the bodies without changing the calls.
"""

from __future__ import annotations

LANGUAGES = ("en", "zh-CN", "zh-TW", "ru")
"""The languages the course speaks, as BCP 47 tags (the gettext locale is ``zh_CN``, ...)."""

_current = "en"


def set_language(language: str) -> str:
    """Choose the language of everything shown from now on; returns it.

    Raises ``ValueError`` naming the known languages for an unknown one.
    """
    global _current
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _current = language
    return _current


def get_language() -> str:
    """The language chosen with :func:`set_language` (``"en"`` by default)."""
    return _current


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return message


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it with ``_()`` when it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` (Russian has three)."""
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` where the same English needs different words in another context."""
    return message


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return singular if n == 1 else plural
