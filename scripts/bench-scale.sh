#!/usr/bin/env bash
# Measures protocompat on hostile-scale inputs (tests/cli/hostile.rs checks their results, never
# their time): for each case of scripts/gen_scale_cases.py — N fields, messages, enum values,
# oneofs, RPCs or reservations in one file, or N/10 files, changed all or half — the wall
# time, peak RSS (/usr/bin/time -v), exit code and output size of the JSON and the text
# report; then `--fix` on the 50,000 deleted fields.
#
#   scripts/bench-scale.sh [N]      # default 100000
#
# Not run in CI: its numbers depend on the machine.
set -euo pipefail

n=${1:-100000}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/protocompat-scale}
protocompat=${PROTOCOMPAT:-$here/target/release/protocompat}
if [[ ! -x $protocompat ]]; then
  # target/profiling/ is the release build with symbols, for perf (Cargo.toml).
  case $protocompat in
    */target/profiling/*) (cd "$here" && cargo build --profile profiling) ;;
    *) (cd "$here" && cargo build --release) ;;
  esac
fi

rm -rf "$dir" && mkdir -p "$dir"
mapfile -t cases < <(python3 "$here/scripts/gen_scale_cases.py" "$dir" "$n")

printf '%-34s %10s %10s %5s %7s\n' case wall peak exit output
measure() {
  local name=$1 case=$2
  shift 2
  local timing="$dir/$case.time" rc=0
  (cd "$dir/$case" && /usr/bin/time -v "$protocompat" check new --against old "$@" \
    >"$dir/$case.out" 2>"$timing") || rc=$?
  local wall rss size
  wall=$(grep 'Elapsed (wall clock)' "$timing" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$timing" | awk '{printf "%.0f MB", $NF / 1024}')
  size=$(du -h "$dir/$case.out" | cut -f1)
  printf '%-34s %10s %10s %5s %7s\n' "$name" "$wall" "$rss" "$rc" "$size"
}

for case in "${cases[@]}"; do
  measure "$case, json" "$case" --format json
  measure "$case, text" "$case"
done
measure "fields-deleted, --fix" fields-deleted --fix
echo "reserved statements written by --fix: $(grep -c reserved "$dir/fields-deleted/new/a.proto")"
