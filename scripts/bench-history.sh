#!/usr/bin/env bash
# Benchmarks `protocompat audit` on a generated history (scripts/gen_history.py): wall time
# and peak RSS, cold (no cache) and warm (the cache under .git/protocompat/ from the cold run).
#
# Usage: scripts/bench-history.sh [FILES] [COMMITS] [REPO]
#   FILES, COMMITS  the generated history's size (default 500 files, 2000 commits)
#   REPO            audit this repository instead (a git dir, e.g. a googleapis clone)
# Not run in CI: its numbers depend on the machine.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
protocompat=${PROTOCOMPAT:-$here/target/release/protocompat}
[[ -x $protocompat ]] || (cd "$here" && cargo build --release)

if [[ -n ${3:-} ]]; then
  gitdir=$3
else
  dir=${BENCH_DIR:-/tmp/protocompat-history-bench}
  rm -rf "$dir"
  python3 "$here/scripts/gen_history.py" "$dir" --files "${1:-500}" --commits "${2:-2000}"
  gitdir=$dir/.git
fi
rm -rf "$gitdir/protocompat"

run() {
  /usr/bin/time -f "%e s wall, %M KB peak RSS" "$protocompat" audit --git-dir "$gitdir" \
    --format short >/dev/null 2>"$1.err" || true
  echo "$1: $(tail -1 "$1.err")"
}
run /tmp/audit-cold
run /tmp/audit-warm
"$protocompat" audit --git-dir "$gitdir" 2>/dev/null | tail -2 || true
