#!/bin/sh
# tools/setup.sh -- create or refresh the project's virtualenv .venv from the lock. Idempotent.
#
#   sh tools/setup.sh           # used by tools/lessons.sh and tools/test.sh; safe to run any time
#
# * .venv is made with `python3 -m venv` (override the interpreter with PYTHON=...; needs >= 3.11).
# * It installs exactly the lock: requirements/dev.txt, which starts with -r ../binder/requirements.txt
#   (the same runtime pins Binder installs, including `-e .`, the project in editable mode), with
#   --no-deps, then `pip check` proves the lock is complete and consistent.
# * A stamp (sha256 of the lock files, this script and the interpreter version) is kept in
#   .venv/.k8sjobs-lock.sha256. Same stamp -> nothing to do. Different stamp -> the venv is rebuilt
#   from scratch, so packages dropped from the lock really go away.
# * If only pyproject.toml changed, the project is re-installed (`pip install -e . --no-deps`).
# * Concurrent runs (lessons + tests) are serialised with flock when it is available.
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
PY=${PYTHON:-python3}
VENV=.venv
LOCKS="binder/requirements.txt requirements/dev.txt"

say() { printf 'setup: %s\n' "$*"; }

if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    say "need Python >= 3.11 as '$PY' (set PYTHON=/path/to/python3.11)" >&2
    exit 1
fi
for f in $LOCKS pyproject.toml; do
    [ -f "$f" ] || { say "missing $f" >&2; exit 1; }
done

mkdir -p "$VENV"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$VENV/.setup.lock"
    if ! flock -n 9; then
        say "another setup is running; waiting for it"
        flock 9
    fi
fi

# sha256 over named files plus extra text, printed as hex
digest() {
    "$PY" - "$@" <<'EOF'
import hashlib, sys
h = hashlib.sha256()
for arg in sys.argv[1:]:
    h.update(arg.encode() + b"\0")
    if not arg.startswith("text:"):
        with open(arg, "rb") as f:
            h.update(f.read())
print(h.hexdigest())
EOF
}

# run pip, hiding only the "Location ... is ignored" lines that a machine-wide find-links /
# extra-index configuration can print for every package; keeps pip's exit status
pip_run() {
    { "$VENV/bin/python" -m pip "$@" 2>&1; echo $? >"$VENV/.pip-rc"; } |
        grep -v "is ignored: it is neither a file nor a directory" || true
    return "$(cat "$VENV/.pip-rc")"
}

PYVER=$("$PY" -c 'import platform, sys; print(platform.python_implementation(), sys.version.split()[0], platform.machine())')
LOCK_KEY=$(digest $LOCKS tools/setup.sh "text:$PYVER")
PROJ_KEY=$(digest pyproject.toml)
LOCK_STAMP="$VENV/.k8sjobs-lock.sha256"
PROJ_STAMP="$VENV/.k8sjobs-project.sha256"

venv_ok() {
    [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1
}

if venv_ok && [ "$(cat "$LOCK_STAMP" 2>/dev/null || true)" = "$LOCK_KEY" ]; then
    if [ "$(cat "$PROJ_STAMP" 2>/dev/null || true)" = "$PROJ_KEY" ]; then
        say ".venv is up to date with the lock (${LOCK_KEY%"${LOCK_KEY#????????????}"})"
        exit 0
    fi
    say "pyproject.toml changed: re-installing the project (pip install -e . --no-deps)"
    pip_run install --quiet --no-deps -e .
else
    T0=$(date +%s)
    if [ -e "$VENV/bin" ] || [ -e "$VENV/lib" ]; then
        say "lock or interpreter changed (or an earlier install did not finish): rebuilding .venv"
        find "$VENV" -mindepth 1 -maxdepth 1 ! -name .setup.lock -exec rm -rf {} +
    fi
    say "creating .venv with $PY ($PYVER)"
    "$PY" -m venv "$VENV"
    say "installing the lock: pip install --no-deps -r requirements/dev.txt (includes binder/requirements.txt and -e .)"
    pip_run install --quiet --no-deps --disable-pip-version-check -r requirements/dev.txt
    say "installed in $(($(date +%s) - T0)) s"
fi

if ! pip_run check; then
    say "the lock is incomplete or inconsistent with pyproject.toml: edit requirements/*.in," >&2
    say "run 'python3 tools/lock.py', commit binder/requirements.txt and requirements/dev.txt" >&2
    rm -f "$LOCK_STAMP" "$PROJ_STAMP"
    exit 1
fi
printf '%s\n' "$LOCK_KEY" >"$LOCK_STAMP"
printf '%s\n' "$PROJ_KEY" >"$PROJ_STAMP"
say "ready: $VENV ($(du -sh "$VENV" | cut -f1))"
