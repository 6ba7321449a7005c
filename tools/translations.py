"""Translated lessons: parity with the English, staleness, and zh-TW made from zh-CN.

    .venv/bin/python tools/translations.py status                 # every translation: ok / stale / problems
    .venv/bin/python tools/translations.py check FILE...          # the parity problems of these translations
    .venv/bin/python tools/translations.py start ru 07-failures-and-backoff   # a new translation to fill in
    .venv/bin/python tools/translations.py diff FILE              # what changed in the English since FILE's hash
    .venv/bin/python tools/translations.py rehash FILE...         # record the current English hash in FILE
    .venv/bin/python tools/translations.py zh-tw [FILE...]        # write notebooks/.src/zh-TW/*.md from zh-CN

A translation ``notebooks/.src/<lang>/NN-slug.md`` is the English ``notebooks/.src/en/NN-slug.md`` in
another language: the same concepts, the same cells, the same exercises (ids, kinds, choice
keys, answers), the same code once string literals and comments are set aside, and the SHA-256
of the English file it was translated from (``k8sjobs.source_sha256``), so a change of the
English makes the translation stale until a translator carries the change over
(:func:`parity_problems`, run by tests/test_translations.py).

``notebooks/.src/zh-TW/`` is generated from ``notebooks/.src/zh-CN/`` (:func:`zh_tw_lesson`) with the
converter the message catalogs use (tools/i18n.py: OpenCC ``s2twp`` plus the reviewed overrides
of tools/zh_tw_overrides.tsv); tools/build_lessons.py writes and checks it.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import io
import keyword
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import jupytext
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / ".src"
"""The lessons' Markdown sources, ``notebooks/.src/<lang>/NN-x.md`` (tools/build_lessons.py builds
``notebooks/<lang>/NN-x.ipynb`` from each)."""
EN = SOURCES / "en"
LANGUAGES = ("zh-CN", "zh-TW", "ru")
"""Every language a lesson is translated into, besides English."""
BY_HAND = ("zh-CN", "ru")
"""Translated by hand from the English."""
GENERATED = {"zh-TW": "zh-CN"}
"""Generated languages and the language each is generated from."""
LESSON = re.compile(r"\d\d-[a-z0-9-]+\.md")

# A string a translation changed must be in the translation's script (or it was not translated,
# only altered): CJK ideographs and punctuation, full-width forms; Cyrillic and Russian quotes.
SCRIPT = {
    "zh-CN": re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"),
    "ru": re.compile(r"[\u0400-\u04ff«»„“”—]"),
}
SCRIPT["zh-TW"] = SCRIPT["zh-CN"]


def rel(path: Path) -> str:
    """``path`` relative to the repository (as the messages name files)."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def sha256_bytes(data: bytes) -> str:
    """SHA-256 of ``data``, in hex."""
    return hashlib.sha256(data).hexdigest()


def sha256(path: Path) -> str:
    """SHA-256 of a file's bytes (what ``sha256sum`` prints)."""
    return sha256_bytes(path.read_bytes())


def front_matter(text: str) -> dict:
    """The YAML front matter of a MyST lesson (``{}`` when there is none)."""
    m = re.match(r"---\n(.*?\n)---\n", text, re.S)
    return (yaml.safe_load(m.group(1)) or {}) if m else {}


def translations(languages: tuple[str, ...] = LANGUAGES) -> list[Path]:
    """Every translated lesson source under notebooks/.src/<language>/."""
    return sorted(p for lang in languages for p in (SOURCES / lang).glob("[0-9][0-9]-*.md"))


def english_of(path: Path) -> Path:
    """The English lesson a translated lesson is the twin of (same file name)."""
    return EN / path.name


def language_of(path: Path) -> str:
    """The language of a lesson file: the name of its directory (notebooks/.src/<language>/, notebooks/<language>/)."""
    return path.parent.name


# ----------------------------------------------------------------------------- code, set aside strings


@dataclass
class Item:
    """One token of a code cell as the parity check compares it; strings come as groups."""

    kind: str
    text: str
    line: int
    strings: list[str] = field(default_factory=list)
    """For kind "STR": the adjacent string literals (implicit concatenation) of the group."""
    call: str = ""
    """For kind "STR": the name called just before it, e.g. ``set_language`` in ``set_language("en")``."""


NBVAL_MARK = re.compile(r"#\s*NBVAL_\w+")


