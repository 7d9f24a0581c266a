#!/usr/bin/env bash
# Instructions per MB of the lexer and of lexer + parser: the load-independent figure behind
# `cargo bench --bench frontend` (this machine has no hardware counters for `perf stat`, so
# it counts with valgrind's callgrind). One pass of each stage over DIR; the count of a run
# that only reads the files is subtracted.
#
# Usage: scripts/frontend-instructions.sh [DIR]   (default: the googleapis export of
#        `scripts/bench.sh googleapis-dir`). Takes a few minutes: callgrind is ~50x slower.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/protocompat-bench/googleapis/new}
bench=$here/$(cd "$here" && cargo bench --bench frontend --no-run 2>&1 |
  sed -n 's/.*(\(target\/[^)]*\)).*/\1/p' | tail -1)
count() {
  BENCH_ONLY=$1 BENCH_RUNS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$dir" 2>&1 |
    awk '/Collected/ {print $NF}'
}
bytes=$(find "$dir" -name '*.proto' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
read_only=$(count read)
lex=$(count lex)
parse=$(count parse)
python3 - "$bytes" "$read_only" "$lex" "$parse" <<'PY'
import sys
mb, base, lex, parse = int(sys.argv[1]) / 1e6, *map(int, sys.argv[2:])
print(f"{mb:.1f} MB of .proto text")
print(f"lexer           {(lex - base) / mb / 1e6:6.2f} M instructions/MB")
print(f"lexer + parser  {(parse - base) / mb / 1e6:6.2f} M instructions/MB")
PY
