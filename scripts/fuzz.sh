#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one job each, seeding the corpora
# from testdata/ and buf's conformance cases. Crashes are kept under fuzz/artifacts/<target>/;
# copy each one to testdata/fuzz-regressions/<target>/ once fixed (cargo test replays them).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   scripts/fuzz.sh --smoke      # a quick look: 20 s per target
#
# Run on demand, not by .ci/run: building the targets is a second full build. `cargo test`
# replays testdata/fuzz-regressions/ without it (tests/cli/hostile.rs, `fuzz_regressions`).
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). Runs on the
# stable toolchain without a sanitizer: the crate has no `unsafe` code, so AddressSanitizer
# would find nothing that Rust's own checks do not, and libFuzzer's coverage instrumentation
# works on stable. Targets are built optimized with debug assertions and overflow checks on.
# FUZZ_TOOLCHAIN=nightly FUZZ_SANITIZER=address selects the nightly-only sanitizers instead.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=60
if [ "${1:-}" = "--smoke" ]; then
  seconds=20
  shift
elif [ -n "${1:-}" ]; then
  seconds="$1"
  shift
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(parse model compare config)

toolchain=${FUZZ_TOOLCHAIN:+"+$FUZZ_TOOLCHAIN"}
sanitizer=${FUZZ_SANITIZER:-none}

echo "== fuzz: ${targets[*]} (${seconds}s each, sanitizer: $sanitizer)"
if ! cargo fuzz --help >/dev/null 2>&1; then
  echo "cargo-fuzz is not installed: run \`cargo install cargo-fuzz --locked\`" >&2
  exit 2
fi

conformance=""
for candidate in ../shared/conformance/buf/cases /work/shared/conformance/buf/cases; do
  [ -d "$candidate" ] && conformance="$candidate" && break
done

# Case directories holding an old and a new tree: testdata/rules/*/{old,new}, and buf's
# conformance cases */{previous,current}.
case_pairs() {
  for dir in testdata/*/*/; do
    [ -d "$dir/old" ] && [ -d "$dir/new" ] && echo "$dir/old $dir/new"
  done
  if [ -n "$conformance" ]; then
    for dir in "$conformance"/*/; do
      [ -d "$dir/previous" ] && [ -d "$dir/current" ] && echo "$dir/previous $dir/current"
    done
  fi
}

# Prints a tree's .proto files in the multi-file input format of fuzz/harness.rs
# (`//@ [old|new] PATH` before each file).
multi_file() {
  local root="$1" side="$2"
  (cd "$root" && find . -name '*.proto' -type f | sort) | while read -r path; do
    path="${path#./}"
    echo "//@ ${side:+$side }$path"
    cat "$root/$path"
    echo
  done
}

seed() {
  local target="$1" dir="fuzz/corpus/$1" n=0
  mkdir -p "$dir"
  case "$target" in
    parse)
      find testdata ${conformance:+"$conformance"} -name '*.proto' -type f | while read -r f; do
        n=$((n + 1))
        cp "$f" "$dir/seed-$n.proto"
      done
      ;;
    model)
      case_pairs | while read -r old new; do
        n=$((n + 1))
        multi_file "$old" "" >"$dir/seed-$n-old"
        multi_file "$new" "" >"$dir/seed-$n-new"
      done
      ;;
    compare)
      case_pairs | while read -r old new; do
        n=$((n + 1))
        { multi_file "$old" old; multi_file "$new" new; } >"$dir/seed-$n"
      done
      ;;
    config)
      find testdata ${conformance:+"$conformance"} \( -name 'buf*.yaml' -o -name '*.toml' \
        -o -name 'buf.work' -o -name 'buf.mod' \) \
        -type f | while read -r f; do
        n=$((n + 1))
        cp "$f" "$dir/seed-$n"
      done
      ;;
  esac
  # Regression inputs are seeds too: the fuzzer starts from what once broke.
  if [ -d "testdata/fuzz-regressions/$target" ]; then
    cp testdata/fuzz-regressions/"$target"/* "$dir"/ 2>/dev/null || true
  fi
}

status=0
for target in "${targets[@]}"; do
  seed "$target"
  mkdir -p fuzz/artifacts
  log="fuzz/artifacts/$target.log"
  echo "-- $target"
  # -rss_limit_mb and -timeout turn out-of-memory and hangs into crashes with a saved input.
  cargo $toolchain fuzz run --sanitizer "$sanitizer" "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 >"$log" 2>&1
  rc=$?
  grep -E '^#[0-9]+ +DONE|^Done [0-9]+ runs' "$log" | tail -1
  grep -E 'stat::number_of_executed_units' "$log" | tail -1
  if [ $rc -ne 0 ]; then
    status=1
    echo "fuzz $target: FAILED (exit $rc); log: $log; inputs:"
    ls fuzz/artifacts/"$target"/ 2>/dev/null | sed 's/^/  /'
    grep -m1 -A3 -E 'panicked|ERROR: libFuzzer' "$log"
  fi
done
exit $status
