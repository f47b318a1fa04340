#!/usr/bin/env bash
# discotest's main job on data that needs no download: every published WinoMT output in the data in
# ../shared/data when it is there, else the small demo suite the package ships. Run ./setup.sh first.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d ../shared/data/mt_gender ]; then
  exec .venv/bin/discotest --data-dir ../shared/data run winomt --lang all --system all "$@"
fi
echo "run-main: ../shared/data not found; running the bundled demo suite" >&2
exec .venv/bin/discotest run winomt-demo --lang all --system all "$@"
