"""Build the lesson notebooks from their markdown sources, clean.

    .venv/bin/python tools/build_lessons.py                 # every lesson source (notebooks/.src/<lang>/*.md)
    .venv/bin/python tools/build_lessons.py notebooks/.src/en/05-slow-start.md
    .venv/bin/python tools/build_lessons.py --check         # are the .ipynb what the .md say? (no kernel)
    .venv/bin/python tools/build_lessons.py --restyle       # a notebook built by an older version of this tool:
                                                            # today's conventions, no kernel

Each lesson is written as jupytext MyST markdown (``notebooks/.src/<lang>/NN-name.md``, reviewable
as text, in a hidden folder so that a learner's file browser lists each lesson once) and built
into ``notebooks/<lang>/NN-name.ipynb``, the file learners open. Neither declares a jupytext pairing
(``formats``): this tool is the pairing, so JupyterLab with jupytext opens either file alone. Building executes the notebook in a
fresh kernel (the simulation is seeded, so outputs are deterministic), keeps the outputs of
cells marked ``# NBVAL_CHECK_OUTPUT`` (what nbval compares) and removes every other output,
execution count and widget state (a FigureWidget's state embeds all of plotly.js).

From the lesson's first exercise on, a learner must see no stored output before running its
cell: an output right under an exercise would state the answer. So the checked outputs of the
cells after the first exercise are kept out of sight, in the cell's metadata
(``metadata.k8sjobs.outputs``): the cell is committed unrun and without outputs, as JupyterLab,
Notebook 7 and JupyterLite then show it (a collapsed output, ``jupyter.outputs_hidden``, is no
good: their placeholder previews its first line). nbval still compares them: the ``conftest.py``
at the top of the checkout hands them to nbval as the cell's reference outputs.

``--check`` rebuilds each notebook's cells from its markdown without running anything and
reports every difference with the committed ``.ipynb``, and every output that should not be
there. Exit status 1 when something differs.

Translations: ``notebooks/.src/zh-TW/*.md`` are generated from ``notebooks/.src/zh-CN/*.md`` (OpenCC
``s2twp`` and tools/zh_tw_overrides.tsv, by tools/translations.py): building a zh-CN lesson
writes its zh-TW twin and builds that too (building everything regenerates every zh-TW lesson
first), and ``--check`` reports a stale zh-TW lesson like a stale notebook.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import sys
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / ".src"
"""The lessons' sources, ``notebooks/.src/<lang>/NN-name.md``: out of the learner's sight (JupyterLab,
Binder and the JupyterLite site list no hidden folder), beside the notebooks they build,
``notebooks/<lang>/NN-name.ipynb``."""


def notebook_of(md: Path) -> Path:
    """The notebook built from the lesson source ``md``: ``notebooks/<lang>/NN-name.ipynb``."""
    return NOTEBOOKS / md.parent.name / f"{md.stem}.ipynb"
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"
CONFIRM = ".confirm("
STORED = "k8sjobs"
"""Cell metadata key of the checked outputs kept out of sight: ``metadata.k8sjobs.outputs``."""
KEEP_CELL_METADATA = ("tags", "jupyter", STORED)
"""Cell metadata that survives a build: tags (exercise, ...), jupyter.source_hidden (collapsed
code) and the checked outputs kept out of sight."""
KEEP_NB_METADATA = ("kernelspec", "language_info", "jupytext", "k8sjobs")


def sources() -> list[Path]:
    """Every lesson source: a MyST markdown file under notebooks/.src/ that declares jupytext formats."""
    out = []
    for md in sorted(SOURCES.rglob("*.md")):
        head = md.read_text(encoding="utf-8")[:400]
        if head.startswith("---") and "format_name: myst" in head:
            out.append(md)
    return out


def first_exercise(nb: nbformat.NotebookNode) -> int | None:
    """Index of the lesson's first exercise: the first code cell tagged ``exercise`` or building
    an ``Exercise(``; None in a notebook without one."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and ("exercise" in cell.metadata.get("tags", ()) or "Exercise(" in cell.source):
            return i
    return None


def stored_outputs(cell: dict) -> list | None:
    """The checked outputs a cell keeps out of sight (``metadata.k8sjobs.outputs``; each text as
    a list of lines, as nbformat writes an output's, so a change of one line is a one-line diff),
    or None. The ``conftest.py`` at the top of the checkout hands them to nbval."""
    return cell.get("metadata", {}).get(STORED, {}).get("outputs")


def _as_lines(outputs: list) -> list:
    def lines(value):
        return value.splitlines(keepends=True) if isinstance(value, str) else value
    out = []
    for o in copy.deepcopy(outputs):
        if "text" in o:
            o["text"] = lines(o["text"])
        if "data" in o:
            o["data"] = nbformat.NotebookNode({k: lines(v) if k.startswith("text/") else v for k, v in o["data"].items()})
        out.append(o)
    return out


def keep_out_of_sight(nb: nbformat.NotebookNode) -> int:
    """Move the stored outputs of the checked cells after the first exercise into their metadata
    (the cell then looks unrun); how many cells were moved. Idempotent."""
    first = first_exercise(nb)
    moved = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or first is None or i <= first or CHECK_MARK not in cell.source:
            continue
        if cell.outputs or cell.execution_count is not None:
            cell.metadata[STORED] = nbformat.NotebookNode({"outputs": _as_lines(cell.outputs)})
            cell.outputs = []
            cell.execution_count = None
            moved += 1
    return moved


def build_id(nb: nbformat.NotebookNode) -> str:
    """The notebook's build id: the first 12 hex digits of the SHA-256 of the notebook as written,
    without the id itself (``metadata.k8sjobs.build``). A lesson a learner saved in JupyterLite
    keeps the id of the notebook it came from; k8sjobs.set_language compares it with the id of the
    lesson the site ships (tools/lite.py lists them) and says so when they differ."""
    nb = copy.deepcopy(nb)
    meta = nb.metadata.get("k8sjobs")
    if meta is not None:
        meta.pop("build", None)
        if not meta:
            del nb.metadata["k8sjobs"]
    return hashlib.sha256(nbformat.writes(nb).encode("utf-8")).hexdigest()[:12]


def stamp(nb: nbformat.NotebookNode) -> None:
    """Record the notebook's :func:`build_id` in ``metadata.k8sjobs.build``."""
    nb.metadata.setdefault("k8sjobs", nbformat.NotebookNode())["build"] = build_id(nb)


def apply_conventions(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """House rules, so no lesson shows an answer before the learner predicts it.

    * a cell tagged ``exercise`` opens with its code collapsed (the widget asks the question);
    * a cell that calls ``.confirm(`` (the "Checking the answers" section) opens with its code
      collapsed: the code names the answers (which the cell shows folded under each question
      when it runs). It keeps no output (it is never a checked cell), so the committed
      notebook holds no answer;
    * a checked cell that calls ``.check(`` (it proves an exercise's answer) opens with code
      and output collapsed; nbval still compares the output.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        hidden = dict(cell.metadata.get("jupyter", {}))
        if "exercise" in cell.metadata.get("tags", ()):
            hidden["source_hidden"] = True
        if CONFIRM in cell.source:
            hidden["source_hidden"] = True
        if CHECK_MARK in cell.source and ".check(" in cell.source:
            hidden.update(source_hidden=True, outputs_hidden=True)
        if hidden:
            cell.metadata["jupyter"] = hidden
    return nb


def clean(nb: nbformat.NotebookNode, *, keep_checked: bool) -> nbformat.NotebookNode:
    """Strip what must not be committed: other outputs, counts, widget state, editor metadata."""
    nb = copy.deepcopy(nb)
    nb.metadata = nbformat.NotebookNode({k: v for k, v in nb.metadata.items() if k in KEEP_NB_METADATA})
    # No jupytext pairing in the notebook: this tool pairs .md and .ipynb. A declared pairing makes
    # jupytext (in the dev environment) refuse to open a notebook newer than its .md.
    if "jupytext" in nb.metadata:
        nb.metadata["jupytext"] = nbformat.NotebookNode(
            {k: v for k, v in nb.metadata["jupytext"].items() if k != "formats"})
    checked = 0
    for cell in nb.cells:
        cell.metadata = nbformat.NotebookNode({k: v for k, v in cell.metadata.items() if k in KEEP_CELL_METADATA})
        cell.pop("id", None)
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        if keep_checked and CHECK_MARK in cell.source:
            # nbval compares only cells that were run: a checked cell keeps a (deterministic) count.
            checked += 1
            cell.execution_count = checked
            kept = []
            for out in cell.outputs:
                out.pop("execution_count", None)
                out.metadata = nbformat.NotebookNode({})
                if out.output_type == "execute_result":
                    out.execution_count = None
                # A busy kernel sends one print in several stream messages: join neighbours of one
                # stream, so the committed output does not depend on the machine's load.
                if (out.output_type == "stream" and kept and kept[-1].output_type == "stream"
                        and kept[-1].name == out.name):
                    kept[-1].text += out.text
                    continue
                kept.append(out)
            cell.outputs = kept
        else:
            cell.outputs = []
    keep_out_of_sight(nb)
    checked = 0
    for cell in nb.cells:  # the counts a learner sees: 1, 2, ... on the checked cells left in sight
        if cell.cell_type == "code" and cell.execution_count is not None:
            checked += 1
            cell.execution_count = checked
    return nb


def answer_leaks(nb: nbformat.NotebookNode) -> list[int]:
    """Indexes of cells that would store an answer: a checked cell calling ``.confirm(``."""
    return [i for i, c in enumerate(nb.cells)
            if c.cell_type == "code" and CONFIRM in c.source and CHECK_MARK in c.source]


def build(md: Path, *, timeout: int = 300) -> Path:
    """Execute ``md`` and write its clean ``.ipynb`` next to it."""
    nb = apply_conventions(jupytext.read(md))
    leaks = answer_leaks(nb)
    if leaks:
        raise SystemExit(f"{md.relative_to(ROOT)}: cell {leaks[0]} calls .confirm( and is marked {CHECK_MARK}: "
                         "its output would store the answers in the notebook; remove the mark")
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(notebook_of(md).parent)}})
    client.execute()
    out = notebook_of(md)
    nbformat.validator.normalize(nb)
    final = clean(nb, keep_checked=True)
    for i, cell in enumerate(final.cells):
        cell["id"] = f"{md.stem[:40]}-{i:03d}"
    stamp(final)
    nbformat.write(final, out)
    return out


def _comparable(nb: nbformat.NotebookNode) -> list[tuple]:
    return [(c.cell_type, c.source.strip(), tuple(c.metadata.get("tags", ())),
             tuple(sorted(c.metadata.get("jupyter", {}).items()))) for c in nb.cells]


def check(md: Path) -> list[str]:
    """Differences between ``md`` and its committed notebook (empty when in sync)."""
    problems: list[str] = []
    ipynb = notebook_of(md)
    rel = md.relative_to(ROOT)
    if not ipynb.exists():
        return [f"{rel}: no {ipynb.name} built from it (run tools/build_lessons.py {rel})"]
    want = apply_conventions(jupytext.read(md))
    problems += [f"{rel}: cell {i} calls .confirm( and is marked {CHECK_MARK} (it would store the answers)"
                 for i in answer_leaks(want)]
    have = nbformat.read(ipynb, as_version=4)
    if _comparable(want) != _comparable(have):
        for i, (a, b) in enumerate(zip(_comparable(want), _comparable(have))):
            if a != b:
                problems.append(f"{ipynb.relative_to(ROOT)}: cell {i} differs from {md.name}; rebuild it")
                break
        else:
            problems.append(f"{ipynb.relative_to(ROOT)}: {len(have.cells)} cells, {md.name} has {len(want.cells)}")
    recorded = {k: v for k, v in have.metadata.get("k8sjobs", {}).items() if k != "build"}
    if want.metadata.get("k8sjobs", {}) != recorded:
        problems.append(f"{ipynb.relative_to(ROOT)}: metadata.k8sjobs differs from {md.name}")
    if have.metadata.get("k8sjobs", {}).get("build") != build_id(have):
        problems.append(f"{ipynb.relative_to(ROOT)}: metadata.k8sjobs.build is not the notebook's build id; "
                        "rebuild it, or run tools/build_lessons.py --restyle")
    if "widgets" in have.metadata:
        problems.append(f"{ipynb.relative_to(ROOT)}: widget state is committed (metadata.widgets)")
    first = first_exercise(have)
    for i, cell in enumerate(have.cells):
        if cell.cell_type == "code" and cell.outputs and CHECK_MARK not in cell.source:
            problems.append(f"{ipynb.relative_to(ROOT)}: cell {i} has outputs but is not a checked cell")
        if cell.cell_type == "code" and cell.outputs and first is not None and i > first:
            problems.append(f"{ipynb.relative_to(ROOT)}: cell {i} shows a stored output after the first exercise "
                            f"(cell {first}); rebuild it, or run tools/build_lessons.py --restyle")
        if stored_outputs(cell) is not None and (CHECK_MARK not in cell.source or first is None or i <= first):
            problems.append(f"{ipynb.relative_to(ROOT)}: cell {i} keeps outputs in metadata.{STORED} but is not "
                            f"a checked cell after the first exercise; rebuild it")
        if cell.cell_type == "code" and cell.execution_count is not None and CHECK_MARK not in cell.source:
            problems.append(f"{ipynb.relative_to(ROOT)}: cell {i} keeps an execution count")
    return problems


def restyle(md: Path) -> str:
    """Apply today's conventions to ``md``'s committed notebook without executing it: the front
    matter's metadata, collapsed code (``jupyter`` metadata) as :func:`apply_conventions` says,
    and the checked outputs after
    the first exercise moved out of sight (:func:`keep_out_of_sight`); for a notebook built by an
    older version of this tool. Refused (nothing written) when the cells differ from ``md``."""
    ipynb = notebook_of(md)
    rel = ipynb.relative_to(ROOT)
    if not ipynb.exists():
        return f"{rel}: not built yet (run tools/build_lessons.py {md.relative_to(ROOT)})"
    want = apply_conventions(jupytext.read(md))
    have = nbformat.read(ipynb, as_version=4)

    def cells(nb):
        return [(c.cell_type, c.source.strip(), tuple(c.metadata.get("tags", ()))) for c in nb.cells]
    if cells(want) != cells(have):
        return f"{rel}: its cells differ from {md.name}: rebuild it (tools/build_lessons.py {md.relative_to(ROOT)})"
    before = nbformat.writes(have)
    have.metadata.pop("k8sjobs", None)
    if "k8sjobs" in want.metadata:  # the front matter's (concepts; a translation's source hash)
        have.metadata["k8sjobs"] = want.metadata["k8sjobs"]
    for w, h in zip(want.cells, have.cells):
        h.metadata.pop("jupyter", None)
        if "jupyter" in w.metadata:
            h.metadata["jupyter"] = w.metadata["jupyter"]
    moved = keep_out_of_sight(have)
    checked = 0
    for cell in have.cells:
        if cell.cell_type == "code" and cell.execution_count is not None:
            checked += 1
            cell.execution_count = checked
    stamp(have)
    if nbformat.writes(have) == before:
        return f"{rel}: up to date"
    nbformat.write(have, ipynb)
    return f"{rel}: restyled ({moved} outputs moved out of sight)"


def _translations():
    """tools/translations.py (zh-TW from zh-CN), loaded as a module."""
    if __package__:
        from . import translations
    else:  # python tools/build_lessons.py: tools/ is sys.path[0]
        import translations
    return translations


def with_zh_tw(files: list[Path]) -> list[Path]:
    """``files`` with the zh-TW twin of every zh-CN lesson among them right after it, (re)generated
    (a zh-TW lesson named itself is regenerated from its zh-CN source)."""
    out: list[Path] = []
    for md in files:
        if md.parent.name in ("zh-CN", "zh-TW"):
            source = md.parent.parent / "zh-CN" / md.name
            twin, changed = _translations().write_zh_tw(source)
            print(f"{'generated' if changed else 'up to date'}: {twin.relative_to(ROOT)}")
            out += [p for p in ([md, twin] if md == source else [twin]) if p not in out]
        elif md not in out:
            out.append(md)
    return out


def main(argv: list[str] | None = None) -> int:
    """Build (or check) the named lessons, or all of them."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, help="lesson .md sources (default: all)")
    ap.add_argument("--check", action="store_true", help="compare without executing; exit 1 on any difference")
    ap.add_argument("--restyle", action="store_true",
                    help="apply the conventions (collapsed code, outputs out of sight) to the committed notebooks, no kernel")
    args = ap.parse_args(argv)
    files = [f.resolve() for f in args.files] or sources()
    if args.restyle:
        said = [restyle(md) for md in with_zh_tw(files)]
        print("\n".join(said))
        return 1 if any("rebuild" in s or "not built" in s for s in said) else 0
    if args.check:
        problems = _translations().zh_tw_problems() if not args.files else []
        problems += [p for md in files for p in check(md)]
        for p in problems:
            print(p)
        print(f"{len(files)} lessons checked, {len(problems)} problems")
        return 1 if problems else 0
    for md in with_zh_tw(files):
        out = build(md)
        print(f"built {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
