#!/usr/bin/env python3
"""Audits the full history of the public repositories of issue 14 and records the results.

    scripts/audit_histories.py [--repo NAME ...] [--work DIR] [--out DIR]
    scripts/audit_histories.py --summarize [--out DIR]

For each repository (REPOS below; its read-only mirror under /work/.mirror) the script makes
a writable bare clone sharing the mirror's objects (`git clone --bare --shared`, under
--work), so the audit's cache (`<git dir>/protocompat/`) never lands in the mirror. Then:

- cold: the cache removed, `protocompat audit --git-dir CLONE --format json`;
- warm: the same command again, reading the cache the cold run wrote; its JSON must equal
  the cold run's (else the script says so and exits 1);
- once more with the text format, untimed, for the summary line (commits that changed the
  schema, elements, blobs parsed).

Each timed run goes through `/usr/bin/time -v` (wall, user, sys, peak RSS), with the
1-minute load average read just before it: the machine these ran on is shared, so wall time
is an upper bound and CPU time is the steadier figure. Per repository it writes
`audit-NAME.json` under --out (default scripts/history-results/): HEAD, commits walked,
findings by rule and severity, the unreadable blobs (the audit's warnings, verbatim), the
times, and the protocompat commit (PROTOCOMPAT_COMMIT, else `git rev-parse` of this tree).
`--summarize` prints the README's table from those files. Exit 1 when an audit could not run
(exit 2) or the warm run disagrees with the cold one.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOMPAT = os.environ.get("PROTOCOMPAT",
                             os.path.join(HERE, "..", "target", "release", "protocompat"))
DEFAULT_OUT = os.path.join(HERE, "history-results")
MIRRORS = "/work/.mirror"

# name -> (mirror owner+name, extra audit arguments). Every repository is audited as its
# users would run it: ROOT the repository top, with its own buf configuration at HEAD.
REPOS = {
    "googleapis": ("googleapis+googleapis", []),
    "envoy-data-plane-api": ("envoyproxy+data-plane-api", []),
    "istio-api": ("istio+api", []),
    "temporal-api": ("temporalio+api", []),
    "kvproto": ("pingcap+kvproto", []),
    "milvus-proto": ("milvus-io+milvus-proto", []),
    "opentelemetry-proto": ("open-telemetry+opentelemetry-proto", []),
}

NUMBER_RULES = ["FIELD_NUMBER_REUSED", "ENUM_VALUE_NUMBER_REUSED", "EXTENSION_NUMBER_REUSED"]
NAME_RULES = ["FIELD_NAME_REUSED", "ENUM_VALUE_NAME_REUSED"]
OPEN_RULES = ["FIELD_DELETED_NOT_RESERVED", "ENUM_VALUE_DELETED_NOT_RESERVED"]
TIME_FIELDS = {
    "Elapsed (wall clock) time (h:mm:ss or m:ss)": "wall",
    "User time (seconds)": "user",
    "System time (seconds)": "sys",
    "Maximum resident set size (kbytes)": "peak_rss_kb",
}


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True,
                          capture_output=True, text=True).stdout.strip()


def load1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def seconds(clock):
    """`/usr/bin/time -v`'s wall clock ("1:02.35" or "1:02:03") in seconds."""
    total = 0.0
    for part in clock.split(":"):
        total = total * 60 + float(part)
    return total