def code_items(code: str) -> list[Item]:
    """The tokens of ``code`` with comments dropped, string literals grouped, parentheses that only
    wrap a string dropped (so a translation may split a long string over lines).

    nbval markers (``# NBVAL_CHECK_OUTPUT``) are comments that matter: they stay as tokens.
    Raises ``SyntaxError`` when the code cannot be tokenized.
    """
    items: list[Item] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError) as exc:
        raise SyntaxError(str(exc)) from exc
    for tok in tokens:
        line = tok.start[0]
        if tok.type == tokenize.COMMENT:
            mark = NBVAL_MARK.match(tok.string)
            if mark:
                items.append(Item("MARK", mark.group(0).replace(" ", ""), line))
            continue
        if tok.type in (tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER):
            continue
        if tok.type == tokenize.STRING:
            if items and items[-1].kind == "STR":
                items[-1].strings.append(tok.string)
            else:
                before = items[-2].text if len(items) >= 2 and items[-1].text == "(" else ""
                items.append(Item("STR", "<string>", line, [tok.string], call=before))
            continue
        if tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            items.append(Item(tokenize.tok_name[tok.type], "", line))
            continue
        items.append(Item(tokenize.tok_name[tok.type], tok.string, line))
    # "( <string> )" that is not a call or subscript: the parentheses only wrap the string.
    out: list[Item] = []
    i = 0
    while i < len(items):
        it = items[i]
        if (it.text == "(" and i + 2 < len(items) and items[i + 1].kind == "STR" and items[i + 2].text == ")"
                and not _calls_or_subscripts(out[-1] if out else None)):
            out.append(items[i + 1])
            i += 3
            continue
        out.append(it)
        i += 1
    return out


def _calls_or_subscripts(prev: Item | None) -> bool:
    if prev is None:
        return False
    if prev.kind == "NAME":
        return not keyword.iskeyword(prev.text)
    return prev.kind == "STR" or prev.text in (")", "]")


@dataclass
class StringValue:
    """What a group of adjacent string literals says: its text, its embedded f-string expressions
    (their string constants that are words replaced by ``<string>``) and those words."""

    text: str
    expressions: list[str]
    words: list[str] = field(default_factory=list)
    """The string constants inside the ``{...}`` fields that are words, not keys (``'yes'`` and
    ``'no'`` in ``{'yes' if ready else 'no':<6}``, ``'POD'`` in ``{'POD':<13}``), in the order of
    :attr:`expressions`: a translation translates them or keeps them, as any other string."""


WORD = "<string>"
"""What a string constant that is words becomes in an f-string field's code."""


def field_code(value: ast.expr) -> tuple[str, list[str]]:
    """An f-string field's expression as code, with each string constant that is words set aside:
    ``('<string> if ready else <string>', ['yes', 'no'])``.

    A string constant is code, not words, where it picks something: a subscript (``p['name']``), a
    call's argument (``c.find('status.write')``), a part of a nested f-string; anywhere else (a
    branch of ``if``/``else``, an ``or`` default, the whole field, the receiver of ``', '.join``) a
    reader sees it, so it is words.
    """
    tree = ast.parse(ast.unparse(value), mode="eval")  # a copy the transformer may change
    code_ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            code_ids.add(id(node.slice))
        elif isinstance(node, ast.Call):
            code_ids.update(id(a) for a in node.args)
            code_ids.update(id(k.value) for k in node.keywords)
        elif isinstance(node, ast.JoinedStr):
            code_ids.update(id(v) for v in node.values)
    words: list[str] = []

    class SetWordsAside(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.AST:
            if isinstance(node.value, str) and id(node) not in code_ids:
                words.append(node.value)
                return ast.Name(id=WORD, ctx=ast.Load())
            return node

    return ast.unparse(SetWordsAside().visit(tree)), words


def string_value(literals: list[str]) -> StringValue:
    """The value of adjacent literals: constant parts as text, ``{expr}`` of f-strings kept apart
    (see :func:`field_code` for the words inside them)."""
    text, fields = [], []
    for lit in literals:
        node = ast.parse(lit, mode="eval").body
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant):
                    text.append(str(part.value))
                else:
                    spec = ast.unparse(part.format_spec) if part.format_spec else ""
                    code, words = field_code(part.value)
                    fields.append((f"{code}!{part.conversion}:{spec}", words))
                    text.append("{}")
        else:
            value = node.value
            text.append(value.decode("latin-1") if isinstance(value, bytes) else str(value))
    # sorted: a translation may put the fields in another order (Chinese and Russian word order)
    fields.sort(key=lambda f: f[0])
    return StringValue("".join(text), [f[0] for f in fields], [w for f in fields for w in f[1]])


# ----------------------------------------------------------------------------- exercises


def _literal(node: ast.AST | None):
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return ast.unparse(node)


