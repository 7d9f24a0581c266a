#!/usr/bin/env bash
# The benchmark: protocompat (and buf, when BUF names its binary) side by side, in paired
# alternation (protocompat, buf, protocompat, buf, ...: both see the same machine load), on
#
#   googleapis-dir   googleapis HEAD vs HEAD~500, two exported directories
#   googleapis-git   the same two revisions read from the git objects (a bare clone)
#   gen500, gen5000, gen10000
#                    generated pairs (scripts/gen_bench_tree.py) of that many files
#   precommit10      10 files in a repository, one breaking change staged (`--staged`)
#   googleapis-staged  the pre-commit hook on googleapis: a working clone of HEAD with one
#                    field deleted from a leaf service (secretmanager v1) and staged,
#                    `check --staged --against HEAD`, then the same with `--history`; warm:
#                    one untimed run first fills `.git/protocompat/` (the narrowed build's
#                    cache, and the audit's ledger for --history). For the cold figure,
#                    delete .git/protocompat/narrow.bin before a run (or set
#                    PROTOCOMPAT_FULL_BUILD=1: the full build, what a cold run does).
# PROTOCOMPAT=target/profiling/protocompat benchmarks the same build with symbols, for perf.
#
# For each case and tool it prints the median wall time, CPU (user + system) and peak RSS
# over RUNS runs (the child's own figures from wait4, to the microsecond, so the hook case's
# milliseconds show), the finding count, the range of the 1-minute load average over those runs (beside
# each figure: quote it with the figure), and the buf / protocompat ratios. After the
# generated cases it prints the scaling exponent of wall and CPU time from the smallest to
# the largest pair run (500 -> 10,000 files: log(t10000 / t500) / log(20); 1 is linear), and
# at the end a Markdown table of every figure, for the README.
#
# Usage: scripts/bench.sh [CASE...]          (default: every case)
# Environment:
#   RUNS         runs per tool and case (default 3; the median is reported)
#   BUF          a buf binary (e.g. /tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf);
#                unset: protocompat only. buf runs with HOME set to a scratch directory.
#   PROTOCOMPAT  the binary to measure (default target/release/protocompat, built if missing)
#   BENCH_DIR    scratch directory (default /tmp/protocompat-bench)
#   GOOGLEAPIS   a googleapis git repository (any clone, bare or not); unset: cloned (bare)
#                from https://github.com/googleapis/googleapis into BENCH_DIR once
#   GOOGLEAPIS_BACK  how far back the old revision is (default 500: HEAD vs HEAD~500)
#   BENCH_USE    rules for the generated pairs' buf.yaml (default FILE)
#
# Not run in CI: it takes minutes and its numbers depend on the machine. The micro-benchmarks
# of the lexer and parser are `cargo bench --bench frontend`.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/protocompat-bench}
runs=${RUNS:-3}
buf=${BUF:-}
protocompat=${PROTOCOMPAT:-$here/target/release/protocompat}
back=${GOOGLEAPIS_BACK:-500}
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(googleapis-dir googleapis-git gen500 gen5000 gen10000 precommit10 googleapis-staged)

