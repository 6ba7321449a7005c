#!/bin/sh
# tools/test.sh -- set up and run every test. Works on a fresh Debian 12 machine (root for apt).
#
#   sh tools/test.sh
#
# Stages (stops at the first failing stage; always prints a summary with the time of each):
#   setup     tools/setup.sh: .venv from the lock (binder/requirements.txt + requirements/dev.txt); the package's bytecode
#   chromium  Debian's chromium (+ a CJK font for screenshots) via apt-get if missing; never
#             `playwright install`. K8SJOBS_CHROMIUM=/path skips this stage.
#   ruff      ruff check .
#   pytest    python -m pytest (tests/, without tests/browser): unit + conformance, one pytest-xdist
#             worker per CPU (K8SJOBS_PYTEST_WORKERS overrides; 1: no xdist)
#   nbval     every notebook under notebooks/ (every language) with pytest --nbval-lax
#             --nbval-current-env and tests/nbval-sanitize.cfg, two workers per CPU (pytest-xdist,
#             --dist loadfile: a notebook's cells stay together, in order, in one kernel; a worker
#             waits on its kernel's start and replies, so two per CPU keep the CPUs busy;
#             K8SJOBS_NBVAL_WORKERS overrides); passes, saying so, while there are none
#   browser   python -m pytest tests/browser (JupyterLab, Notebook 7, Voila in headless Chromium)
#   lite      sh tools/lite.sh: the JupyterLite site _site/ from clean (its own build venv .venv-lite,
#             Pyodide from npm), then python -m pytest tests/lite: the start page and every lesson
#             run in the site in Chromium, outputs as stored, no request leaving 127.0.0.1. The build
#             (downloads, unpacking, 4 minutes on a fresh machine) starts in the background once
#             setup and chromium are done, while the pytest, nbval and browser stages run; the lite
#             stage waits for it and prints its log (also artifacts/lite-build.log).
#             K8SJOBS_LITE_EARLY=0 builds it in the lite stage instead.
#   binder    python -m pytest tests/binder (a fresh venv from binder/requirements.txt, as repo2docker
#             builds it; the lessons executed in it; pins vs CI; peak memory vs Binder's 2 GB)
# A skipped test fails its stage (a skipped check is a defect). Jupyter, IPython and XDG dirs and
# TMPDIR point into a temp dir for every stage after setup, so nothing is written to $HOME.
# JUnit XML: artifacts/test-results/; screenshots and page logs: artifacts/browser/.
# Extra arguments are passed to every pytest stage (e.g. -x, -k name). K8SJOBS_KEEP_GOING=1 runs
# the later stages after a failure too (the exit code is still the first failure's).
set -u

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
VPY="$ROOT/.venv/bin/python"
RESULTS="$ROOT/artifacts/test-results"
WORK=$(mktemp -d /tmp/k8sjobs-test.XXXXXX)  # short on purpose: unix socket paths under TMPDIR
SUMMARY="$WORK/summary"
: >"$SUMMARY"
FAILED=""
RC=0
CHROMIUM=${K8SJOBS_CHROMIUM:-/usr/bin/chromium}
APT_PACKAGES="chromium fonts-wqy-microhei"

ms() { date +%s%3N; }