def timed(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (exit code, stderr without time's report,
    the time figures)."""
    load = load1()
    with open(out_path, "wb") as out:
        p = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=out, stderr=subprocess.PIPE,
                           text=True)
    own, figures = [], {"load1": load}
    for line in p.stderr.splitlines():
        key, _, value = line.strip().rpartition(": ")
        if key in TIME_FIELDS:
            name = TIME_FIELDS[key]
            figures[name] = seconds(value) if name == "wall" else float(value)
        elif not line.startswith("\t") and not line.startswith("Command exited"):
            own.append(line)
    figures["peak_rss_kb"] = int(figures.get("peak_rss_kb", 0))
    return p.returncode, own, figures


def clone(name, mirror, work):
    git_dir = os.path.join(work, f"{name}.git")
    if not os.path.isdir(git_dir):
        subprocess.run(["git", "clone", "-q", "--bare", "--shared",
                        os.path.join(MIRRORS, mirror, "repo"), git_dir], check=True)
    return git_dir


def counts(findings):
    by_rule = Counter()
    for f in findings:
        by_rule[f"{f['rule']} {f['severity']}"] += 1
    return dict(sorted(by_rule.items()))


def audit(name, mirror, extra, work, out_dir, commit):
    git_dir = clone(name, mirror, work)
    shutil.rmtree(os.path.join(git_dir, "protocompat"), ignore_errors=True)
    cmd = [PROTOCOMPAT, "audit", "--git-dir", git_dir, *extra]
    scratch = os.path.join(work, name)
    runs, docs = {}, {}
    for run in ["cold", "warm"]:
        code, stderr, figures = timed([*cmd, "--format", "json"], f"{scratch}.{run}.json")
        if code not in (0, 1):
            print(f"{name}: audit exited {code}:\n" + "\n".join(stderr), file=sys.stderr)
            return False
        with open(f"{scratch}.{run}.json") as f:
            docs[run] = json.load(f)
        runs[run] = figures
        runs[run]["stderr_lines"] = len(stderr)
        if run == "cold":
            warnings = [line for line in stderr if line.strip()]
    same = docs["cold"] == docs["warm"]
    text = subprocess.run([*cmd, "--format", "text", "--color", "never"],
                          capture_output=True, text=True).stdout
    # "N findings (...) in the history of C commits (...); B blobs parsed, ...; T s"
    summary_line = next((line for line in text.splitlines() if " in the histor" in line), "")
    doc = docs["cold"]
    findings = doc["findings"]
    by_rule = counts(findings)
    record = {
        "name": name,
        "mirror": mirror,
        "head": git(git_dir, "rev-parse", "HEAD"),
        "head_date": git(git_dir, "log", "-1", "--format=%cs", "HEAD"),
        "command": ["protocompat", "audit", "--git-dir", f"<clone of {mirror}>", *extra,
                    "--format", "json"],
        "protocompat_commit": commit,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "summary": doc["summary"],
        "summary_line": summary_line,
        "findings_by_rule": by_rule,
        "number_reused": {r: sum(1 for f in findings if f["rule"] == r) for r in NUMBER_RULES},
        "number_reused_warnings": sum(1 for f in findings
                                      if f["rule"] in NUMBER_RULES and f["severity"] == "warning"),
        "name_reused": {r: sum(1 for f in findings if f["rule"] == r) for r in NAME_RULES},
        "open_deletions": {r: sum(1 for f in findings if f["rule"] == r) for r in OPEN_RULES},
        "reserved_dropped": sum(1 for f in findings if f["rule"] == "RESERVED_DROPPED"),
        "unreadable": doc["summary"]["unreadable"],
        "warnings": warnings,
        "warm_equals_cold": same,
        "time": runs,
    }
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"audit-{name}.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    cold, warm = runs["cold"], runs["warm"]
    print(f"{name}: {doc['summary']['commits']} commits, {len(findings)} findings, "
          f"{record['unreadable']} unreadable; cold {cold['wall']:.2f} s wall "
          f"{cold['user'] + cold['sys']:.2f} s CPU {cold['peak_rss_kb'] // 1024} MB, "
          f"warm {warm['wall']:.2f} s wall {warm['user'] + warm['sys']:.2f} s CPU "
          f"{warm['peak_rss_kb'] // 1024} MB (load {cold['load1']:.1f} / {warm['load1']:.1f})"
          + ("" if same else "; WARM DIFFERS FROM COLD"))
    return same


def mb(kb):
    return f"{kb / 1024:,.0f} MB" if kb < 1024 * 1024 else f"{kb / 1024 / 1024:.2f} GB"


def summarize(out_dir):
    rows, totals = [], Counter()
    print("| repository (HEAD) | commits | number reused F / E / X (warnings) "
          "| name reused F / E | deleted, not reserved F / E | reservations dropped "
          "| unreadable | cold wall / CPU / peak RSS | warm wall / CPU / peak RSS | load |")
    print("| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name, (mirror, _) in REPOS.items():
        path = os.path.join(out_dir, f"audit-{name}.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            r = json.load(f)
        n, m, o = r["number_reused"], r["name_reused"], r["open_deletions"]
        c, w = r["time"]["cold"], r["time"]["warm"]
        values = {
            "commits": r["summary"]["commits"], "nf": n["FIELD_NUMBER_REUSED"],
            "ne": n["ENUM_VALUE_NUMBER_REUSED"], "nx": n["EXTENSION_NUMBER_REUSED"],
            "nw": r["number_reused_warnings"], "mf": m["FIELD_NAME_REUSED"],
            "me": m["ENUM_VALUE_NAME_REUSED"], "of": o["FIELD_DELETED_NOT_RESERVED"],
            "oe": o["ENUM_VALUE_DELETED_NOT_RESERVED"], "rd": r["reserved_dropped"],
            "un": r["unreadable"],
        }
        totals.update(values)
        v = values
        print(f"| {mirror.replace('+', '/')} ({r['head'][:10]}) | {v['commits']:,} "
              f"| {v['nf']} / {v['ne']} / {v['nx']} ({v['nw']}) | {v['mf']} / {v['me']} "
              f"| {v['of']} / {v['oe']} | {v['rd']} | {v['un']} "
              f"| {c['wall']:.2f} s / {c['user'] + c['sys']:.2f} s / {mb(c['peak_rss_kb'])} "
              f"| {w['wall']:.2f} s / {w['user'] + w['sys']:.2f} s / {mb(w['peak_rss_kb'])} "
              f"| {c['load1']:.1f} / {w['load1']:.1f} |")
    t = totals
    print(f"| total | {t['commits']:,} | {t['nf']} / {t['ne']} / {t['nx']} ({t['nw']}) "
          f"| {t['mf']} / {t['me']} | {t['of']} / {t['oe']} | {t['rd']} | {t['un']} | | | |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", action="append", choices=list(REPOS))
    ap.add_argument("--work", default="/tmp/audit-histories")
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--summarize", action="store_true")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.out)
        return 0
    commit = os.environ.get("PROTOCOMPAT_COMMIT") or subprocess.run(
        ["git", "-C", HERE, "rev-parse", "--short", "HEAD"], check=True, capture_output=True,
        text=True).stdout.strip()
    os.makedirs(args.work, exist_ok=True)
    ok = True
    for name in args.repo or REPOS:
        mirror, extra = REPOS[name]
        if not os.path.isdir(os.path.join(MIRRORS, mirror, "repo")):
            print(f"{name}: no mirror at {MIRRORS}/{mirror}, skipped", file=sys.stderr)
            continue
        ok &= audit(name, mirror, extra, args.work, args.out, commit)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
