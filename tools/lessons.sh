#!/bin/sh
# tools/lessons.sh -- set up (tools/setup.sh runtime: the runtime lock only) and start the lessons in JupyterLab.
#
#   sh tools/lessons.sh [LANGUAGE] [extra jupyter lab options, e.g. --no-browser]
#
# LANGUAGE: en (the default), zh-CN, zh-TW or ru. Opens that language's start page
# notebooks/LANGUAGE/00-start-here.ipynb (its notebooks/LANGUAGE/ folder until the start page exists).
# Anything else that does not start with "-" is refused with the list of languages.
# K8SJOBS_DRY_RUN=1 prints what would open and exits (no setup, no server).
# Binds to 127.0.0.1 only. Port: K8SJOBS_PORT, else the first free port from 8888. Token:
# K8SJOBS_TOKEN, else a random one. The exact URL is printed before the server starts.
# Stop with Ctrl-C (twice, or answer 'y').
set -eu

LANGUAGES="en zh-CN zh-TW ru"
LANG_DIR=en
case "${1:-}" in
    en|zh-CN|zh-TW|ru) LANG_DIR=$1; shift ;;
    ""|-*) ;;
    *)
        echo "lessons: unknown language '$1': choose one of: $LANGUAGES (e.g. sh tools/lessons.sh zh-CN)" >&2
        exit 2 ;;
esac

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
START=notebooks/$LANG_DIR/00-start-here.ipynb
if [ -f "$START" ]; then
    TARGET="lab/tree/$START"
elif [ -d "notebooks/$LANG_DIR" ]; then
    TARGET="lab/tree/notebooks/$LANG_DIR"
    echo "lessons: $START is not translated yet; opening the notebooks/$LANG_DIR/ folder"
else
    TARGET="lab/tree/notebooks"
    echo "lessons: $START does not exist yet; opening the notebooks/ folder"
fi
if [ -n "${K8SJOBS_DRY_RUN:-}" ]; then  # tests: say what would open, start nothing
    echo "would open: $TARGET"
    exit 0
fi

# The runtime lock only (the lessons need no test tools). K8SJOBS_NO_SETUP=1 starts the existing
# .venv as it is (the launcher's own test runs inside it).
[ "${K8SJOBS_NO_SETUP:-0}" = 1 ] || sh tools/setup.sh runtime
VPY="$ROOT/.venv/bin/python"

PORT=${K8SJOBS_PORT:-$("$VPY" - <<'EOF'
import socket
for port in range(8888, 8988):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(port)
        break
EOF
)}
TOKEN=${K8SJOBS_TOKEN:-$("$VPY" -c 'import secrets; print(secrets.token_hex(24))')}

ROOT_FLAG=""
[ "$(id -u)" -ne 0 ] || ROOT_FLAG="--allow-root"

URL="http://127.0.0.1:$PORT/$TARGET?token=$TOKEN"
cat <<EOF

  k8sjobs lessons -- JupyterLab on 127.0.0.1:$PORT
  Open this URL in your browser:

      $URL

EOF

# notebook_shim (a server extension that ports classic Notebook 6 config, which the lessons do not
# use) reads every ServerApp trait while it links, including the deprecated ServerApp.token, which
# printed a DeprecationWarning at every start; JupyterLab, Notebook 7 and Voila run without it.
exec "$ROOT/.venv/bin/jupyter" lab \
    --ip=127.0.0.1 --port="$PORT" --ServerApp.port_retries=0 \
    --IdentityProvider.token="$TOKEN" \
    --ServerApp.jpserver_extensions notebook_shim=False \
    --ServerApp.root_dir="$ROOT" \
    --LabApp.default_url="/$TARGET" \
    $ROOT_FLAG "$@"
