#!/usr/bin/env bash
# Package smoke run (issue 13 §5): build the sdist and the wheel (the wheel from the sdist, as `python -m build` does)
# from the committed tree (git archive HEAD: what a release contains, and nothing is written into the repository),
# check that the bundled data is in both, install the wheel with one light extra into a fresh virtualenv and run the
# bundled demo there, from a folder outside the repository. Prints what it checked, sizes and timings.
#
#   bench/release/package_smoke.sh [EXTRA]        EXTRA: the optional dependencies to install (default: de)
#
# Environment: PYTHON (the interpreter with `build` installed; default /work/main/.venv/bin/python), WORK (scratch
# folder; default a fresh mktemp -d). Needs a package index for the build backend and the extra. Not part of the test
# suite: it builds and installs (about a minute).
set -euo pipefail

extra="${1:-de}"
python="${PYTHON:-/work/main/.venv/bin/python}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="${WORK:-$(mktemp -d /tmp/discotest-pkg.XXXXXX)}"
dist="$work/dist"
venv="$work/venv"
mkdir -p "$dist"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
kib() { awk -v n="$(stat -c %s "$1")" 'BEGIN { printf "%.0f KiB", n / 1024 }'; }
ok() { echo "ok    $*"; }
fail() { echo "FAIL  $*"; exit 1; }

echo "discotest package smoke run: repo $repo, scratch $work, extra [$extra]"

t=$(now)
mkdir -p "$work/tree"
git -C "$repo" archive HEAD | tar -x -C "$work/tree"
ok "exported $(git -C "$repo" rev-parse --short HEAD) ($(git -C "$repo" status --porcelain | wc -l) uncommitted changes left out)"
"$python" -m build --outdir "$dist" "$work/tree" > "$work/build.log" 2>&1 || { tail -20 "$work/build.log"; fail "python -m build"; }
wheel=$(ls "$dist"/*.whl)
sdist=$(ls "$dist"/*.tar.gz)
ok "built $(basename "$sdist") ($(kib "$sdist")) and $(basename "$wheel") ($(kib "$wheel")) in $(since "$t")"

# bundled data a run reads at run time: in the wheel, and in the sdist (the wheel is built from it)
needed=(
  discotest/data/bundled/winomt-demo/en.txt
  discotest/data/bundled/winomt-demo/translations/demo/en-de.txt
  discotest/data/bundled/jazp/jazp.jsonl
  discotest/data/bundled/wmt-docids/generaltest2022.de-en.docids.txt
  discotest/data/sources.json
  discotest/report/schema.json
  discotest/lang/lexicon/entities/de.tsv
  discotest/zero_pronoun/pronouns/zh_en.tsv
  discotest/dip/connectives_en.tsv
  discotest/dip/anaphora_acceptable.tsv
  discotest/zero_pronoun/mzprt_errata.tsv
)
"$python" - "$wheel" "$sdist" "$work/tree/src" "${needed[@]}" <<'EOF'
import sys, tarfile, zipfile
from pathlib import Path

wheel, sdist, src, needed = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4:]
in_wheel = set(zipfile.ZipFile(wheel).namelist())
in_sdist = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
missing = [n for n in needed if n not in in_wheel] + [f"sdist:{n}" for n in needed if f"src/{n}" not in in_sdist]
# every data file of the source tree (not only the listed ones) is in the wheel
data = [str(p.relative_to(src)) for p in (src / "discotest").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
        and "__pycache__" not in p.parts]
missing += [f"wheel:{n}" for n in data if n not in in_wheel]
if missing:
    print("FAIL  missing from the package: " + ", ".join(missing))
    sys.exit(1)
print(f"ok    {len(needed)} named data files in the wheel and the sdist; all {len(data)} data files of src/ in the wheel")
EOF

t=$(now)
"$python" -m venv "$venv"
"$venv/bin/pip" install -q "$wheel[$extra]" > "$work/install.log" 2>&1 || { tail -20 "$work/install.log"; fail "pip install"; }
size=$(du -sm "$venv" | cut -f1)
ok "installed the wheel with [$extra] into a fresh virtualenv in $(since "$t") ($size MiB)"
"$venv/bin/python" -c "import torch" 2> /dev/null && fail "torch got installed: [$extra] should be light"
ok "torch not installed"

# from a folder outside the repository, so only the installed package can answer
cd "$work"
t=$(now)
DISCOTEST_CACHE="$work/cache" "$venv/bin/discotest" -q run winomt-demo --lang de --system demo > "$work/demo.txt" \
  || fail "discotest run winomt-demo --lang de --system demo"
grep -q "demo" "$work/demo.txt" || fail "the demo run printed no result"
ok "discotest run winomt-demo --lang de --system demo in $(since "$t"):"
sed 's/^/      /' "$work/demo.txt"
where=$("$venv/bin/python" -c "import discotest, os; print(os.path.dirname(discotest.__file__))")
case "$where" in "$venv"/*) ok "discotest imported from the virtualenv ($where)";; *) fail "imported from $where";; esac
DISCOTEST_CACHE="$work/cache" "$venv/bin/discotest" -q run winomt-demo --lang de --system demo --format json \
  | "$venv/bin/python" -c "import json, sys; d = json.load(sys.stdin); assert d['results'][0]['scores']['n'] == 16" \
  || fail "the JSON report"
ok "JSON report: 16 demo rows scored"
echo "done: $work"
