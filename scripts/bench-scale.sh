#!/usr/bin/env bash
# Measures protocompat on the hostile-scale inputs of tests/hostile.rs (which check only the
# results, never the time): wall time and peak RSS with /usr/bin/time -v, one row per case.
#
#   scripts/bench-scale.sh [FIELDS]      # FIELDS per message, default 100000
#
# Cases: every field of one message changes type (pairing); half of them deleted (grouping,
# JSON and text output); `--fix` on those deletions (one edit shared by 50,000 findings);
# the same for enum values. Not run in CI: its numbers depend on the machine.
set -euo pipefail

fields=${1:-100000}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/protocompat-scale}
protocompat=${PROTOCOMPAT:-$here/target/release/protocompat}
[[ -x $protocompat ]] || (cd "$here" && cargo build --release)

rm -rf "$dir" && mkdir -p "$dir"
python3 - "$dir" "$fields" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
# Field numbers skip the implementation's reserved 19000-19999 band.
numbers = [k for k in range(1, n + 1001) if not 19000 <= k <= 19999][:n]

def message(ty, keep):
    body = "".join(f"  {ty} f{i} = {k};\n" for i, k in enumerate(numbers) if keep(i))
    return f'syntax = "proto3";\npackage big.v1;\nmessage M {{\n{body}}}\n'

def enum(keep):
    body = "".join(f"  E_V{k} = {k};\n" for k in range(1, n + 1) if keep(k))
    return f'syntax = "proto3";\npackage big.v1;\nenum E {{\n  E_UNSPECIFIED = 0;\n{body}}}\n'

cases = {
    "retyped": (message("int32", lambda i: True), message("sint32", lambda i: True)),
    "deleted": (message("int32", lambda i: True), message("int32", lambda i: i % 2)),
    "enum-deleted": (enum(lambda k: True), enum(lambda k: k % 2)),
}
for name, (old, new) in cases.items():
    for side, text in (("old", old), ("new", new)):
        os.makedirs(f"{root}/{name}/{side}", exist_ok=True)
        with open(f"{root}/{name}/{side}/a.proto", "w") as f:
            f.write(text)
PY

printf '%-34s %10s %10s %6s %s\n' case wall peak exit output
measure() {
  local name=$1 case=$2
  shift 2
  local timing="$dir/$name.time" rc=0
  (cd "$dir/$case" && /usr/bin/time -v "$protocompat" check new --against old "$@" \
    >"$dir/$name.out" 2>"$timing") || rc=$?
  local wall rss size
  wall=$(grep 'Elapsed (wall clock)' "$timing" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$timing" | awk '{printf "%.0f MB", $NF / 1024}')
  size=$(du -h "$dir/$name.out" | cut -f1)
  printf '%-34s %10s %10s %6s %s\n' "$name" "$wall" "$rss" "$rc" "$size"
}

measure "retyped, json" retyped --format json
measure "deleted, json" deleted --format json
measure "deleted, text" deleted
measure "enum values deleted, json" enum-deleted --format json
measure "deleted, --fix --dry-run" deleted --fix --dry-run
measure "deleted, --fix" deleted --fix
echo "reserved statements written by --fix: $(grep -c reserved "$dir/deleted/new/a.proto")"