def exercises(codes: list[str]) -> list[dict]:
    """Every ``Exercise(...)`` built in the cells ``codes``, in order: what a translation must keep.

    ``id`` (the variable), ``kind``, the choice ``keys`` (a dict literal's keys, or the keys of the
    dict literal a name was bound to, or the code of any other expression), the ``answer`` as code
    (``ast.unparse``: strings included), and every other argument but the prompt and the
    explanation (``run``, ``tolerance``, ``view``, ...), as code.
    """
    trees = []
    for code in codes:
        try:
            trees.append(ast.parse(code))
        except SyntaxError:
            continue
    dicts: dict[str, list] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        dicts[target.id] = [_literal(k) for k in node.value.keys]
    found = []
    for tree in trees:
        names = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                names[id(node.value)] = ",".join(t.id for t in node.targets if isinstance(t, ast.Name))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Exercise"):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            choices = kw.get("choices")
            if isinstance(choices, ast.Dict):
                keys = [_literal(k) for k in choices.keys]
            elif isinstance(choices, ast.Name) and choices.id in dicts:
                keys = dicts[choices.id]
            else:
                keys = _literal(choices)
            others = {k: ast.unparse(v) for k, v in sorted(kw.items())
                      if k not in ("prompt", "explanation", "kind", "choices", "answer")}
            found.append({
                "id": names.get(id(node), f"<unnamed, line {node.lineno}>"),
                "kind": _literal(kw.get("kind")),
                "keys": keys,
                "answer": ast.unparse(kw["answer"]) if "answer" in kw else None,
                "arguments": others,
                "positional": len(node.args),
            })
    return found


def confirmations(codes: list[str]) -> list[str]:
    """Every ``x.confirm(...)`` call, as code (``ex_one.confirm(3)``), in order."""
    out = []
    for code in codes:
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        out += [ast.unparse(n) for n in ast.walk(tree)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "confirm"]
    return out


# ----------------------------------------------------------------------------- parity


def _cells(text: str) -> list[dict]:
    nb = jupytext.reads(text, fmt="md:myst")
    return [{"type": c.cell_type, "source": c.source, "tags": list(c.metadata.get("tags", []))} for c in nb.cells]


FENCE = re.compile(r"^(```+|~~~+)([^\n`]*)\n(.*?)^\1[ \t]*$", re.M | re.S)


def fenced_blocks(markdown: str) -> list[tuple[str, list[str]]]:
    """The fenced code blocks of markdown prose (kubectl commands and output, YAML): language and
    lines, with ``#`` comments (which a translation may translate) and blank lines set aside."""
    out = []
    for m in FENCE.finditer(markdown):
        lines = []
        for line in m.group(3).splitlines():
            line = re.sub(r"(^|\s)#.*$", "", line)      # a comment: translated
            line = re.sub(r"<[^<>\n]*>", "<…>", line).rstrip()  # a placeholder such as <evicted pod>: translated
            if line.strip():
                lines.append(line)
        out.append((m.group(2).strip(), lines))
    return out


def _where(cell_no: int, line: int) -> str:
    return f"code cell {cell_no} (line {line} of the cell)"


def _code_problems(n: int, en_code: str, tr_code: str, language: str) -> list[str]:
    try:
        en_items, tr_items = code_items(en_code), code_items(tr_code)
    except SyntaxError as exc:
        return [f"code cell {n}: cannot be tokenized: {exc}"]
    en_keys = [(i.kind, i.text) for i in en_items]
    tr_keys = [(i.kind, i.text) for i in tr_items]
    if en_keys != tr_keys:
        sm = difflib.SequenceMatcher(a=en_keys, b=tr_keys, autojunk=False)
        op = next(o for o in sm.get_opcodes() if o[0] != "equal")
        _tag, a0, a1, b0, b1 = op
        line = tr_items[min(b0, len(tr_items) - 1)].line if tr_items else 0
        en_text = " ".join(t or k for k, t in en_keys[a0:a1]) or "(nothing)"
        tr_text = " ".join(t or k for k, t in tr_keys[b0:b1]) or "(nothing)"
        return [f"{_where(n, line)}: the code differs from the English once strings and comments are set "
                f"aside: the English has {en_text!r} where the translation has {tr_text!r}"]
    problems = []
    for en, tr in zip((i for i in en_items if i.kind == "STR"), (i for i in tr_items if i.kind == "STR")):
        try:
            a, b = string_value(en.strings), string_value(tr.strings)
        except SyntaxError as exc:
            problems.append(f"{_where(n, tr.line)}: a string literal does not parse: {exc}")
            continue
        if en.call == "set_language":
            if b.text != language:
                problems.append(f'{_where(n, tr.line)}: set_language("{b.text}"): a {language} lesson '
                                f'calls set_language("{language}")')
            continue
        if a.expressions != b.expressions:
            problems.append(f"{_where(n, tr.line)}: the f-string computes {b.expressions}, the English computes "
                            f"{a.expressions}: translate the words around the {{...}} fields, keep the fields")
        if "apiVersion:" in a.text:
            try:
                same = list(yaml.safe_load_all(a.text)) == list(yaml.safe_load_all(b.text))
            except yaml.YAMLError as exc:
                problems.append(f"{_where(n, tr.line)}: the manifest is no longer valid YAML: {exc}")
                continue
            if not same:
                problems.append(f"{_where(n, tr.line)}: the manifest differs from the English (only YAML comments "
                                f"may be translated)")
            continue
        for en_text, tr_text in [(a.text, b.text), *zip(a.words, b.words)]:
            if en_text != tr_text and not SCRIPT[language].search(tr_text):
                problems.append(f"{_where(n, tr.line)}: the string {tr_text[:60]!r} is not the English "
                                f"{en_text[:60]!r} and is not {language} either: a string that is not translated "
                                f"(a key, a rule id, a value, a jsonpath) must stay exactly as the English has it")
    return problems


