#!/usr/bin/env python3
"""Replays a real repository's history through buf and protocompat and compares findings.

    scripts/history_differential.py GIT_DIR [--subdir DIR] [--max N] [--use RULES]

For each of the last N commits (default 100) that touched SUBDIR (default: the whole tree),
both tools compare the commit with its first parent, with the same buf.yaml (v2, `use:`
RULES, default FILE,PACKAGE,WIRE_JSON,WIRE):

- buf 1.75.0 on the two trees exported with `git archive` (buf reads directories);
- protocompat straight from the git objects (`--git-dir GIT_DIR --rev C --against C^`), so
  the git-native path is what is checked.

A commit fails when the multisets of (rule, path, start/end line/column) differ or only one
tool refuses to build. buf runs with `--exclude-imports`: protocompat never reports on
imported files (README, "Differences from buf"). Needs buf (BUF env var, default the npm
install used while developing) and a release build; exits 0 with a note when buf is absent.
The last line is `bad N of M`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

BUF = os.environ.get("BUF", "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf")
HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOMPAT = os.path.join(HERE, "..", "target", "release", "protocompat")


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True,
                          text=True, check=True).stdout


def export(git_dir, commit, subdir, dest, config):
    """The tree of `commit` under `dest` (only SUBDIR), with `config` as its buf.yaml."""
    os.makedirs(dest)
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", commit, *([subdir] if subdir else [])],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    for stale in ("buf.yaml", "buf.work.yaml", "buf.lock"):
        if os.path.exists(os.path.join(dest, stale)):
            os.remove(os.path.join(dest, stale))
    with open(os.path.join(dest, "buf.yaml"), "w") as f:
        f.write(config)


def key(finding, rule_field):
    return (finding[rule_field], finding.get("path") or "", finding.get("start_line") or 0,
            finding.get("start_column") or 0, finding.get("end_line") or 0,
            finding.get("end_column") or 0)


def buf_findings(work):
    # From inside the new tree, so that buf's paths are relative to it as ours are.
    run = subprocess.run([BUF, "breaking", ".", "--against", "../old", "--exclude-imports",
                          "--error-format", "json"], cwd=os.path.join(work, "new"),
                         capture_output=True, text=True)
    found = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    failed = run.returncode not in (0, 100) or any(f.get("type") == "COMPILE" for f in found)
    return failed, Counter(key(f, "type") for f in found), run.stderr.strip()


def our_findings(git_dir, commit, work):
    # The new side's config must be the same buf.yaml: write it next to ROOT on disk and
    # point --config at it (the committed trees keep their own files).
    run = subprocess.run([PROTOCOMPAT, "check", ".", "--git-dir", git_dir, "--rev", commit,
                          "--against", f"{commit}^", "--config",
                          os.path.join(work, "new", "buf.yaml"), "--format", "json"],
                         cwd=work, capture_output=True, text=True)
    if "panicked" in run.stderr:
        return True, Counter(), "PANIC " + run.stderr.strip()
    if run.returncode == 2:
        return True, Counter(), run.stderr.strip()
    found = json.loads(run.stdout)["findings"]
    return False, Counter(key(f, "rule") for f in found), ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("git_dir")
    parser.add_argument("--subdir", default="")
    parser.add_argument("--max", type=int, default=100)
    parser.add_argument("--use", default="FILE,PACKAGE,WIRE_JSON,WIRE")
    args = parser.parse_args()
    if not os.path.exists(BUF):
        print(f"buf not found at {BUF}: skipped")
        return 0
    config = f"version: v2\nbreaking:\n  use: [{args.use}]\n"
    log = ["log", "--no-merges", "--format=%h", f"-{args.max}"]
    commits = git(args.git_dir, *log, *(["--", args.subdir] if args.subdir else [])).split()
    bad = findings = skipped = refused = 0
    for commit in commits:
        parent_has_subdir = subprocess.run(
            ["git", "--git-dir", args.git_dir, "cat-file", "-e", f"{commit}^:{args.subdir}"],
            capture_output=True).returncode == 0
        if not parent_has_subdir:
            # A first commit, or SUBDIR created by this commit: nothing to compare with.
            skipped += 1
            continue
        work = tempfile.mkdtemp(prefix="history-")
        try:
            export(args.git_dir, commit, args.subdir, os.path.join(work, "new"), config)
            export(args.git_dir, f"{commit}^", args.subdir, os.path.join(work, "old"), config)
            buf_failed, expected, buf_err = buf_findings(work)
            our_failed, got, our_err = our_findings(args.git_dir, commit, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        findings += sum(expected.values())
        if buf_failed or our_failed:
            if buf_failed != our_failed or our_err.startswith("PANIC"):
                bad += 1
                print(f"{commit}: build verdicts differ: buf {'refused' if buf_failed else 'ran'} "
                      f"({buf_err[:200]}), protocompat {'refused' if our_failed else 'ran'} "
                      f"({our_err[:300]})")
            else:
                refused += 1
            continue
        if expected != got:
            bad += 1
            missing, extra = sorted((expected - got).elements()), sorted((got - expected).elements())
            print(f"{commit}: {len(missing)} missing, {len(extra)} extra; first: "
                  f"{(missing + [None])[0]} / {(extra + [None])[0]}")
    print(f"{findings} buf findings over {len(commits) - skipped} commits ({skipped} skipped: "
          f"no parent with {args.subdir or 'a tree'}; {refused} refused by both tools)")
    print(f"bad {bad} of {len(commits) - skipped}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
