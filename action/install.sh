#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): puts the release binary of the action's own
# version on PATH when one exists, so a cold run does not compile for minutes. Kept in a
# script so that it can be tested with a simulated environment (tests/action.rs).
#
# The binary is used only when the action is referenced by the tag of its version
# (`uses: OWNER/protocompat@v0.1.0` with version 0.1.0 in the action's Cargo.toml): any other
# ref (a branch, a commit) may be source that no release was built from. The archive
# `protocompat-<tag>-<target>.tar.gz` and `SHA256SUMS` come from that release
# (.github/workflows/release.yml builds both); the archive must match its line in SHA256SUMS.
#
# Environment: ACTION_REF, ACTION_REPOSITORY (github.action_ref / github.action_repository,
# passed through env; else read from GITHUB_ACTION_PATH), GITHUB_ACTION_PATH, GITHUB_SERVER_URL, RUNNER_OS, RUNNER_ARCH,
# RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT.
# Writes `installed=true` to $GITHUB_OUTPUT after installing, `installed=false` when there is
# no release binary to use (the next steps build from source). Exit 1 when a downloaded
# archive fails its checksum: never run a binary that is not the released one.
set -euo pipefail

say() {
  echo "protocompat install: $*"
}

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "$1=$2" >> "$GITHUB_OUTPUT"
  fi
}

build_instead() {
  say "$1; building from source instead"
  output installed false
  exit 0
}

# The Rust target a runner needs, as the release workflow names its archives.
runner_target() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo x86_64-unknown-linux-gnu ;;
    Linux/ARM64) echo aarch64-unknown-linux-gnu ;;
    macOS/X64) echo x86_64-apple-darwin ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    *) return 1 ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$action_path/Cargo.toml" | head -n 1)"
tag="v$version"
ref="${ACTION_REF:-}"
repository="${ACTION_REPOSITORY:-}"
# github.action_ref / action_repository are not promised inside composite actions
# (actions/runner#2473); the runner keeps a downloaded action at
# .../_actions/OWNER/REPO/REF, which says the same.
if [ -z "$ref" ] || [ -z "$repository" ]; then
  case "$action_path" in
    */_actions/*/*/*)
      rest="${action_path##*/_actions/}"
      IFS=/ read -r owner name from_path _ <<< "$rest"
      ref="${ref:-$from_path}"
      repository="${repository:-$owner/$name}"
      ;;
  esac
fi

[ -n "$version" ] || build_instead "no version in $action_path/Cargo.toml"
[ "$ref" = "$tag" ] || build_instead "the action is used at \`${ref:-an unknown ref}\`, not at its version's tag $tag"
[ -n "$repository" ] || build_instead "the action's repository is unknown"
target="$(runner_target)" || build_instead "no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"

archive="protocompat-$tag-$target.tar.gz"
base="${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download/$tag"
work="${RUNNER_TEMP:-/tmp}/protocompat-release"
rm -rf "$work" && mkdir -p "$work/bin"

if ! curl -fsSL --retry 3 -o "$work/$archive" "$base/$archive" ||
  ! curl -fsSL --retry 3 -o "$work/SHA256SUMS" "$base/SHA256SUMS"; then
  build_instead "no release asset $base/$archive (or its SHA256SUMS)"
fi

expected="$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$work/SHA256SUMS")"
actual="$(sha256_of "$work/$archive")"
if [ -z "$expected" ]; then
  echo "::error title=protocompat::SHA256SUMS of release $tag has no line for $archive"
  exit 1
fi
if [ "$expected" != "$actual" ]; then
  echo "::error title=protocompat::$archive from release $tag does not match its checksum (expected $expected, got $actual)"
  exit 1
fi

tar -xzf "$work/$archive" -C "$work/bin"
binary="$work/bin/protocompat"
if [ "$target" = x86_64-pc-windows-msvc ]; then
  binary="$binary.exe"
fi
if [ ! -f "$binary" ]; then
  echo "::error title=protocompat::$archive has no $(basename "$binary")"
  exit 1
fi
chmod +x "$binary"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$work/bin" >> "$GITHUB_PATH"
fi
say "release $tag for $target, sha256 $actual"
output installed true
