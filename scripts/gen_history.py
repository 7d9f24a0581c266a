#!/usr/bin/env python3
"""Generates a git history for the audit benchmark: FILES .proto files changed over COMMITS
commits (fields added, deleted, some numbers reused), written with `git fast-import`.

Usage: scripts/gen_history.py DIR [--files 500] [--commits 2000] [--seed 1]
"""
import argparse
import os
import random
import subprocess


def render(pkg, messages):
    out = [f'syntax = "proto3";\npackage {pkg};\n']
    for name, fields in messages.items():
        out.append(f"message {name} {{")
        for number, (fname, ftype) in sorted(fields.items()):
            out.append(f"  {ftype} {fname} = {number};")
        out.append("}\n")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=500)
    ap.add_argument("--commits", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    types = ["string", "int32", "int64", "bool", "bytes", "double"]
    files = {}
    for i in range(args.files):
        msgs = {}
        for m in range(rng.randint(2, 6)):
            msgs[f"M{m}"] = {n: (f"f{n}", rng.choice(types)) for n in range(1, rng.randint(3, 15))}
        files[f"proto/p{i % 50}/f{i}.proto"] = (f"bench.p{i % 50}.f{i}", msgs)
    os.makedirs(args.dir, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", args.dir], check=True)
    fi = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=args.dir, stdin=subprocess.PIPE)
    w = fi.stdin.write
    t = 1_600_000_000

    def commit(n, paths):
        nonlocal t
        t += 3600
        msg = f"commit {n}".encode()
        w(f"commit refs/heads/main\ncommitter Bench <b@example.com> {t} +0000\n".encode())
        w(f"data {len(msg)}\n".encode() + msg + b"\n")
        for path in paths:
            data = render(*files[path]).encode()
            w(f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n")

    commit(0, list(files))
    for n in range(1, args.commits):
        changed = rng.sample(list(files), rng.randint(1, 3))
        for path in changed:
            _, msgs = files[path]
            fields = msgs[rng.choice(list(msgs))]
            roll = rng.random()
            if roll < 0.4 or not fields:
                number = max(fields, default=0) + 1
                fields[number] = (f"f{number}_{n}", rng.choice(types))
            elif roll < 0.7:
                del fields[rng.choice(list(fields))]
            else:
                # Reuse: a deleted number comes back with another name and type.
                free = [k for k in range(1, max(fields) + 1) if k not in fields]
                number = rng.choice(free) if free else max(fields) + 1
                fields[number] = (f"r{number}_{n}", rng.choice(types))
        commit(n, changed)
    fi.stdin.close()
    fi.wait()
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=args.dir, check=True)


if __name__ == "__main__":
    main()
