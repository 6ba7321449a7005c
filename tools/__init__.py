"""The project's tools: scripts (``python tools/build_lessons.py ...``) and a package.

Tests and tools import each other as ``from tools import translations`` (the repository root on
``sys.path``: ``python -m pytest`` from it, or pytest's ``pythonpath`` setting in pyproject.toml).
A tool run as a script has its own folder as ``sys.path[0]``; one that needs another tool imports
it relatively when it is part of the package and by its plain name when it is the script:

    if __package__:
        from . import translations
    else:  # python tools/x.py
        import translations
"""