finish() {
    trap - EXIT INT TERM
    # a site build still running in the background (an earlier stage failed): stop it
    if [ -n "${LITE_PID:-}" ]; then kill -- "-$LITE_PID" 2>/dev/null; fi
    printf '\n==== tools/test.sh summary ====\n'
    printf '%-9s %-10s %8s  %s\n' stage result seconds notes
    cat "$SUMMARY"
    xmls=$(ls "$RESULTS"/*.xml 2>/dev/null)
    if [ -n "$xmls" ] && [ -x "$VPY" ]; then
        # the closing line: "tests: N passed, N failed, N skipped" over every pytest stage
        printf 'tests: %s\n' "$("$VPY" tools/junit_summary.py $xmls)"
    elif [ "$RC" -ne 0 ]; then
        printf 'tests: 0 passed, 1 failed, 0 skipped  (stage %s failed before any test ran)\n' "$FAILED"
    fi
    rm -rf "$WORK"
    exit "$RC"
}
trap finish EXIT
trap 'RC=130; FAILED=${FAILED:-interrupted}; exit 130' INT TERM

# stage NAME FUNCTION [ARGS] -- run FUNCTION unless an earlier stage failed; record result and time
stage() {
    name=$1
    fn=$2
    shift 2
    if [ -n "$FAILED" ] && [ "${K8SJOBS_KEEP_GOING:-0}" != 1 ]; then
        printf '%-9s %-10s %8s  %s\n' "$name" "not run" "-" "(stage $FAILED failed)" >>"$SUMMARY"
        return 0
    fi
    printf '\n==== [%s] ====\n' "$name"
    NOTE=""
    t0=$(ms)
    "$fn" "$@"
    rc=$?
    t=$(($(ms) - t0))
    secs="$((t / 1000)).$(((t % 1000) / 100))"
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="FAIL($rc)"
        FAILED=${FAILED:-$name}
        [ "$RC" -ne 0 ] || RC=$rc
    fi
    printf '%-9s %-10s %8s  %s\n' "$name" "$result" "$secs" "$NOTE" >>"$SUMMARY"
}

# counts of one JUnit file for the summary; fails if a test was skipped
junit_note() {
    NOTE=$("$VPY" tools/junit_summary.py --check-skips "$1")
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

stage_setup() {
    sh tools/setup.sh dev
    status=$?
    [ "$status" -eq 0 ] || return "$status"
    # The package is installed editable, and where PYTHONDONTWRITEBYTECODE is set (as on the CI
    # machines) no process would keep its bytecode: every pytest worker, `python -m k8sjobs`
    # subprocess and notebook kernel would compile the package again. Compiled once here (about
    # 1 s; only changed files on a later run).
    "$ROOT/.venv/bin/python" -m compileall -q -j 0 "$ROOT/k8sjobs" >/dev/null
}

stage_chromium() {
    if [ -n "${K8SJOBS_CHROMIUM:-}" ]; then
        [ -x "$CHROMIUM" ] || { echo "K8SJOBS_CHROMIUM=$CHROMIUM is not executable"; return 1; }
        NOTE="K8SJOBS_CHROMIUM=$CHROMIUM"
        return 0
    fi
    missing=""
    [ -x /usr/bin/chromium ] || missing="chromium"
    installed fonts-wqy-microhei || missing="$missing fonts-wqy-microhei"
    if [ -n "$missing" ]; then
        echo "missing Debian package(s):$missing -- installing with apt-get (Debian's chromium, not a Playwright download)"
        if [ "$(id -u)" -ne 0 ]; then
            echo "need root for apt-get; run as root:  apt-get update && apt-get install -y --no-install-recommends $APT_PACKAGES"
            return 1
        fi
        echo "+ apt-get update"
        apt-get update -q >"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log"; return 1; }
        echo "+ DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $APT_PACKAGES"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $APT_PACKAGES \
            >>"$WORK/apt.log" 2>&1 || { tail -30 "$WORK/apt.log"; return 1; }
        grep -E '^(Setting up|[0-9]+ upgraded)' "$WORK/apt.log" | grep -E 'chromium |fonts-wqy|upgraded' || true
        NOTE="installed via apt-get: "
    fi
    version=$(/usr/bin/chromium --version 2>/dev/null)
    echo "$version"
    NOTE="$NOTE$version"
}

stage_ruff() {
    "$ROOT/.venv/bin/ruff" check .
}

stage_pytest() {
    workers=${K8SJOBS_PYTEST_WORKERS:-$(nproc)}
    if [ "$workers" -gt 1 ]; then set -- -n "$workers" "$@"; fi
    echo "$workers worker(s)"
    "$VPY" -m pytest --ignore=tests/browser --ignore=tests/binder --junitxml="$RESULTS/pytest.xml" "$@" || return $?
    junit_note "$RESULTS/pytest.xml"
}

stage_nbval() {
    count=$(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null | wc -l)
    if [ "$count" -eq 0 ]; then
        echo "no notebooks under notebooks/ yet: nothing to check (stage passes)"
        NOTE="no notebooks under notebooks/ yet"
        return 0
    fi
    workers=${K8SJOBS_NBVAL_WORKERS:-$(($(nproc) * 2))}
    echo "$count notebook(s) under notebooks/, $workers workers"
    "$VPY" -m pytest --nbval-lax --nbval-current-env --nbval-sanitize-with tests/nbval-sanitize.cfg \
        -n "$workers" --dist loadfile --junitxml="$RESULTS/nbval.xml" "$@" notebooks || return $?
    junit_note "$RESULTS/nbval.xml"
}

stage_binder() {
    # What Binder builds from binder/: a fresh venv from the lock, the lessons run in it, peak memory.
    "$VPY" -m pytest tests/binder -v -s --junitxml="$RESULTS/binder.xml" "$@" || return $?
    junit_note "$RESULTS/binder.xml"
    NOTE="$NOTE; figures in artifacts/binder/report.json"
}

LITE_PID=""
LITE_LOG="$ROOT/artifacts/lite-build.log"

lite_build() {
    # the build venv and the wheels come through pip's own cache, not the isolated one
    PIP_CACHE_DIR=$PIP_CACHE sh tools/lite.sh
}

# start the site's build now, in the background, unless an earlier stage failed
lite_build_early() {
    [ "${K8SJOBS_LITE_EARLY:-1}" = 1 ] || return 0
    [ -z "$FAILED" ] || return 0
    echo "lite: building the JupyterLite site in the background (log: artifacts/lite-build.log)"
    rm -f "$LITE_LOG.rc"
    # its own session, so finish() can stop the whole build (pip, node) if it is still running
    setsid sh -c 'PIP_CACHE_DIR=$1 sh tools/lite.sh >"$2" 2>&1; echo $? >"$2.rc"' lite-build "$PIP_CACHE" "$LITE_LOG" &
    LITE_PID=$!
}

stage_lite() {
    if [ -n "$LITE_PID" ]; then
        echo "lite: waiting for the site's build started after setup"
        wait "$LITE_PID"
        LITE_PID=""
        cat "$LITE_LOG"
        rc=$(cat "$LITE_LOG.rc" 2>/dev/null || echo 1)
        [ "$rc" -eq 0 ] || return "$rc"
    else
        lite_build || return $?
    fi
    K8SJOBS_CHROMIUM=$CHROMIUM "$VPY" -m pytest tests/lite -v --durations=0 \
        --junitxml="$RESULTS/lite.xml" "$@" || return $?
    junit_note "$RESULTS/lite.xml"
    NOTE="$NOTE; site $(du -sh _site | cut -f1), screenshots in artifacts/browser/lite-*"
}

stage_browser() {
    K8SJOBS_CHROMIUM=$CHROMIUM "$VPY" -m pytest tests/browser -v --durations=0 \
        --junitxml="$RESULTS/browser.xml" "$@" || return $?
    junit_note "$RESULTS/browser.xml"
    NOTE="$NOTE; screenshots in artifacts/browser/"
}

isolate() {
    for var in IPYTHONDIR JUPYTER_CONFIG_DIR JUPYTER_DATA_DIR JUPYTER_RUNTIME_DIR JUPYTERLAB_SETTINGS_DIR \
        JUPYTERLAB_WORKSPACES_DIR XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME MPLCONFIGDIR TMPDIR; do
        mkdir -p "$WORK/h/$var"
        export "$var=$WORK/h/$var"
    done
    export JUPYTER_PLATFORM_DIRS=1 PYDEVD_DISABLE_FILE_VALIDATION=1
}

PIP_CACHE=${PIP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pip}  # before isolate() moves XDG_CACHE_HOME
mkdir -p "$RESULTS"
rm -f "$RESULTS"/*.xml
stage setup stage_setup
stage chromium stage_chromium
isolate
mkdir -p "$ROOT/artifacts"
lite_build_early
stage ruff stage_ruff
stage pytest stage_pytest "$@"
stage nbval stage_nbval "$@"
stage browser stage_browser "$@"
stage lite stage_lite "$@"
stage binder stage_binder "$@"
