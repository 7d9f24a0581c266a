#!/usr/bin/env bash
# Benchmarks `protocompat check` (and `buf breaking`, when its binary is available) on a
# generated pair of trees: wall time, peak RSS and finding counts for each.
#
# Usage: scripts/bench.sh [FILES] [CHANGES]
#   FILES    number of .proto files per tree (default 5000)
#   CHANGES  breaking changes sprinkled into the new tree (default 300)
# Environment: BENCH_USE (rule ids or categories for new/buf.yaml, comma-separated; default
# FILE), BENCH_DIR (default /tmp/protocompat-bench), BUF (path to a buf binary; default
# the npm-installed buf 1.75.0 under /tmp/peer, skipped when absent), PROTOCOMPAT (default
# target/release/protocompat, built when missing; target/profiling/protocompat is the
# same build with symbols, for perf).
#
# Not run in CI: it takes minutes and its numbers depend on the machine.
set -euo pipefail

files=${1:-5000}
changes=${2:-300}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/protocompat-bench}
buf=${BUF:-/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf}
protocompat=${PROTOCOMPAT:-$here/target/release/protocompat}

if [[ ! -x $protocompat ]]; then
  # target/profiling/ is the release build with symbols, for perf (Cargo.toml).
  case $protocompat in
    */target/profiling/*) (cd "$here" && cargo build --profile profiling) ;;
    *) (cd "$here" && cargo build --release) ;;
  esac
fi

python3 "$here/scripts/gen_bench_tree.py" "$dir" --files "$files" --changes "$changes" \
  --use "${BENCH_USE:-FILE}"
echo "trees: $(du -sh "$dir/old" | cut -f1) old, $(du -sh "$dir/new" | cut -f1) new"

# Runs a command from $dir/new under /usr/bin/time; prints wall time, peak RSS, exit code and
# the number of findings counted by the given Python expression over stdout.
measure() {
  local name=$1 count=$2
  shift 2
  local out="$dir/$name.out" timing="$dir/$name.time" rc=0
  (cd "$dir/new" && /usr/bin/time -v "$@" >"$out" 2>"$timing") || rc=$?
  local wall rss findings
  wall=$(grep 'Elapsed (wall clock)' "$timing" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$timing" | awk '{printf "%.0f MB", $NF / 1024}')
  findings=$(python3 -c "$count" "$out" 2>/dev/null || echo '?')
  printf '%-12s wall %-10s peak RSS %-10s exit %-4s findings %s\n' \
    "$name" "$wall" "$rss" "$rc" "$findings"
}

measure protocompat \
  'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' \
  "$protocompat" check . --against ../old --format json

if [[ -x $buf ]]; then
  measure buf \
    'import sys; print(sum(1 for l in open(sys.argv[1]) if l.strip()))' \
    "$buf" breaking . --against ../old --error-format json
else
  echo "buf: not found at $buf (set BUF=...), skipped"
fi

# Do the two tools report the same findings (rule, path, span)?
if [[ -s $dir/buf.out && -s $dir/protocompat.out ]]; then
  python3 - "$dir/protocompat.out" "$dir/buf.out" <<'PY'
import collections, json, sys
key = lambda rule, f: (rule, f.get("path") or "", f.get("start_line") or 1, f.get("start_column") or 1,
                       f.get("end_line") or 1, f.get("end_column") or 1)
ours = collections.Counter(key(f["rule"], f) for f in json.load(open(sys.argv[1]))["findings"])
theirs = collections.Counter(key(j["type"], j) for j in map(json.loads, filter(str.strip, open(sys.argv[2]))))
diff = (ours - theirs) + (theirs - ours)
print(f"same findings as buf: {'yes' if not diff else 'no'} "
      f"({sum((ours & theirs).values())} shared, {sum((ours - theirs).values())} only protocompat, "
      f"{sum((theirs - ours).values())} only buf)")
PY
fi
