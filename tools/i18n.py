"""The message catalogs: extract, update, compile, check, and make zh-TW from zh-CN.

    .venv/bin/python tools/i18n.py extract    # k8sjobs/**/*.py -> k8sjobs/locale/k8sjobs.pot
    .venv/bin/python tools/i18n.py update     # extract, then merge the .pot into every .po
    .venv/bin/python tools/i18n.py zh-tw      # zh_CN .po -> zh_TW .po (OpenCC s2twp + tools/zh_tw_overrides.tsv)
    .venv/bin/python tools/i18n.py compile    # every .po -> .mo (what the package reads)
    .venv/bin/python tools/i18n.py all        # update, zh-tw, compile: after marking or translating
    .venv/bin/python tools/i18n.py check      # exit 1 if a file above is stale, a message untranslated or
                                              # fuzzy, or a placeholder differs
    .venv/bin/python tools/i18n.py stats      # messages, plurals, contexts; translated/untranslated/fuzzy
                                              # per language

Babel does the work (extraction with the keywords below and ``# TRANSLATORS:`` comments,
merging, compiling); this tool only fixes the choices so the files are deterministic: no
line numbers in locations (a shifted line does not make the catalogs stale), a fixed
creation date, no obsolete entries. ``check`` rebuilds everything in memory and compares it
with the files, which is what tests/i18n/test_catalogs.py runs too.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import io
import re
import string
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "k8sjobs"
LOCALE = PACKAGE / "locale"
POT = LOCALE / "k8sjobs.pot"
DOMAIN = "k8sjobs"
LOCALES = ("zh_CN", "zh_TW", "ru")
TRANSLATED_BY_HAND = ("zh_CN", "ru")
"""zh_TW is generated from zh_CN (see :func:`make_zh_tw`)."""
OVERRIDES = ROOT / "tools" / "zh_tw_overrides.tsv"
KEYWORDS = {
    "_": None,
    "N_": None,
    "Nn_": (1, 2),
    "Np_": ((1, "c"), 2),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
COMMENT_TAGS = ("TRANSLATORS:",)
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
"""POT-Creation-Date and PO-Revision-Date: fixed, so a catalog changes only when its messages do."""
WIDTH = 100


# ---------------------------------------------------------------------------------------- building


def extract() -> Catalog:
    """The template: every marked message of the package, in file order."""
    cat = Catalog(project="k8sjobs", version="0.1", copyright_holder="the k8sjobs authors",
                  msgid_bugs_address="", creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False,
                  charset="utf-8")
    found = extract_from_dir(str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS,
                             comment_tags=COMMENT_TAGS, strip_comment_tags=True)
    for filename, lineno, message, comments, context in sorted(found, key=lambda m: (m[0], m[1])):
        path = f"k8sjobs/{filename}"
        cat.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return cat


def _render_po(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=WIDTH, ignore_obsolete=True, include_previous=False, include_lineno=False)
    return buf.getvalue()


def _render_mo(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, compiled(cat), use_fuzzy=False)
    return buf.getvalue()


def compiled(cat: Catalog) -> Catalog:
    """What goes into the ``.mo``: ``cat`` without its plural messages that lack a form.

    Babel writes an untranslated plural form as the English singular (form 0) or plural (the
    others): in a language with one form (Chinese) every count then read "deleting all 2
    active pod", and in Russian "21 pods" took the singular. Left out of the ``.mo``, the
    message falls back to gettext's own English choice (singular for 1, plural otherwise).
    """
    out = copy.deepcopy(cat)
    for m in out:
        if m.id and m.pluralizable and not all(m.string):
            m.flags.add("fuzzy")  # write_mo(use_fuzzy=False) leaves fuzzy messages out
    return out


def _read(path: Path, locale: str | None = None) -> Catalog:
    with open(path, "rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


def po_path(locale: str) -> Path:
    """``k8sjobs/locale/<locale>/LC_MESSAGES/k8sjobs.po``."""
    return LOCALE / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(locale: str) -> Path:
    """The compiled catalog next to the .po."""
    return po_path(locale).with_suffix(".mo")


def merged(locale: str, template: Catalog, existing: Catalog | None) -> Catalog:
    """``existing`` (or a new catalog) brought up to ``template``: new messages empty, gone ones dropped."""
    if existing is None:
        existing = Catalog(locale=locale, domain=DOMAIN, project="k8sjobs", version="0.1",
                           copyright_holder="the k8sjobs authors", creation_date=FIXED_DATE,
                           revision_date=FIXED_DATE, fuzzy=False, charset="utf-8")
    existing.update(template, update_header_comment=False, update_creation_date=False)
    for m in existing:
        if not m.id:
            continue
        # Flags come from the template (python-brace-format, ...); "fuzzy" stays only on a message
        # that has a suggested translation to review (a fuzzy match with nothing in it is noise).
        has_text = any(m.string) if isinstance(m.string, (list, tuple)) else bool(m.string)
        fuzzy = m.fuzzy and has_text
        source = template.get(m.id, context=m.context)
        m.flags = (set(source.flags) if source is not None else set()) - {"fuzzy"}
        if fuzzy:
            m.flags.add("fuzzy")
    existing.creation_date = FIXED_DATE
    existing.revision_date = FIXED_DATE
    existing.fuzzy = False
    existing.obsolete.clear()
    return existing


def load_overrides(path: Path = OVERRIDES) -> list[tuple[str, str]]:
    """``(OpenCC output, Taiwan usage)`` pairs: one pair per line, tab-separated, ``#`` comments."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        src, _tab, dst = line.partition("\t")
        if not dst:
            raise ValueError(f"{path}: a line needs two tab-separated fields: {line!r}")
        pairs.append((src, dst.split("\t")[0]))
    return pairs


