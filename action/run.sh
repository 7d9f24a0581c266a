#!/usr/bin/env bash
# The GitHub Action's check step (action.yml), kept in a script so that it can be tested with
# a simulated GITHUB_* environment (tests/action.rs).
#
# Inputs arrive as INPUT_* environment variables (never spliced into the script):
#   INPUT_AGAINST   revision to compare with; default, from the event ($GITHUB_EVENT_NAME,
#                   $GITHUB_EVENT_PATH), through the merge base with HEAD:
#                     pull_request, pull_request_target  pull_request.base.sha
#                                                        (else origin/$GITHUB_BASE_REF)
#                     merge_group                        merge_group.base_sha
#                     push                               before; a new branch: origin/<default branch>
#                   any other event needs INPUT_AGAINST (an error otherwise, never a pass)
#   INPUT_ROOT      schema directory (default .)
#   INPUT_CONFIG    configuration file (default: the one at the root)
#   INPUT_INCLUDE   include roots, one per line (each becomes -I DIR)
#   INPUT_ALLOW_MISSING_IMPORTS  true: --allow-missing-imports
#   INPUT_HISTORY   true: --history (the base's whole history; a shallow clone is an error)
#   INPUT_FAIL_ON   error | warning | never (default error)
#   INPUT_SARIF     path to write SARIF to (default: none)
#   INPUT_SUMMARY   true: append a Markdown report to $GITHUB_STEP_SUMMARY (default true)
# Writes annotations (workflow commands) to stdout and `findings` / `sarif` to $GITHUB_OUTPUT.
# Exit: 0 passed, 1 breaking changes at the fail-on level, 2 the check could not be done.
set -euo pipefail

PROTOCOMPAT="${PROTOCOMPAT:-protocompat}"
root="${INPUT_ROOT:-.}"
fail_on="${INPUT_FAIL_ON:-error}"
summary="${INPUT_SUMMARY:-true}"

if [ -n "${GITHUB_WORKSPACE:-}" ]; then
  cd "$GITHUB_WORKSPACE"
fi

# A field of the event payload, or nothing.
event_field() {
  local path="${GITHUB_EVENT_PATH:-}"
  [ -n "$path" ] && [ -f "$path" ] || return 0
  if command -v jq >/dev/null 2>&1; then
    jq -r "$1 // empty" "$path"
  else
    python3 -c 'import json,sys
value = json.load(open(sys.argv[1]))
for key in sys.argv[2].strip(".").split("."):
    value = value.get(key) if isinstance(value, dict) else None
print(value if isinstance(value, str) else "")' "$path" "$1"
  fi
}

write_output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "$1=$2" >> "$GITHUB_OUTPUT"
  fi
}

# Stops the step: an error annotation saying what is wrong and how to fix it. Never a pass:
# a check that could not be done must not look like a clean one.
fail() {
  echo "::error title=protocompat::$1"
  echo "protocompat action: $1" >&2
  exit 2
}

is_shallow() {
  [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = "true" ]
}

has_commit() {
  git cat-file -e "$1^{commit}" 2>/dev/null
}

# A commit the event names is missing from the checkout: the usual cause is a shallow clone.
missing_commit() {
  if is_shallow; then
    fail "$1 ($2) is not in this shallow checkout: check out the full history with actions/checkout's \`fetch-depth: 0\` (it fetches a single commit by default)."
  fi
  fail "$1 ($2) is not in the checkout. $3"
}

no_base() {
  fail "$1 Set the action's \`against\` input to the revision to compare with (for example \`against: origin/main\`, with actions/checkout's \`fetch-depth: 0\`)."
}