if [[ ! -x $protocompat ]]; then
  # target/profiling/ is the release build with symbols, for perf (Cargo.toml).
  case $protocompat in
    */target/profiling/*) (cd "$here" && cargo build --profile profiling) ;;
    *) (cd "$here" && cargo build --release) ;;
  esac
fi
protocompat=$(realpath "$protocompat")
if [[ -n $buf ]]; then
  buf=$(realpath "$buf")
  mkdir -p "$dir/buf-home"
fi
mkdir -p "$dir"

count_ours='import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))'
count_buf='import sys; print(sum(1 for l in open(sys.argv[1]) if l.strip()))'

# --- inputs -----------------------------------------------------------------------------

googleapis_repo() {
  if [[ -n ${GOOGLEAPIS:-} ]]; then
    echo "$GOOGLEAPIS"
    return
  fi
  local bare=$dir/googleapis.git
  if [[ ! -d $bare ]]; then
    git clone --quiet --bare https://github.com/googleapis/googleapis "$bare" >&2
  fi
  echo "$bare"
}

# Exports googleapis at HEAD and HEAD~$back into $dir/googleapis/{new,old} (once per pair of
# commits); sets git_dir, new_rev, old_rev. The revisions are read through a scratch bare
# repository borrowing the clone's objects (alternates): a partial mirror may lack a few large
# blobs, and each one missing is replaced by its version in the other revision (or the path
# dropped on both sides when neither has it), so both tools still read the same two trees.
googleapis_trees() {
  local repo source
  repo=$(googleapis_repo)
  source=$(cd "$repo" && realpath "$(git rev-parse --git-dir)")
  git_dir=$dir/googleapis-work.git
  if [[ ! -d $git_dir ]]; then
    git init --quiet --bare "$git_dir"
  fi
  echo "$source/objects" >"$git_dir/objects/info/alternates"
  local head old
  head=$(git --git-dir="$source" rev-parse 'HEAD^{commit}')
  old=$(git --git-dir="$source" rev-parse "HEAD~$back^{commit}")
  new_rev=$(complete_commit "$head" "$old")
  old_rev=$(complete_commit "$old" "$head")
  local stamp=$dir/googleapis/revs
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$new_rev $old_rev" ]]; then
    rm -rf "$dir/googleapis"
    mkdir -p "$dir/googleapis/new" "$dir/googleapis/old"
    git --git-dir="$git_dir" archive "$new_rev" | tar -x -C "$dir/googleapis/new"
    git --git-dir="$git_dir" archive "$old_rev" | tar -x -C "$dir/googleapis/old"
    # Symlinks are dropped: buf follows them, protocompat reading git objects does not.
    find "$dir/googleapis" -type l -delete
    echo "$new_rev $old_rev" >"$stamp"
  fi
  # The directory case leaves preview/ out by deleting it from both trees rather than by
  # --exclude-path: buf 1.75.0 applies an input's exclude paths to the --against directory
  # relative to the wrong root ("../new/preview: is outside the context directory").
  rm -rf "$dir/googleapis/new/preview" "$dir/googleapis/old/preview"
}

# complete_commit REV OTHER: REV itself when every blob of its tree is present, else a commit
# of REV's tree with each missing blob taken from OTHER at the same path (or dropped).
complete_commit() {
  local rev=$1 other=$2 missing
  missing=$(git --git-dir="$git_dir" ls-tree -r "$rev" | awk '$2 == "blob" {print $3}' |
    git --git-dir="$git_dir" cat-file --batch-check | awk '$2 == "missing" {print $1}')
  if [[ -z $missing ]]; then
    echo "$rev"
    return
  fi
  local index=$dir/complete.index
  rm -f "$index"
  GIT_INDEX_FILE=$index git --git-dir="$git_dir" read-tree "$rev"
  local blob path replacement
  while read -r blob; do
    path=$(git --git-dir="$git_dir" ls-tree -r "$rev" | awk -v b="$blob" '$3 == b {print $4; exit}')
    replacement=$(git --git-dir="$git_dir" rev-parse --verify --quiet "$other:$path" || true)
    if [[ -n $replacement ]] && git --git-dir="$git_dir" cat-file -e "$replacement" 2>/dev/null; then
      echo "$path @ ${rev:0:10}: blob missing from the clone, $other's version used" >&2
      GIT_INDEX_FILE=$index git --git-dir="$git_dir" update-index --cacheinfo "100644,$replacement,$path"
    else
      echo "$path @ ${rev:0:10}: blob missing from the clone, path dropped" >&2
      printf '0 %040d\t%s\n' 0 "$path" |
        GIT_INDEX_FILE=$index git --git-dir="$git_dir" update-index --index-info
    fi
  done <<<"$missing"
  local tree
  tree=$(GIT_INDEX_FILE=$index git --git-dir="$git_dir" write-tree)
  git --git-dir="$git_dir" -c user.name=bench -c user.email=bench@example.com \
    commit-tree "$tree" -m "$rev with missing blobs completed"
}

generated() {
  local files=$1 out=$dir/gen$1
  if [[ ! -f $out/.done ]]; then
    python3 "$here/scripts/gen_bench_tree.py" "$out" --files "$files" --changes $((files / 16 + 1)) \
      --use "${BENCH_USE:-FILE}" >/dev/null
    touch "$out/.done"
  fi
}

# A repository of 10 generated files, committed, with one breaking change staged.
precommit() {
  local out=$dir/precommit10
  if [[ ! -f $out/.done ]]; then
    rm -rf "$out"
    python3 "$here/scripts/gen_bench_tree.py" "$out/gen" --files 10 --changes 1 \
      --use "${BENCH_USE:-FILE}" >/dev/null
    mkdir -p "$out/repo"
    cp -r "$out/gen/old/." "$out/repo/"
    cp "$out/gen/new/buf.yaml" "$out/repo/" 2>/dev/null || true
    git -C "$out/repo" init --quiet
    git -C "$out/repo" add -A
    git -C "$out/repo" -c user.name=bench -c user.email=bench@example.com commit --quiet -m old
    find "$out/repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    cp -r "$out/gen/new/." "$out/repo/"
    git -C "$out/repo" add -A
    touch "$out/.done"
  fi
}

# A working clone of googleapis at the benchmark's HEAD (missing blobs completed) with one
# field of a leaf service deleted and staged; sets staged_repo.
googleapis_staged() {
  googleapis_trees
  staged_repo=$dir/googleapis-staged
  if [[ "$(cat "$staged_repo.rev" 2>/dev/null)" != "$new_rev" ]]; then
    rm -rf "$staged_repo"
    git clone --quiet --shared --no-checkout "$git_dir" "$staged_repo"
    git -C "$staged_repo" -c advice.detachedHead=false checkout --quiet -f "$new_rev"
    python3 - "$staged_repo/google/cloud/secretmanager/v1/service.proto" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
at = text.index("message ListSecretVersionsRequest")
line = re.compile(r"\n  int32 page_size = 2[^\n]*").search(text, at)
open(path, "w").write(text[: line.start()] + text[line.end() :])
PY
    git -C "$staged_repo" add google/cloud/secretmanager/v1/service.proto
    echo "$new_rev" >"$staged_repo.rev"
  fi
}

# --- measuring --------------------------------------------------------------------------

# Runs a command (argv[3:]) in directory argv[1] with stdout and stderr to files named by
# argv[2] (.out, .err) and prints "wall cpu rss_kb load rc": wall from a monotonic clock
# around the child alone, CPU (user + system) from its rusage (wait4), load the 1-minute
# load average as it started. The child is the tool itself, not /usr/bin/time around it:
# that wrapper's own start added 4-6 ms of wall time and ~1.3 ms of CPU to every run (the
# 10-file hook case: 11.1 ms through it, 4.7 ms direct, load 5), a third of what it measured.
# The peak RSS is the child's ru_maxrss. Linux counts in it the memory of the process the
# child was spawned from (this Python, ~14 MiB) up to the exec, so a peak at or below that
# floor cannot be told apart from it: the command then runs once more under /usr/bin/time
# (forked from a ~2 MiB process) for its peak alone.
measure='
import os, resource, subprocess, sys, time
cwd, base, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
load = open("/proc/loadavg").read().split()[0]
floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open(base + ".out", "wb") as out, open(base + ".err", "wb") as err:
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
rc = os.waitstatus_to_exitcode(status)
rss = usage.ru_maxrss
if rss <= floor:
    with open(base + ".out", "wb") as out, open(base + ".err", "wb") as err:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", base + ".t"] + argv,
                       cwd=cwd, stdout=out, stderr=err)
    rss = open(base + ".t").read().split()[-1]
print(f"{wall:.5f} {usage.ru_utime + usage.ru_stime:.4f} {rss} {load} {rc}")
'

# run NAME COUNT_EXPR DIR CMD...: one timed run; appends "wall cpu rss_kb load" to
# $dir/NAME.times.
run() {
  local name=$1 count=$2 cwd=$3
  shift 3
  local line rc
  line=$(HOME=$dir/buf-home python3 -c "$measure" "$cwd" "$dir/$name" "$@")
  rc=${line##* }
  # 1 (protocompat) and 100 (buf): breaking changes found.
  if [[ $rc -gt 1 && $rc -ne 100 ]]; then
    echo "$name: exit $rc (see $dir/$name.err)" >&2
  fi
  echo "${line% *}" >>"$dir/$name.times"
  python3 -c "$count" "$dir/$name.out" >"$dir/$name.count" 2>/dev/null || echo '?' >"$dir/$name.count"
}

# median FILE COLUMN
median() {
  sort -g -k"$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {print v[int((NR + 1) / 2)]}'
}

# case NAME DIR OURS_ARGS -- BUF_ARGS
bench_case() {
  local name=$1 cwd=$2
  shift 2
  local ours=() theirs=()
  while [[ $1 != -- ]]; do ours+=("$1"); shift; done
  shift
  theirs=("$@")
  rm -f "$dir/$name.pc.times" "$dir/$name.buf.times"
  local load_before load_after
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((i = 0; i < runs; i++)); do
    run "$name.pc" "$count_ours" "$cwd" "$protocompat" "${ours[@]}"
    [[ -z $buf ]] || run "$name.buf" "$count_buf" "$cwd" "$buf" "${theirs[@]}"
  done
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  report "$name" pc protocompat
  [[ -z $buf ]] || report "$name" buf buf
  local ratios=""
  if [[ -n $buf ]]; then
    ratios=$(python3 - "$(median "$dir/$name.pc.times" 1)" "$(median "$dir/$name.buf.times" 1)" \
      "$(median "$dir/$name.pc.times" 2)" "$(median "$dir/$name.buf.times" 2)" <<'PY'
import sys
w0, w1, c0, c1 = map(float, sys.argv[1:])
r = lambda a, b: f"{b / a:.1f}x" if a > 0 else "n/a"
print(f"wall {r(w0, w1)}, CPU {r(c0, c1)}")
PY
    )
    printf '%-16s buf / protocompat: %s\n' "" "$ratios"
  fi
  printf '%-16s load average %s before, %s after\n' "" "$load_before" "$load_after"
  summary+=("| $name | $(cell "$name" pc) | $([[ -z $buf ]] && echo "not run" || cell "$name" buf) | ${ratios:-} | $(cat "$dir/$name.pc.count") |")
}

# seconds VALUE: a time as it reads best: milliseconds below one second.
seconds() {
  awk -v s="$1" 'BEGIN { if (s < 1) printf "%.1f ms", s * 1000; else printf "%.2f s", s }'
}

# loads FILE: the range of the load average over a case's runs ("2.1" or "2.1-3.4").
loads() {
  sort -g -k4 "$1" | awk 'NR == 1 {lo = $4} {hi = $4} END {print (lo == hi ? lo : lo "-" hi)}'
}

report() {
  local name=$1 key=$2 tool=$3 t=$dir/$1.$2.times
  printf '%-16s %-12s wall %9s  CPU %9s  peak RSS %6s MiB  findings %-6s load %s\n' \
    "$name" "$tool" "$(seconds "$(median "$t" 1)")" "$(seconds "$(median "$t" 2)")" \
    "$(($(median "$t" 3) / 1024))" "$(cat "$dir/$name.$key.count")" "$(loads "$t")"
}

# cell NAME KEY: "wall / CPU / peak (load L)" for the summary table.
cell() {
  local t=$dir/$1.$2.times
  echo "$(seconds "$(median "$t" 1)") / $(seconds "$(median "$t" 2)") / $(($(median "$t" 3) / 1024)) MiB (load $(loads "$t"))"
}

# The scaling exponent of protocompat's wall and CPU time between the smallest and the
# largest generated pair that this run measured.
scaling() {
  local sizes=() n
  for n in 500 5000 10000; do
    [[ -f $dir/gen$n.pc.times && " ${cases[*]} " == *" gen$n "* ]] && sizes+=("$n")
  done
  [[ ${#sizes[@]} -ge 2 ]] || return 0
  local small=${sizes[0]} large=${sizes[-1]}
  python3 - "$small" "$large" "$(median "$dir/gen$small.pc.times" 1)" \
    "$(median "$dir/gen$large.pc.times" 1)" "$(median "$dir/gen$small.pc.times" 2)" \
    "$(median "$dir/gen$large.pc.times" 2)" <<'PY'
import math, sys
small, large, w0, w1, c0, c1 = map(float, sys.argv[1:])
e = lambda a, b: f"{math.log(b / a) / math.log(large / small):.2f}" if a > 0 and b > 0 else "n/a"
print(f"scaling {small:.0f} -> {large:.0f} files: exponent {e(w0, w1)} (wall), {e(c0, c1)} (CPU); 1 is linear")
PY
}

summary=()

# googleapis' preview/ (since 2026) repeats google/api/*.proto under the same import paths,
# so the tree does not build from its top with it (neither tool accepts the duplicates).
skip=(--exclude-path preview)

for c in "${cases[@]}"; do
  case $c in
    googleapis-dir | googleapis-git | gen500 | gen5000 | gen10000 | precommit10 | googleapis-staged) ;;
    *)
      echo "unknown case $c (expected googleapis-dir, googleapis-git, gen500, gen5000, gen10000, precommit10 or googleapis-staged)" >&2
      exit 2
      ;;
  esac
done

echo "protocompat: $protocompat; buf: ${buf:-not set (BUF=...)}; $runs runs each, medians"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for c in "${cases[@]}"; do
  case $c in
    googleapis-dir)
      googleapis_trees
      bench_case "$c" "$dir/googleapis/new" check . --against ../old --format json \
        -- breaking . --against ../old --error-format json
      ;;
    googleapis-git)
      googleapis_trees
      bench_case "$c" "$dir" check . --git-dir "$git_dir" --rev "$new_rev" --against "$old_rev" \
        "${skip[@]}" --format json \
        -- breaking "$git_dir#format=git,ref=$new_rev" \
        --against "$git_dir#format=git,ref=$old_rev" "${skip[@]}" --error-format json
      ;;
    gen500 | gen5000 | gen10000)
      generated "${c#gen}"
      bench_case "$c" "$dir/$c/new" check . --against ../old --format json \
        -- breaking . --against ../old --error-format json
      ;;
    precommit10)
      precommit
      bench_case "$c" "$dir/precommit10/repo" check . --staged --against HEAD --format json \
        -- breaking . --against .git#ref=HEAD --error-format json
      ;;
    googleapis-staged)
      googleapis_staged
      staged=(check . --staged --against HEAD "${skip[@]}" --exclude-path google/cloud/compute/v1beta --format json)
      # Untimed: fills the caches (the first run is the full build, and the audit's walk).
      (cd "$staged_repo" && "$protocompat" "${staged[@]}" --history >/dev/null 2>&1) || true
      bench_case "$c" "$staged_repo" "${staged[@]}" \
        -- breaking . --against .git#ref=HEAD "${skip[@]}" --error-format json
      bench_case "$c-history" "$staged_repo" "${staged[@]}" --history \
        -- breaking . --against .git#ref=HEAD "${skip[@]}" --error-format json
      ;;
    *)
      echo "unknown case $c" >&2
      exit 2
      ;;
  esac
done
scaling
echo
echo "| case | protocompat wall / CPU / peak | buf wall / CPU / peak | buf / protocompat | findings (protocompat) |"
echo "| --- | --- | --- | --- | --- |"
printf '%s\n' "${summary[@]}"
