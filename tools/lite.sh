#!/bin/sh
# tools/lite.sh -- the lessons as a JupyterLite site: build _site/ from clean, optionally serve it.
#
#   sh tools/lite.sh                 # build _site/ (static files; Python runs in the browser)
#   sh tools/lite.sh --serve         # build, then serve on http://127.0.0.1:8000 and print the start URL
#   sh tools/lite.sh --serve-only    # serve the existing _site/   (--port N: another port; --site DIR: another folder)
#
# Needs Python >= 3.11 (PYTHON=... to choose), PyPI and the npm registry (the Pyodide core is an
# npm package): tools/lite.py makes its own build venv .venv-lite/ from requirements/lite-build.txt.
# What goes into the site and why: the docstring of tools/lite.py.
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
PY=${PYTHON:-python3}

if ! command -v npm >/dev/null 2>&1; then
    case " $* " in *" --serve-only "*) ;; *)
        echo "lite: npm is missing (the Pyodide core comes from the npm registry)"
        if [ "$(id -u)" -ne 0 ]; then
            echo "lite: as root: apt-get update && apt-get install -y --no-install-recommends npm" >&2
            exit 1
        fi
        echo "+ apt-get install -y --no-install-recommends npm"
        apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm >/dev/null
        ;;
    esac
fi
exec "$PY" tools/lite.py "$@"