def to_taiwan(text: str, converter, overrides: list[tuple[str, str]]) -> str:
    """zh-CN text -> zh-TW: OpenCC ``s2twp`` (Taiwan phrases), then the reviewed overrides, in order.

    An override whose first field starts with ``re:`` is a regular expression (for a word that must
    not change inside a longer one: ``re:(?<!索)引數`` leaves 索引數 alone).
    """
    out = converter.convert(text)
    for src, dst in overrides:
        out = re.sub(src[3:], dst, out) if src.startswith("re:") else out.replace(src, dst)
    return out


def make_zh_tw(zh_cn: Catalog) -> Catalog:
    """The zh_TW catalog: every zh_CN message with its translation converted (fuzzy flags kept)."""
    import opencc

    conv = opencc.OpenCC("s2twp")
    overrides = load_overrides()
    tw = Catalog(locale="zh_TW", domain=DOMAIN, project="k8sjobs", version="0.1",
                 copyright_holder="the k8sjobs authors", creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                 fuzzy=False, charset="utf-8")
    for m in zh_cn:
        if not m.id:
            continue
        if isinstance(m.string, (list, tuple)):
            s = tuple(to_taiwan(x, conv, overrides) if x else "" for x in m.string)
            # zh has one plural form; keep the count Babel expects for zh_TW.
            s = (s + ("",) * tw.num_plurals)[: max(tw.num_plurals, 1)]
        else:
            s = to_taiwan(m.string, conv, overrides) if m.string else ""
        tw[m.id] = Message(m.id, s, locations=m.locations, flags=m.flags, auto_comments=m.auto_comments,
                           user_comments=m.user_comments, context=m.context)
    return tw


def expected_files() -> dict[Path, bytes]:
    """Every generated file as it should be, built in memory from the sources and the .po files."""
    template = extract()
    out: dict[Path, bytes] = {POT: _render_po(template)}
    catalogs: dict[str, Catalog] = {}
    for loc in TRANSLATED_BY_HAND:
        path = po_path(loc)
        cat = merged(loc, template, _read(path, loc) if path.exists() else None)
        catalogs[loc] = cat
    catalogs["zh_TW"] = make_zh_tw(catalogs["zh_CN"])
    for loc in LOCALES:
        po = _render_po(catalogs[loc])
        out[po_path(loc)] = po
        out[mo_path(loc)] = _render_mo(read_po(io.BytesIO(po), locale=loc, domain=DOMAIN))
    return out


