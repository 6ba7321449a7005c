"""The Binder badges of the README, from the one place the repository address is set.

    python3 tools/binder_links.py           # print the badge block
    python3 tools/binder_links.py --write   # rewrite it in README.md

The address is ``[project.urls] Repository`` in pyproject.toml (a GitHub repository URL).
One badge opens JupyterLab on the start page, the other opens the start page as a Voila app.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = "notebooks/en/00-start-here.ipynb"
BEGIN = "<!-- binder-badges: generated from [project.urls] Repository in pyproject.toml by tools/binder_links.py -->"
END = "<!-- /binder-badges -->"


def repository() -> str:
    """``owner/name`` of the GitHub repository named in pyproject.toml."""
    url = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Repository"]
    m = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?", url)
    if not m:
        raise SystemExit(f"pyproject.toml [project.urls] Repository is not a GitHub URL: {url}")
    return m.group(1)


def badges(repo: str | None = None) -> str:
    """The README block: a JupyterLab badge and a Voila badge, both on the start page."""
    base = f"https://mybinder.org/v2/gh/{repo or repository()}/HEAD"
    return "\n".join([
        BEGIN,
        f"[![Open the lessons in JupyterLab on Binder](https://mybinder.org/badge_logo.svg)]({base}?urlpath=lab/tree/{START})",
        "[![Open the start page as a Voilà app on Binder](https://img.shields.io/badge/launch-Voil%C3%A0%20app-579aca)]"
        f"({base}?urlpath=voila/render/{START})",
        END,
    ])


def main() -> int:
    block = badges()
    if "--write" not in sys.argv:
        print(block)
        return 0
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    readme.write_text(text[:start] + block + text[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
