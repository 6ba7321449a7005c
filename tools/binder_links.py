"""The ways into the lessons in the READMEs, from the one place the repository address is set.

    .venv/bin/python tools/binder_links.py           # print the generated blocks
    .venv/bin/python tools/binder_links.py --write   # rewrite them in every README, and README.zh-TW.md

The address is ``[project.urls] Repository`` in pyproject.toml (a GitHub repository URL).
Every README (README.md in English, README.zh-CN.md, README.zh-TW.md, README.ru.md) has two
blocks. The line under its two commands opens that language's start page in the JupyterLite
site that .github/workflows/lite.yml publishes on GitHub Pages (nothing to install; the address
is the repository's Pages address). The badge block has a badge that opens JupyterLab on Binder
on that language's start page, one that opens that start page as a Voila app, and the links to
the READMEs of the other languages. README.zh-TW.md is generated from README.zh-CN.md with the
converter of the zh-TW lessons (tools/translations.py).
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
LANGUAGES = ("en", "zh-CN", "zh-TW", "ru")
README = {"en": "README.md", "zh-CN": "README.zh-CN.md", "zh-TW": "README.zh-TW.md", "ru": "README.ru.md"}
NAMES = {"en": "English", "zh-CN": "简体中文", "zh-TW": "繁體中文", "ru": "Русский"}
"""Each language named in itself (the language links)."""
ALT = {
    "en": ("Open the lessons in JupyterLab on Binder", "Open the start page as a Voilà app on Binder", "Languages: "),
    "zh-CN": ("在 Binder 上用 JupyterLab 打开课程", "在 Binder 上以 Voilà 应用打开起始页", "其他语言："),
    "ru": ("Открыть уроки в JupyterLab на Binder", "Открыть стартовую страницу как приложение Voilà на Binder",
           "Другие языки: "),
}
"""The badges' alternative texts and the word before the language links (zh-TW: converted from zh-CN)."""
VOILA_BADGE = "https://img.shields.io/badge/launch-Voil%C3%A0%20app-579aca"
ZH_TW_NOTE = "<!-- generated from README.zh-CN.md by tools/binder_links.py --write: do not edit -->\n"
LITE_BEGIN = "<!-- lite-link: generated from [project.urls] Repository in pyproject.toml by tools/binder_links.py -->"
LITE_END = "<!-- /lite-link -->"
LITE_SECTION = {
    "en": "The lessons in your browser (JupyterLite)",
    "zh-CN": "在浏览器中学习（JupyterLite）",
    "ru": "Уроки в браузере (JupyterLite)",
}
"""The heading of the section of each README that says what JupyterLite cannot do (zh-TW: converted
from zh-CN). A README whose language has none here points at the English one."""
LITE_TEXT = {
    "en": "No install: [open the lessons in your browser]({url}) (JupyterLite: Python runs in the page; "
          "[what it cannot do]({limits})).",
    "zh-CN": "无需安装：[在浏览器中打开课程]({url})（JupyterLite：Python 直接在网页中运行；[有哪些限制]({limits})）。",
    "ru": "Без установки: [открыть уроки в браузере]({url}) (JupyterLite: Python выполняется прямо на странице; "
          "[что там не работает]({limits})).",
}
"""The line under the two commands, per language (zh-TW: converted from zh-CN)."""


def repository() -> str:
    """``owner/name`` of the GitHub repository named in pyproject.toml."""
    url = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Repository"]
    m = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?", url)
    if not m:
        raise SystemExit(f"pyproject.toml [project.urls] Repository is not a GitHub URL: {url}")
    return m.group(1)


def start(language: str = "en") -> str:
    """The start page of ``language``'s lessons, relative to the repository."""
    return f"notebooks/{language}/00-start-here.ipynb"


def _translations():
    if __package__:
        from . import translations
    else:  # python tools/binder_links.py: tools/ is sys.path[0]
        import translations
    return translations


def _alt(language: str) -> tuple[str, str, str]:
    if language == "zh-TW":
        return tuple(_translations().convert_text(x) for x in ALT["zh-CN"])
    return ALT[language]