def parity_problems(en_text: str, tr_text: str, *, language: str, name: str, en_sha256: str) -> list[str]:
    """Everything that keeps ``tr_text`` (a translated lesson) from being the English ``en_text``.

    ``name`` is the file name (``07-failures-and-backoff.md``), ``en_sha256`` the hash of the current
    English file. The staleness problem (a different recorded hash) is reported by itself, first,
    starting with ``stale:`` (see :func:`stale_message` for the full instructions).
    """
    problems: list[str] = []
    en_fm, tr_fm = front_matter(en_text), front_matter(tr_text)
    meta = tr_fm.get("k8sjobs") or {}
    recorded = meta.get("source_sha256")
    if recorded != en_sha256:
        problems.append(f"stale: source_sha256 is {recorded}, the English en/{name} is now {en_sha256}")
    for key in ("jupytext", "kernelspec"):
        if tr_fm.get(key) != en_fm.get(key):
            problems.append(f"front matter: {key} differs from the English lesson")
    if meta.get("language") != language:
        problems.append(f"front matter: k8sjobs.language is {meta.get('language')!r}, not {language!r}")
    if meta.get("source") != f"en/{name}":
        problems.append(f"front matter: k8sjobs.source is {meta.get('source')!r}, not 'en/{name}'")
    en_concepts = (en_fm.get("k8sjobs") or {}).get("concepts")
    if meta.get("concepts") != en_concepts:
        problems.append(f"front matter: concepts {meta.get('concepts')} differ from the English {en_concepts}")
    if language in GENERATED and meta.get("generated_from") != f"{GENERATED[language]}/{name}":
        problems.append(f"front matter: k8sjobs.generated_from is {meta.get('generated_from')!r}, not "
                        f"'{GENERATED[language]}/{name}'")

    en_cells, tr_cells = _cells(en_text), _cells(tr_text)
    en_shape = [c["type"] for c in en_cells]
    tr_shape = [c["type"] for c in tr_cells]
    if en_shape != tr_shape:
        problems.append(f"cells: {tr_shape.count('markdown')} markdown and {tr_shape.count('code')} code cells "
                        f"in the order {''.join(t[0] for t in tr_shape)}, the English has "
                        f"{en_shape.count('markdown')} and {en_shape.count('code')} in the order "
                        f"{''.join(t[0] for t in en_shape)} (m = markdown, c = code; keep every +++ and code cell)")
        return problems
    en_code = [c for c in en_cells if c["type"] == "code"]
    tr_code = [c for c in tr_cells if c["type"] == "code"]
    for n, (a, b) in enumerate(zip(en_code, tr_code)):
        if a["tags"] != b["tags"]:
            problems.append(f"code cell {n}: tags {b['tags']}, the English has {a['tags']}")
        problems += _code_problems(n, a["source"], b["source"], language)

    en_ex = exercises([c["source"] for c in en_code])
    tr_ex = exercises([c["source"] for c in tr_code])
    if [e["id"] for e in en_ex] != [e["id"] for e in tr_ex]:
        problems.append(f"exercises: {[e['id'] for e in tr_ex]}, the English builds {[e['id'] for e in en_ex]}")
    else:
        for a, b in zip(en_ex, tr_ex):
            for key, what in (("kind", "kind"), ("keys", "choice keys"), ("answer", "answer"),
                              ("arguments", "arguments"), ("positional", "positional arguments")):
                if a[key] != b[key]:
                    problems.append(f"exercise {a['id']}: {what} {b[key]!r}, the English has {a[key]!r}")
    en_conf = confirmations([c["source"] for c in en_code])
    tr_conf = confirmations([c["source"] for c in tr_code])
    if en_conf != tr_conf:
        problems.append(f"confirmations: {tr_conf}, the English confirms {en_conf}")

    en_md = [c["source"] for c in en_cells if c["type"] == "markdown"]
    tr_md = [c["source"] for c in tr_cells if c["type"] == "markdown"]
    for n, (a, b) in enumerate(zip(en_md, tr_md)):
        fa, fb = fenced_blocks(a), fenced_blocks(b)
        if fa != fb:
            problems.append(f"markdown cell {n}: its fenced blocks (kubectl commands and output, YAML) differ "
                            f"from the English; only their # comments may be translated")
    return problems


