#!/bin/sh
# tools/lessons.sh -- set up (tools/setup.sh) and start the lessons in JupyterLab.
#
#   sh tools/lessons.sh [extra jupyter lab options, e.g. --no-browser]
#
# Opens the start page notebooks/en/00-start-here.ipynb (the notebooks/ folder until it exists).
# Binds to 127.0.0.1 only. Port: K8SJOBS_PORT, else the first free port from 8888. Token:
# K8SJOBS_TOKEN, else a random one. The exact URL is printed before the server starts.
# Stop with Ctrl-C (twice, or answer 'y').
set -eu

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
cd "$ROOT"
sh tools/setup.sh

VPY="$ROOT/.venv/bin/python"
START=notebooks/en/00-start-here.ipynb
if [ -f "$START" ]; then
    TARGET="lab/tree/$START"
else
    TARGET="lab/tree/notebooks"
    echo "lessons: $START does not exist yet; opening the notebooks/ folder"
fi

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

exec "$ROOT/.venv/bin/jupyter" lab \
    --ip=127.0.0.1 --port="$PORT" --ServerApp.port_retries=0 \
    --IdentityProvider.token="$TOKEN" \
    --ServerApp.root_dir="$ROOT" \
    --LabApp.default_url="/$TARGET" \
    $ROOT_FLAG "$@"