# ---------------------------------------------------------------------------------------- checks


def placeholders(text: str) -> list[str]:
    """The ``{name:spec!conv}`` fields of a brace-format message, sorted (literal ``{{`` excluded)."""
    try:
        return sorted(f"{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
                      for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None)
    except ValueError as exc:
        return [f"<unparsable: {exc}>"]


def format_problems(cat: Catalog) -> list[str]:
    """Babel's own checks plus ours: every translated form has exactly the source's placeholders."""
    problems = []
    for msg, errors in cat.check():
        for err in errors:
            problems.append(f"{cat.locale}: {msg.id!r}: {err}")
    for m in cat:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else (m.id,)
        want = placeholders(ids[-1])
        if len(ids) > 1 and placeholders(ids[0]) != want:
            # A singular may drop the count ("one pod"), never add a field.
            want_any = set(want) | set(placeholders(ids[0]))
        else:
            want_any = set(want)
        forms = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
        for form in forms:
            if not form:
                continue
            got = placeholders(form)
            if set(got) - want_any or (len(ids) == 1 and got != want):
                problems.append(f"{cat.locale}: {ids[0]!r}: placeholders {got} differ from {want}")
    return problems


def incomplete(cat: Catalog) -> list[str]:
    """Every message of ``cat`` a learner would read in English or unchecked: untranslated (a
    plural with any form missing counts), or fuzzy (a suggestion nobody has confirmed)."""
    problems = []
    loc = cat.locale
    name = "_".join(x for x in (loc.language, loc.territory) if x) if loc is not None else "?"
    for m in cat:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
        first = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        where = f"{name}: {first!r}" + (f" (context {m.context!r})" if m.context else "")
        if not all(forms):
            problems.append(f"{where}: untranslated" + (
                f" ({sum(1 for f in forms if not f)} of {len(forms)} forms missing)" if len(forms) > 1 and any(forms)
                else ""))
        elif m.fuzzy:
            problems.append(f"{where}: fuzzy (check the suggestion, then remove the flag)")
    return problems


def stale(expected: dict[Path, bytes] | None = None) -> list[Path]:
    """Generated files whose content differs from what the sources make (missing ones included)."""
    expected = expected_files() if expected is None else expected
    return [p for p, data in expected.items() if not p.exists() or p.read_bytes() != data]


def stats(cat: Catalog) -> dict[str, int]:
    """Counts of one catalog: messages, plural ones, ones with a context, translated, fuzzy."""
    msgs = [m for m in cat if m.id]
    return {
        "messages": len(msgs),
        "plurals": sum(1 for m in msgs if m.pluralizable),
        "contexts": sum(1 for m in msgs if m.context),
        "translated": sum(1 for m in msgs if m.string and (not isinstance(m.string, (list, tuple)) or all(m.string))),
        "fuzzy": sum(1 for m in msgs if m.fuzzy),
        "untranslated": sum(1 for m in msgs if not m.string or (isinstance(m.string, (list, tuple))
                                                                and not all(m.string))),
    }


def by_file(cat: Catalog) -> dict[str, int]:
    """How many messages each source file contributes (a message in two files counts in both)."""
    counts: dict[str, int] = {}
    for m in cat:
        if m.id:
            for f in sorted({loc[0] for loc in m.locations}):
                counts[f] = counts.get(f, 0) + 1
    return dict(sorted(counts.items()))


# ---------------------------------------------------------------------------------------- pseudo-locale

PSEUDO_OPEN, PSEUDO_CLOSE = "\u27e6", "\u27e7"
_ACCENTS = str.maketrans("aceinousyACEINOUSY", "áçéíñóüšýÁÇÉÍÑÓÜŠÝ")