def commit_with(path: Path, digest: str, limit: int = 200, root: Path = ROOT) -> str | None:
    """The newest commit of the git repository ``root`` in which ``path`` had the SHA-256 ``digest``
    (``None``: no such commit among the last ``limit`` that changed it, or no git)."""
    try:
        name = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
    try:
        # --follow: the sources moved (notebooks/<lang>/ -> notebooks/.src/<lang>/); each commit's
        # entry names the file as it was called then
        log = subprocess.run(["git", "-C", str(root), "log", f"-{limit}", "--follow", "--format=%x00%H",
                              "--name-only", "--", name], capture_output=True, text=True, check=True).stdout
        for entry in log.split("\0")[1:]:
            lines = [line for line in entry.splitlines() if line.strip()]
            commit, then = lines[0], lines[1] if len(lines) > 1 else name
            blob = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{then}"], capture_output=True,
                                  check=False)
            if blob.returncode == 0 and sha256_bytes(blob.stdout) == digest:
                return commit
    except (OSError, subprocess.CalledProcessError):
        return None
    return None


def stale_message(path: Path, recorded: str | None) -> str:
    """What a translator does about a translation whose English changed: the commands, exactly."""
    en = english_of(path)
    now = sha256(en)
    lang = language_of(path)
    source = path if lang not in GENERATED else SOURCES / GENERATED[lang] / path.name
    lines = [f"{rel(path)} was translated from another version of {rel(en)} "
             f"(recorded source_sha256 {recorded}; the English file now has {now})."]
    if lang in GENERATED:
        lines.append(f"{rel(path)} is generated: bring {rel(source)} up to date as below; "
                     f"tools/build_lessons.py {rel(source)} then regenerates it.")
    commit = commit_with(en, recorded) if recorded else None
    if commit:
        lines.append(f"What changed in the English since it was translated (commit {commit[:10]}):")
        lines.append(f"    git diff {commit[:10]} HEAD -- {rel(en)}")
        lines.append(f"    .venv/bin/python tools/translations.py diff {rel(source)}")
    else:
        lines.append("The recorded hash matches no commit of the English file; see its history:")
        lines.append(f"    git log -p -- {rel(en)}")
    lines += [
        f"Carry the changes over into {rel(source)}, then record the new hash and rebuild:",
        f"    .venv/bin/python tools/translations.py rehash {rel(source)}    # writes source_sha256: {now}",
        f"    .venv/bin/python tools/build_lessons.py {rel(source)}",
    ]
    return "\n".join(lines)


def problems_of(path: Path) -> list[str]:
    """The parity problems of one translated lesson file against its English twin (messages in full)."""
    en = english_of(path)
    if not en.exists():
        return [f"{rel(path)}: there is no English {rel(en)}: a translation keeps the English file name"]
    text = path.read_text(encoding="utf-8")
    found = parity_problems(en.read_text(encoding="utf-8"), text, language=language_of(path), name=path.name,
                            en_sha256=sha256(en))
    out = []
    for p in found:
        if p.startswith("stale:"):
            out.append(stale_message(path, (front_matter(text).get("k8sjobs") or {}).get("source_sha256")))
        else:
            out.append(f"{rel(path)}: {p}")
    return out


# ----------------------------------------------------------------------------- zh-TW from zh-CN


@cache
def _i18n_tool():
    if __package__:
        from . import i18n
    else:  # python tools/translations.py: tools/ is sys.path[0]
        import i18n
    return i18n


@cache
def _converters():
    import opencc

    return opencc.OpenCC("s2twp"), opencc.OpenCC("t2s")


def to_taiwan(text: str) -> str:
    """zh-CN text -> zh-TW, exactly as the message catalogs are converted (tools/i18n.py)."""
    tool = _i18n_tool()
    return tool.to_taiwan(text, _converters()[0], tool.load_overrides())


def is_traditional(text: str) -> bool:
    """Whether ``text`` holds a character that only traditional Chinese writes (a quote of A0/A1)."""
    return _converters()[1].convert(text) != text


# Spans the conversion leaves as they are: URLs (a zh-cn anchor may be Chinese), an element
# marked lang="zh-Hant"/"zh-TW" (a quotation the zh-CN author wants verbatim), a quotation in
# traditional characters (the articles), a blockquote paragraph in traditional characters.
URL = re.compile(r"https?://[^\s)<>\]\"'`]+")
MARKED = re.compile(r"<(\w+)\b[^>]*\blang=\"zh-(?:Hant|TW)\"[^>]*>.*?</\1>", re.S)
QUOTED = re.compile(r"“[^”]{0,600}”|「[^」]{0,600}」|『[^』]{0,600}』")  # across the lines of a wrapped paragraph
BLOCKQUOTE = re.compile(r"(?:^>[^\n]*\n?)+", re.M)
QUOTE_MARKS = {"“": "「", "”": "」"}


