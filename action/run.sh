#!/usr/bin/env bash
# The GitHub Action's check step (action.yml), kept in a script so that it can be tested with
# a simulated GITHUB_* environment (tests/action.rs).
#
# Inputs arrive as INPUT_* environment variables (never spliced into the script):
#   INPUT_AGAINST   revision to compare with; default: the pull request's base commit or, on
#                   push, the commit before the push (from $GITHUB_EVENT_PATH), through the
#                   merge base with HEAD
#   INPUT_ROOT      schema directory (default .)
#   INPUT_CONFIG    configuration file (default: the one at the root)
#   INPUT_INCLUDE   include roots, one per line (each becomes -I DIR)
#   INPUT_ALLOW_MISSING_IMPORTS  true: --allow-missing-imports
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

against="${INPUT_AGAINST:-}"
merge_base=()
if [ -z "$against" ]; then
  against="$(event_field .pull_request.base.sha)"
  [ -n "$against" ] || against="$(event_field .before)"
  merge_base=(--merge-base)
fi
if [ -z "$against" ] || [ "$against" = "0000000000000000000000000000000000000000" ]; then
  echo "::notice title=protocompat::No previous revision to compare with (a new branch or an event without a base); nothing to check."
  write_output findings 0
  exit 0
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

# Annotations on stdout; this run's exit code decides the step's.
status=0
"$PROTOCOMPAT" "${common[@]}" --format github --fail-on "$fail_on" || status=$?
if [ "$status" -ge 2 ]; then
  echo "::error title=protocompat::The check could not be done (exit $status); see the messages above."
  exit "$status"
fi

findings="$("$PROTOCOMPAT" "${common[@]}" --format msvs --fail-on never | grep -c . || true)"
write_output findings "$findings"

if [ -n "${INPUT_SARIF:-}" ]; then
  mkdir -p "$(dirname "$INPUT_SARIF")"
  "$PROTOCOMPAT" "${common[@]}" --format sarif --fail-on never > "$INPUT_SARIF"
  write_output sarif "$INPUT_SARIF"
fi

if [ "$summary" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  link_base=()
  if [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_SHA:-}" ]; then
    link_base=(--link-base "${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/")
  fi
  "$PROTOCOMPAT" "${common[@]}" --format markdown --fail-on never "${link_base[@]}" >> "$GITHUB_STEP_SUMMARY"
fi

exit "$status"
