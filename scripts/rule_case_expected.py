#!/usr/bin/env python3
"""Regenerates testdata/rules/<RULE_ID>/expected.json with buf 1.75.0.

Usage: scripts/rule_case_expected.py [RULE_ID...] [--buf PATH] [--check]

For each case it runs, from the case's new/ directory,
    buf breaking . --against ../old --error-format json
and writes the findings as a sorted JSON array of
{rule, path, start_line, start_column, end_line, end_column} (path null for a deleted file),
printing buf's messages so that each finding can be reviewed. With --check it only reports
cases whose expected.json differs from what buf says now. buf must compile both trees: a
compile error aborts (a case must be valid protobuf).
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = ROOT / "testdata" / "rules"
DEFAULT_BUF = "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf"


def buf_findings(buf, case):
    r = subprocess.run([buf, "breaking", ".", "--against", "../old", "--error-format", "json"],
                       cwd=case / "new", capture_output=True, text=True)
    if "resultRules was empty" in r.stderr:
        # buf 1.75.0 crashes when the selection holds only no-op deprecated ids
        # (FILE_SAME_PHP_GENERIC_SERVICES, MESSAGE_SAME_MESSAGE_SET_WIRE_FORMAT); protocompat
        # runs nothing for them, so such a case expects no findings.
        return []
    if r.returncode not in (0, 100):
        sys.exit(f"{case.name}: buf exited {r.returncode}: {r.stderr.strip()}")
    found = []
    for line in r.stdout.splitlines():
        if not line.strip():
            continue
        j = json.loads(line)
        if not (ROOT / "rules" / f"{j.get('type')}.md").exists():
            sys.exit(f"{case.name}: not a rule finding (does the case compile?): {line}")
        found.append(({
            "rule": j["type"],
            "path": j.get("path") or None,
            "start_line": j.get("start_line", 1),
            "start_column": j.get("start_column", 1),
            "end_line": j.get("end_line", 1),
            "end_column": j.get("end_column", 1),
        }, j["message"]))
    found.sort(key=lambda f: (f[0]["rule"], f[0]["path"] or "", f[0]["start_line"],
                              f[0]["start_column"], f[0]["end_line"], f[0]["end_column"]))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rules", nargs="*")
    ap.add_argument("--buf", default=DEFAULT_BUF)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    names = a.rules or sorted(p.name for p in CASES.iterdir() if p.is_dir())
    stale = 0
    for name in names:
        case = CASES / name
        found = buf_findings(a.buf, case)
        text = json.dumps([f for f, _ in found], indent=2) + "\n"
        target = case / "expected.json"
        if a.check:
            if not target.exists() or target.read_text() != text:
                stale += 1
                print(f"{name}: expected.json differs from buf's findings")
            continue
        target.write_text(text)
        print(f"== {name}: {len(found)}")
        for f, message in found:
            print(f"   {f['path']}:{f['start_line']}:{f['start_column']}-"
                  f"{f['end_line']}:{f['end_column']} {message}")
    if a.check:
        print(f"{len(names) - stale} up to date, {stale} stale")
        sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main()