def _kept_spans(text: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in URL.finditer(text)] + [m.span() for m in MARKED.finditer(text)]
    spans += [m.span() for m in QUOTED.finditer(text) if is_traditional(m.group(0))]
    spans += [m.span() for m in BLOCKQUOTE.finditer(text) if is_traditional(m.group(0))]
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def convert_text(text: str) -> str:
    """zh-CN prose and code -> zh-TW, leaving URLs, marked spans and traditional quotations as they are.

    Only Chinese characters and Chinese punctuation change (OpenCC and the overrides touch nothing
    else): identifiers, numbers, YAML, kubectl output and URLs come out byte for byte.
    """
    out, pos = [], 0
    for a, b in _kept_spans(text):
        out.append(to_taiwan(text[pos:a]))
        kept = text[a:b]
        if kept[:1] in QUOTE_MARKS and kept[-1:] in QUOTE_MARKS:  # typography of the marks, not the words
            kept = QUOTE_MARKS[kept[0]] + kept[1:-1] + QUOTE_MARKS[kept[-1]]
        out.append(kept)
        pos = b
    out.append(to_taiwan(text[pos:]))
    return "".join(out)


QUOTE_SPACE = re.compile(r" (?=[“”「」『』])|(?<=[“”「」『』]) ")
"""A space beside a quotation mark: zh-CN keeps one between “” and Latin text (kubernetes.io/zh-cn
does), zh-TW's full-width 「」 carry their own room, so the conversion drops it (tools/zh_tw_overrides.tsv)."""


def ascii_skeleton(text: str) -> str:
    """The ASCII characters of ``text`` in order: what the zh-TW conversion must not change
    (except a space beside a quotation mark, see :data:`QUOTE_SPACE`)."""
    return "".join(ch for ch in QUOTE_SPACE.sub("", text) if ord(ch) < 128)


def zh_tw_lesson(zh_cn_text: str, name: str) -> str:
    """The zh-TW lesson generated from the zh-CN one (``name``: its file name).

    The front matter says ``language: zh-TW`` and ``generated_from: zh-CN/<name>`` and keeps the
    English source hash of the zh-CN lesson; the first code cell calls ``set_language("zh-TW")``;
    everything else goes through :func:`convert_text`. Raises ``ValueError`` if the conversion
    changed anything but Chinese text (it must not).
    """
    m = re.match(r"---\n(.*?\n)---\n", zh_cn_text, re.S)
    if not m:
        raise ValueError(f"zh-CN/{name}: no front matter")
    head, body = m.group(1), zh_cn_text[m.end():]
    if not re.search(r"^  language: zh-CN$", head, re.M):
        raise ValueError(f"zh-CN/{name}: the front matter has no '  language: zh-CN' line under k8sjobs:")
    head = re.sub(r"^  language: zh-CN$",
                  f"  language: zh-TW\n  generated_from: zh-CN/{name}  # by tools/build_lessons.py: do not edit",
                  head, count=1, flags=re.M)
    body = body.replace('set_language("zh-CN")', 'set_language("zh-TW")')
    converted = convert_text(body)
    if ascii_skeleton(converted) != ascii_skeleton(body):
        diff = next(i for i, (a, b) in enumerate(zip(ascii_skeleton(converted), ascii_skeleton(body))) if a != b)
        raise ValueError(f"zh-CN/{name}: the zh-TW conversion changed text that is not Chinese near "
                         f"{ascii_skeleton(body)[max(0, diff - 40):diff + 40]!r}")
    return f"---\n{head}---\n{converted}"


def zh_tw_path(zh_cn: Path) -> Path:
    """Where the zh-TW twin of a zh-CN lesson is written: ``../zh-TW/<same name>``."""
    return zh_cn.parent.parent / "zh-TW" / zh_cn.name


def write_zh_tw(zh_cn: Path) -> tuple[Path, bool]:
    """Write the zh-TW twin of ``zh_cn``; returns it and whether its content changed."""
    out = zh_tw_path(zh_cn)
    text = zh_tw_lesson(zh_cn.read_text(encoding="utf-8"), zh_cn.name)
    changed = not out.exists() or out.read_text(encoding="utf-8") != text
    if changed:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return out, changed


def zh_tw_problems(notebooks: Path = SOURCES) -> list[str]:
    """Stale, missing or orphaned generated zh-TW lessons (``build_lessons.py --check`` reports them)."""
    problems = []
    sources = {p.name: p for p in (notebooks / "zh-CN").glob("[0-9][0-9]-*.md")}
    for name, src in sorted(sources.items()):
        out = zh_tw_path(src)
        try:
            want = zh_tw_lesson(src.read_text(encoding="utf-8"), name)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if not out.exists():
            problems.append(f"{rel(out)}: missing; generate it: .venv/bin/python tools/build_lessons.py {rel(src)}")
        elif out.read_text(encoding="utf-8") != want:
            problems.append(f"{rel(out)}: stale against {rel(src)} or tools/zh_tw_overrides.tsv (it is generated: "
                            f"never edit it by hand); regenerate: .venv/bin/python tools/build_lessons.py {rel(src)}")
    for out in sorted((notebooks / "zh-TW").glob("[0-9][0-9]-*.md")):
        if out.name not in sources:
            problems.append(f"{rel(out)}: no zh-CN/{out.name} generates it; delete it and its .ipynb")
    return problems