# The revision to compare with, from the `against` input or the event, in $against; with
# --merge-base in $merge_base for event revisions (a pull request is judged against where it
# left its base, not against everything that landed on the base since).
against="${INPUT_AGAINST:-}"
merge_base=()
event="${GITHUB_EVENT_NAME:-}"
zero=0000000000000000000000000000000000000000
if [ -z "$against" ]; then
  merge_base=(--merge-base)
  if [ -z "${GITHUB_EVENT_PATH:-}" ] || [ ! -f "${GITHUB_EVENT_PATH:-}" ]; then
    no_base "No event payload (GITHUB_EVENT_PATH is ${GITHUB_EVENT_PATH:-unset}), so there is no base revision."
  fi
  case "$event" in
    pull_request | pull_request_target)
      against="$(event_field .pull_request.base.sha)"
      if [ -z "$against" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
        against="origin/$GITHUB_BASE_REF"
      fi
      [ -n "$against" ] || no_base "The $event payload has no pull_request.base.sha and GITHUB_BASE_REF is not set."
      # pull_request_target checks out the base branch unless told otherwise: comparing the
      # base with itself would pass every pull request.
      head="$(event_field .pull_request.head.sha)"
      if [ -z "$head" ] && [ "$event" = pull_request_target ]; then
        no_base "The pull_request_target payload has no pull_request.head.sha."
      fi
      if [ -n "$head" ]; then
        has_commit "$head" || missing_commit "The pull request's head commit" "$head" \
          "Check it out with actions/checkout's \`ref: \${{ github.event.pull_request.head.sha }}\` and \`fetch-depth: 0\`."
        if ! git merge-base --is-ancestor "$head" HEAD; then
          fail "The checkout (HEAD $(git rev-parse --short HEAD)) does not contain the pull request's head commit $head: on pull_request_target, actions/checkout checks out the base branch; check out the pull request with \`ref: \${{ github.event.pull_request.head.sha }}\` and \`fetch-depth: 0\`."
        fi
      fi
      ;;
    merge_group)
      against="$(event_field .merge_group.base_sha)"
      [ -n "$against" ] || no_base "The merge_group payload has no merge_group.base_sha."
      ;;
    push)
      against="$(event_field .before)"
      [ -n "$against" ] || no_base "The push payload has no \`before\` commit."
      if [ "$against" = "$zero" ]; then
        # A new branch: compare with the default branch where this branch left it.
        default_branch="$(event_field .repository.default_branch)"
        ref="$(event_field .ref)"
        [ -n "$default_branch" ] || no_base "A push that creates ${ref:-a branch}, and the payload names no default branch to compare with."
        if [ "$ref" = "refs/heads/$default_branch" ]; then
          # The default branch itself is new: the repository had no schema before this push.
          echo "::notice title=protocompat::This push creates the default branch ($default_branch): there is no earlier revision that it could break; nothing to check."
          write_output findings 0
          exit 0
        fi
        against="origin/$default_branch"
        git rev-parse --verify --quiet "$against^{commit}" >/dev/null ||
          missing_commit "The default branch" "$against" \
            "Check out with actions/checkout's \`fetch-depth: 0\`, which fetches every branch."
        echo "::notice title=protocompat::This push creates ${ref#refs/heads/}: comparing with the default branch ($against) at their merge base."
      else
        has_commit "$against" || missing_commit "The commit before the push" "$against" \
          "After a force push it may be gone; set the action's \`against\` input (for example \`against: origin/main\`)."
      fi
      ;;
    *)
      no_base "The ${event:-unnamed} event names no revision to compare with (protocompat knows pull_request, pull_request_target, merge_group and push)."
      ;;
  esac
fi

# A revision that is not in the checkout: in a shallow one, name the cure here (the check's own
# error says the same on stderr, but only this line becomes an annotation).
if ! git rev-parse --verify --quiet "$against^{commit}" >/dev/null && is_shallow; then
  missing_commit "The revision to compare with" "$against" ""
fi

common=(check "$root" --against "$against" "${merge_base[@]}")
if [ -n "${INPUT_CONFIG:-}" ]; then
  common+=(--config "$INPUT_CONFIG")
fi
while IFS= read -r dir; do
  dir="${dir#"${dir%%[![:space:]]*}"}"
  dir="${dir%"${dir##*[![:space:]]}"}"
  [ -n "$dir" ] && common+=(-I "$dir")
done <<< "${INPUT_INCLUDE:-}"
if [ "${INPUT_ALLOW_MISSING_IMPORTS:-false}" = "true" ]; then
  common+=(--allow-missing-imports)
fi
if [ "${INPUT_HISTORY:-false}" = "true" ]; then
  # The audit must see every commit: a shallow clone would hide old deletions (a pass that
  # checked nothing).
  if is_shallow; then
    fail "\`history: true\` reads the whole git history, but this checkout is shallow: check out with actions/checkout's \`fetch-depth: 0\`."
  fi
  common+=(--history)
fi

# Annotations on stdout; this run's exit code decides the step's.
status=0
"$PROTOCOMPAT" "${common[@]}" --format github --fail-on "$fail_on" || status=$?
if [ "$status" -ge 2 ]; then
  hint=""
  if is_shallow; then
    hint=" The checkout is shallow: actions/checkout's \`fetch-depth: 0\` fetches the history the check needs."
  fi
  echo "::error title=protocompat::The check could not be done (exit $status); see the messages above.$hint"
  # The errors again (stderr has shown them already): in the job summary, and in the SARIF
  # file as a run that did not succeed, so code scanning shows a tool error, not a clean run.
  if [ "$summary" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    "$PROTOCOMPAT" "${common[@]}" --format markdown 2>/dev/null >> "$GITHUB_STEP_SUMMARY" || true
  fi
  if [ -n "${INPUT_SARIF:-}" ]; then
    mkdir -p "$(dirname "$INPUT_SARIF")"
    "$PROTOCOMPAT" "${common[@]}" --format sarif 2>/dev/null > "$INPUT_SARIF" || true
    write_output sarif "$INPUT_SARIF"
  fi
  exit "$status"
fi

# The same check again in another format: the first run showed its warnings (on stderr and as
# annotations), so a later run's stderr is shown only when it fails.
again() {
  local err rc=0
  err="$(mktemp)"
  "$PROTOCOMPAT" "${common[@]}" "$@" 2>"$err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$err" >&2
  fi
  rm -f "$err"
  return "$rc"
}

findings="$(again --format msvs --fail-on never | grep -c . || true)"
write_output findings "$findings"

if [ -n "${INPUT_SARIF:-}" ]; then
  mkdir -p "$(dirname "$INPUT_SARIF")"
  again --format sarif --fail-on never > "$INPUT_SARIF"
  write_output sarif "$INPUT_SARIF"
fi

if [ "$summary" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  link_base=()
  if [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_SHA:-}" ]; then
    link_base=(--link-base "${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/")
  fi
  again --format markdown --fail-on never "${link_base[@]}" >> "$GITHUB_STEP_SUMMARY"
fi

exit "$status"