def badges(repo: str | None = None, language: str = "en") -> str:
    """The README block of ``language``: a JupyterLab and a Voila badge on its start page, and
    the links to the other languages' READMEs."""
    base = f"https://mybinder.org/v2/gh/{repo or repository()}/HEAD"
    lab, voila, others = _alt(language)
    links = " · ".join(NAMES[lang] if lang == language else f"[{NAMES[lang]}]({README[lang]})" for lang in LANGUAGES)
    return "\n".join([
        BEGIN,
        f"[![{lab}](https://mybinder.org/badge_logo.svg)]({base}?urlpath=lab/tree/{start(language)})",
        f"[![{voila}]({VOILA_BADGE})]({base}?urlpath=voila/render/{start(language)})",
        "",
        f"{others}{links}",
        END,
    ])


def lite_start(language: str = "en") -> str:
    """The start page of ``language`` inside the JupyterLite site (tools/lite.py: notebooks/<lang>/ -> <lang>/)."""
    return f"{language}/00-start-here.ipynb"


def pages_url(repo: str | None = None) -> str:
    """Where GitHub Pages publishes the repository's site: ``https://owner.github.io/name/``."""
    owner, name = (repo or repository()).split("/")
    host = f"{owner.lower()}.github.io"
    return f"https://{host}/" if name.lower() == host else f"https://{host}/{name}/"


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped (full-width too),
    spaces as hyphens; letters of every script kept."""
    return "#" + re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def lite_section(language: str) -> str | None:
    """The heading of ``language``'s README section on JupyterLite, if it has one."""
    if language == "zh-TW":
        return _translations().convert_text(LITE_SECTION["zh-CN"]) if "zh-CN" in LITE_SECTION else None
    return LITE_SECTION.get(language)


def lite_limits(language: str = "en") -> str:
    """Where ``language``'s JupyterLite line sends a learner for what JupyterLite cannot do: the
    section of the same README, else the English README's."""
    heading = lite_section(language)
    return anchor(heading) if heading else README["en"] + anchor(LITE_SECTION["en"])


def lite_link(repo: str | None = None, language: str = "en") -> str:
    """The README line under the two commands: ``language``'s start page in the published site."""
    url = f"{pages_url(repo)}lab/index.html?path={lite_start(language)}"
    limits = lite_limits(language)
    if language == "zh-TW":
        text = _translations().convert_text(LITE_TEXT["zh-CN"])
    else:
        text = LITE_TEXT[language]
    return "\n".join([LITE_BEGIN, text.format(url=url, limits=limits), LITE_END])


def with_badges(text: str, language: str, repo: str | None = None) -> str:
    """``text`` (a README) with its badge block, and its JupyterLite line if it has one, replaced by ``language``'s."""
    begin, end = text.index(BEGIN), text.index(END) + len(END)
    text = text[:begin] + badges(repo, language) + text[end:]
    if LITE_BEGIN in text:
        begin, end = text.index(LITE_BEGIN), text.index(LITE_END) + len(LITE_END)
        text = text[:begin] + lite_link(repo, language) + text[end:]
    return text


def zh_tw_readme(zh_cn: str, repo: str | None = None) -> str:
    """README.zh-TW.md: README.zh-CN.md through the zh-TW converter, pointing at the zh-TW lessons."""
    text = _translations().convert_text(zh_cn)
    text = text.replace("notebooks/zh-CN/00-start-here", "notebooks/zh-TW/00-start-here")
    text = text.replace("tools/lessons.sh zh-CN", "tools/lessons.sh zh-TW")
    return ZH_TW_NOTE + with_badges(text, "zh-TW", repo)


def expected(repo: str | None = None) -> dict[Path, str]:
    """Every README as it should be (those that exist, and README.zh-TW.md if README.zh-CN.md does)."""
    out = {}
    for language in LANGUAGES:
        path = ROOT / README[language]
        if language == "zh-TW":
            source = ROOT / README["zh-CN"]
            if source.exists():
                out[path] = zh_tw_readme(with_badges(source.read_text(encoding="utf-8"), "zh-CN", repo), repo)
        elif path.exists():
            out[path] = with_badges(path.read_text(encoding="utf-8"), language, repo)
    return out


def main() -> int:
    """Print the badge blocks, or (``--write``) rewrite the READMEs."""
    if "--write" not in sys.argv:
        print("\n\n".join(lite_link(language=lang) + "\n" + badges(language=lang) for lang in LANGUAGES))
        return 0
    for path, text in expected().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