# ----------------------------------------------------------------------------- Chinese typography

HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff"
"""Chinese characters (and kana)."""
FULLWIDTH = r"\u3001-\u3003\u3008-\u3011\u3014-\u301f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
"""Full-width punctuation: ，。、；：？！（）《》「」【】 and the like (not “” ‘’, which a font may draw narrow)."""
CJK = f"[{HAN}{FULLWIDTH}]"
OPEN_SPAN, CLOSE_SPAN = "\x01", "\x02"
"""Where a bold or code span starts and ends in :func:`_flat_prose` (a space there renders as it is)."""
BARRIER = "\x00"
"""A hard line break, an image, a stripped quotation: nothing is checked across it."""
SPACING = [
    (re.compile(f"{CJK} +{OPEN_SPAN}{CJK}"), "a space between Chinese and a bold or code span of Chinese"),
    (re.compile(f"{CJK}{CLOSE_SPAN} +{CJK}"), "a space between a bold or code span of Chinese and Chinese"),
    (re.compile(f"[{FULLWIDTH}][{OPEN_SPAN}{CLOSE_SPAN}]? +|(?<=\\S) +[{OPEN_SPAN}{CLOSE_SPAN}]?[{FULLWIDTH}]"),
     "a space beside full-width punctuation"),
    (re.compile(f"[{HAN}] +[{HAN}]"), "a space between two Chinese characters (italics or a link drawn)"),
    (re.compile(f"{CJK}[{OPEN_SPAN}{CLOSE_SPAN}]?\n[{OPEN_SPAN}{CLOSE_SPAN}]?{CJK}"),
     "a line break between two Chinese characters (one line per paragraph)"),
    (re.compile(r"\*\*"), "a '**' that opens or closes no bold span (CommonMark: '**' before punctuation needs "
                          "a space or punctuation before it)"),
]
"""What renders as a stray space in Chinese prose (JupyterLab in Chromium), with what to say about it.

kubernetes.io/zh-cn puts one space between Chinese and Latin letters, digits or code
(``创建 3 个 Pod``, ``的 `completions` 字段``, ``第四种操作 **FailIndex** 只让``): those stay. What
is a defect is a space where both sides are Chinese once the ``**``/backticks/italics/links are
drawn (``按 **单步**`` renders ``按 单步``), a space beside full-width punctuation (``。 最近``), and a
line break inside a paragraph between two Chinese characters (the browser draws it as a space).
"""


def _flat_prose(markdown: str, *, keep_traditional_quotes: bool = False) -> list[tuple[int, str]]:
    """Each prose block of ``markdown`` (paragraphs, list items, headings, table cells) as
    ``(line, text)``: bold and code spans become :data:`OPEN_SPAN` … :data:`CLOSE_SPAN` around their
    text (the inside of a code span reduced to its first and last characters), soft line breaks
    ``\\n``, links and emphasis transparent; code cells and fenced blocks are not prose.

    Quotations of the source articles (“…”, 「…」 and blockquotes in traditional characters) are
    left out unless ``keep_traditional_quotes``: they are quoted as written, stray spaces included.
    """
    from markdown_it import MarkdownIt

    body = re.sub(r"\A---\n.*?\n---\n", lambda m: "\n" * m.group(0).count("\n"), markdown, flags=re.S)
    tokens = MarkdownIt("commonmark").enable("table").parse(body)
    out, quote_depth, quote_traditional = [], 0, False
    for i, tok in enumerate(tokens):
        if tok.type == "blockquote_open":
            quote_depth += 1
            end = next(j for j in range(i + 1, len(tokens)) if tokens[j].type == "blockquote_close")
            quote_traditional = is_traditional("".join(t.content for t in tokens[i:end]))
        elif tok.type == "blockquote_close":
            quote_depth -= 1
        if tok.type != "inline" or (quote_depth and quote_traditional and not keep_traditional_quotes):
            continue
        parts = []
        for child in tok.children or []:
            if child.type == "text":
                parts.append(child.content)
            elif child.type == "strong_open":
                parts.append(OPEN_SPAN)
            elif child.type == "strong_close":
                parts.append(CLOSE_SPAN)
            elif child.type == "code_inline":
                inside = child.content.strip()
                parts.append(f"{OPEN_SPAN}{inside[:1]}{inside[-1:]}{CLOSE_SPAN}")
            elif child.type == "softbreak":
                parts.append("\n")
            elif child.type in ("hardbreak", "image"):
                parts.append(BARRIER)
        text = "".join(parts)
        if not keep_traditional_quotes:
            # the quotation marks stay: a space outside them is ours, not the article's
            text = QUOTED.sub(lambda m: m.group(0)[0] + BARRIER + m.group(0)[-1] if is_traditional(m.group(0))
                              else m.group(0), text)
        out.append(((tok.map or [0])[0] + 1, text))
    return out


