#!/bin/sh
# tools/setup.sh -- create or refresh the project's virtualenv .venv from the lock. Idempotent.
#
#   sh tools/setup.sh runtime   # what the lessons need: binder/requirements.txt (tools/lessons.sh)
#   sh tools/setup.sh [dev]     # runtime + the test tools: requirements/dev.txt (tools/test.sh; the default)
#
# * .venv is made with `python3 -m venv` (override the interpreter with PYTHON=...; needs >= 3.11).
# * runtime installs exactly binder/requirements.txt (the pins Binder installs, including `-e .`,
#   the project in editable mode); dev adds requirements/dev.txt on top (pytest, Playwright, ...).
#   Both with --no-deps, then `pip check` proves the lock is complete and consistent.
# * A stamp per level (sha256 of its lock files, this script and the interpreter version) is kept in
#   .venv/.k8sjobs-runtime.sha256 and .venv/.k8sjobs-dev.sha256. Same stamp -> nothing to do. A venv
#   with dev installed also serves runtime (nothing is removed). A changed lock -> the venv is rebuilt
#   from scratch, so packages dropped from the lock really go away; runtime -> dev installs the dev
#   lock on top.
# * If only pyproject.toml changed, the project is re-installed (`pip install -e . --no-deps`).
# * Concurrent runs (lessons + tests) are serialised with flock when it is available.
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
PY=${PYTHON:-python3}
VENV=.venv
LEVEL=${1:-dev}
RUNTIME_LOCK=binder/requirements.txt
DEV_LOCK=requirements/dev.txt

say() { printf 'setup: %s\n' "$*"; }

case "$LEVEL" in
    runtime|dev) ;;
    *) say "unknown level '$LEVEL': use 'runtime' (the lessons) or 'dev' (the lessons and the tests)" >&2; exit 2 ;;
esac

if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    say "need Python >= 3.11 as '$PY' (set PYTHON=/path/to/python3.11)" >&2
    exit 1
fi
for f in $RUNTIME_LOCK $DEV_LOCK pyproject.toml; do
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
RUNTIME_KEY=$(digest $RUNTIME_LOCK tools/setup.sh "text:$PYVER")
DEV_KEY=$(digest $RUNTIME_LOCK $DEV_LOCK tools/setup.sh "text:$PYVER")
PROJ_KEY=$(digest pyproject.toml)
RUNTIME_STAMP="$VENV/.k8sjobs-runtime.sha256"
DEV_STAMP="$VENV/.k8sjobs-dev.sha256"
PROJ_STAMP="$VENV/.k8sjobs-project.sha256"
LEGACY_STAMP="$VENV/.k8sjobs-lock.sha256"  # earlier versions of this script: one stamp for both locks

venv_ok() {
    [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1
}
stamp_is() { [ "$(cat "$1" 2>/dev/null || true)" = "$2" ]; }
short() { printf '%s' "${1%"${1#????????????}"}"; }

# What is installed: the runtime lock as stamped, and the dev lock on top of it (or not at all).
have_runtime=0
have_dev=0
if venv_ok && [ -e "$LEGACY_STAMP" ] && [ ! -e "$RUNTIME_STAMP" ]; then
    # Made by an earlier setup.sh with both locks: bring it up to the dev lock in place (never
    # rebuild it under a running test session, e.g. the launcher's own test).
    say "a .venv from an earlier tools/setup.sh: installing the dev lock over it"
    have_runtime=1
    LEVEL=dev
    rm -f "$LEGACY_STAMP"
elif venv_ok && stamp_is "$RUNTIME_STAMP" "$RUNTIME_KEY"; then
    have_runtime=1
    if stamp_is "$DEV_STAMP" "$DEV_KEY"; then
        have_dev=1
    elif [ -e "$DEV_STAMP" ]; then
        have_runtime=0  # an older dev lock is installed: rebuild, so what it dropped goes away
    fi
fi

if [ "$have_runtime" = 1 ] && { [ "$LEVEL" = runtime ] || [ "$have_dev" = 1 ]; }; then
    if stamp_is "$PROJ_STAMP" "$PROJ_KEY"; then
        installed=runtime
        [ "$have_dev" = 1 ] && installed=dev
        say ".venv is up to date with the $installed lock ($(short "$RUNTIME_KEY"))"
        exit 0
    fi
    say "pyproject.toml changed: re-installing the project (pip install -e . --no-deps)"
    pip_run install --quiet --no-deps -e .
else
    T0=$(date +%s)
    if [ "$have_runtime" = 0 ]; then
        if [ -e "$VENV/bin" ] || [ -e "$VENV/lib" ]; then
            say "lock or interpreter changed (or an earlier install did not finish): rebuilding .venv"
            find "$VENV" -mindepth 1 -maxdepth 1 ! -name .setup.lock -exec rm -rf {} +
        fi
        say "creating .venv with $PY ($PYVER)"
        "$PY" -m venv "$VENV"
    fi
    if [ "$LEVEL" = runtime ]; then
        say "installing the runtime lock: pip install --no-deps -r $RUNTIME_LOCK (includes -e .)"
        pip_run install --quiet --no-deps --disable-pip-version-check -r $RUNTIME_LOCK
    else
        say "installing the dev lock: pip install --no-deps -r $DEV_LOCK (includes $RUNTIME_LOCK and -e .)"
        pip_run install --quiet --no-deps --disable-pip-version-check -r $DEV_LOCK
    fi
    say "installed in $(($(date +%s) - T0)) s"
fi

if ! pip_run check; then
    say "the lock is incomplete or inconsistent with pyproject.toml: edit requirements/*.in," >&2
    say "run 'python3 tools/lock.py', commit binder/requirements.txt and requirements/dev.txt" >&2
    rm -f "$RUNTIME_STAMP" "$DEV_STAMP" "$PROJ_STAMP"
    exit 1
fi
printf '%s\n' "$RUNTIME_KEY" >"$RUNTIME_STAMP"
if [ "$LEVEL" = dev ]; then
    printf '%s\n' "$DEV_KEY" >"$DEV_STAMP"
fi
printf '%s\n' "$PROJ_KEY" >"$PROJ_STAMP"
say "ready: $VENV with the $LEVEL lock ($(du -sh "$VENV" | cut -f1))"