def pseudo(text: str) -> str:
    """``⟦…⟧`` around ``text`` with its letters accented; placeholders and HTML tags kept."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "{" and text.startswith("{{", i):
            out.append("{{")
            i += 2
        elif ch == "{":
            j = text.index("}", i)
            out.append(text[i:j + 1])
            i = j + 1
        elif ch == "<":
            j = text.find(">", i)
            j = len(text) - 1 if j < 0 else j
            out.append(text[i:j + 1])
            i = j + 1
        elif ch == "&":
            j = text.find(";", i)
            if 0 < j - i < 8:
                out.append(text[i:j + 1])
                i = j + 1
            else:
                out.append(ch)
                i += 1
        else:
            out.append(ch.translate(_ACCENTS))
            i += 1
    # Leading/trailing whitespace and newlines stay outside the markers (layouts depend on them).
    body = "".join(out)
    core = body.strip()
    if not core:
        return body
    lead = body[: len(body) - len(body.lstrip())]
    trail = body[len(body.rstrip()):]
    return f"{lead}{PSEUDO_OPEN}{core}{PSEUDO_CLOSE}{trail}"


def pseudo_translations(template: Catalog | None = None):
    """A gettext translations object that answers every message of the template in pseudo form."""
    import gettext

    template = extract() if template is None else template
    single: dict[tuple[str | None, str], str] = {}
    plural: dict[tuple[str | None, str], tuple[str, str]] = {}
    for m in template:
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            plural[(m.context, m.id[0])] = (pseudo(m.id[0]), pseudo(m.id[1]))
        else:
            single[(m.context, m.id)] = pseudo(m.id)

    class Pseudo(gettext.NullTranslations):
        """Every known message wrapped and accented; unknown ones come back unchanged (and are caught)."""

        def gettext(self, message):
            return single.get((None, message), message)

        def ngettext(self, msgid1, msgid2, n):
            forms = plural.get((None, msgid1))
            return (msgid1 if n == 1 else msgid2) if forms is None else forms[0 if n == 1 else 1]

        def pgettext(self, context, message):
            return single.get((context, message), message)

        def npgettext(self, context, msgid1, msgid2, n):
            forms = plural.get((context, msgid1))
            return (msgid1 if n == 1 else msgid2) if forms is None else forms[0 if n == 1 else 1]

    return Pseudo()


# ---------------------------------------------------------------------------------------- commands


def _write(files: dict[Path, bytes], only: Iterable[Path]) -> None:
    for path in only:
        data = files[path]
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="tools/i18n.py", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("extract", "update", "zh-tw", "compile", "all", "check", "stats"))
    args = ap.parse_args(argv)
    files = expected_files()
    pos = [po_path(loc) for loc in LOCALES]
    mos = [mo_path(loc) for loc in LOCALES]
    if args.command == "extract":
        _write(files, [POT])
    elif args.command == "update":
        _write(files, [POT, *(po_path(loc) for loc in TRANSLATED_BY_HAND)])
    elif args.command == "zh-tw":
        _write(files, [po_path("zh_TW")])
    elif args.command == "compile":
        _write(files, mos)
    elif args.command == "all":
        _write(files, [POT, *pos, *mos])
    elif args.command == "stats":
        template = extract()
        print("template:", stats(template))
        for loc in LOCALES:
            print(f"{loc}:", stats(_read(po_path(loc), loc)))
        for f, n in by_file(template).items():
            print(f"{n:5}  {f}")
    else:
        problems = [f"stale: {p.relative_to(ROOT)} (run: .venv/bin/python tools/i18n.py all)" for p in stale(files)]
        for loc in LOCALES:
            cat = read_po(io.BytesIO(files[po_path(loc)]), locale=loc, domain=DOMAIN)
            problems += format_problems(cat) + incomplete(cat)
        for line in problems:
            print(line, file=sys.stderr)
        if problems:
            return 1
        print("catalogs up to date and complete; placeholders match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