def spacing_problems(markdown: str) -> list[str]:
    """Stray spaces in the Chinese prose of a lesson (see :data:`SPACING`), each with its line."""
    problems = []
    for line, text in _flat_prose(markdown):
        for pattern, what in SPACING:
            for m in pattern.finditer(text):
                shown = text[max(0, m.start() - 12):m.end() + 12]
                shown = shown.replace(OPEN_SPAN, "«").replace(CLOSE_SPAN, "»").replace("\n", "⏎").replace(BARRIER, "|")
                problems.append(f"line {line + text[:m.start()].count(chr(10))}: {what}: {shown!r}")
    return problems


# ----------------------------------------------------------------------------- commands


def start(language: str, stem: str) -> Path:
    """A new translation: the English lesson with the front matter of a translation and
    ``set_language("<language>")``, to be translated in place."""
    if language not in BY_HAND:
        raise SystemExit(f"translations are written by hand in {', '.join(BY_HAND)}; zh-TW is generated from zh-CN")
    en = EN / f"{stem.removesuffix('.md')}.md"
    if not en.exists():
        raise SystemExit(f"no English lesson {rel(en)}")
    out = SOURCES / language / en.name
    if out.exists():
        raise SystemExit(f"{rel(out)} exists already")
    text = en.read_text(encoding="utf-8")
    text = re.sub(r"^k8sjobs:\n((?:  .*\n)*)",
                  lambda m: f"k8sjobs:\n{m.group(1)}  language: {language}\n  source: en/{en.name}\n"
                            f"  source_sha256: {sha256(en)}\n", text, count=1, flags=re.M)
    text = text.replace('set_language("en")', f'set_language("{language}")')
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out


def rehash(path: Path) -> str:
    """Record the current English hash in translation ``path`` (after carrying its changes over)."""
    if language_of(path) in GENERATED:
        raise SystemExit(f"{rel(path)} is generated: rehash notebooks/.src/{GENERATED[language_of(path)]}/{path.name}")
    now = sha256(english_of(path))
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(r"^(  source_sha256:) *\S*$", rf"\g<1> {now}", text, count=1, flags=re.M)
    if not n:
        raise SystemExit(f"{rel(path)}: no '  source_sha256:' line in the front matter")
    path.write_text(new, encoding="utf-8")
    return now


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="tools/translations.py", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="every translated lesson: ok, stale or its problems; what is missing")
    p = sub.add_parser("check", help="parity problems of the named translations")
    p.add_argument("files", nargs="+", type=Path)
    p = sub.add_parser("start", help="begin a translation from the current English")
    p.add_argument("language", choices=BY_HAND)
    p.add_argument("lesson", help="e.g. 07-failures-and-backoff")
    p = sub.add_parser("diff", help="git diff of the English since the translation's recorded hash")
    p.add_argument("file", type=Path)
    p = sub.add_parser("rehash", help="record the current English hash")
    p.add_argument("files", nargs="+", type=Path)
    p = sub.add_parser("zh-tw", help="write notebooks/.src/zh-TW/*.md from notebooks/.src/zh-CN (all, or these)")
    p.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args(argv)

    if args.command == "start":
        print(f"wrote {rel(start(args.language, args.lesson))}: translate it, then build it with tools/build_lessons.py")
        return 0
    if args.command == "rehash":
        for f in args.files:
            print(f"{rel(f)}: source_sha256: {rehash(f.resolve())}")
        return 0
    if args.command == "diff":
        path = args.file.resolve()
        recorded = (front_matter(path.read_text(encoding="utf-8")).get("k8sjobs") or {}).get("source_sha256")
        commit = commit_with(english_of(path), recorded) if recorded else None
        if commit is None:
            print(f"no commit of {rel(english_of(path))} has the recorded hash {recorded}", file=sys.stderr)
            return 1
        return subprocess.run(["git", "-C", str(ROOT), "diff", commit, "--", rel(english_of(path))]).returncode
    if args.command == "zh-tw":
        files = [f.resolve() for f in args.files] or sorted((SOURCES / "zh-CN").glob("[0-9][0-9]-*.md"))
        for f in files:
            out, changed = write_zh_tw(f)
            print(f"{'wrote' if changed else 'unchanged'} {rel(out)}")
        return 0
    files = [f.resolve() for f in args.files] if args.command == "check" else translations()
    problems = []
    for f in files:
        found = problems_of(f)
        problems += found
        if args.command == "status":
            state = "ok" if not found else ("stale" if any("was translated from another" in p for p in found)
                                            else f"{len(found)} problem(s)")
            print(f"{state:14} {rel(f)}")
    if args.command == "status":
        for lang in LANGUAGES:
            missing = [p.name for p in sorted(EN.glob("[0-9][0-9]-*.md")) if not (SOURCES / lang / p.name).exists()]
            print(f"{lang}: {len(missing)} lesson(s) not translated yet" + (f": {', '.join(missing)}" if missing else ""))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
