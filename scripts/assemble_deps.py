#!/usr/bin/env python3
"""Assembles one include directory from several repositories' git mirrors.

    scripts/assemble_deps.py NAME OUT [--mirrors DIR] [--config FILE]

NAME is a `[deps.NAME]` table of `scripts/histories.toml`: each `[[deps.NAME.source]]`
names a mirror (`owner+name`, as the fetch tool lays them out under DIR, default
/work/.mirror), a revision, the import root inside it (`root`, "" for the top) and the
directories to take (`take`, relative to the root). Their .proto files are written under
OUT with paths relative to their import root, then every import they make is followed:
an import found in a source (first source wins) is added, one found nowhere must be a
well-known type (google/protobuf/...), which both tools bundle; anything else is an error.
Each source's LICENSE goes to OUT/LICENSES/, and OUT/SOURCES.md records what came from
where.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
IMPORT = re.compile(rb'^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;', re.M)


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True,
                          check=True).stdout


def proto_files(git_dir, rev, root):
    """{import name: repository path} of the .proto files under `root` at `rev`."""
    out = git(git_dir, "ls-tree", "-r", "-z", "--name-only", rev, "--", *([root] if root else []))
    files = {}
    for path in out.decode().split("\0"):
        if path.endswith(".proto"):
            files[os.path.relpath(path, root) if root else path] = path
    return files


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("out")
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--config", default=os.path.join(HERE, "histories.toml"))
    args = parser.parse_args()
    with open(args.config, "rb") as f:
        sources = tomllib.load(f)["deps"][args.name]["source"]
    index = {}  # import name -> (source, repository path)
    wanted = []
    for source in sources:
        git_dir = os.path.join(args.mirrors, source["mirror"], "repo")
        source["git_dir"] = git_dir
        source["commit"] = git(git_dir, "rev-parse", source["rev"] + "^{commit}").decode().strip()
        files = proto_files(git_dir, source["commit"], source.get("root", ""))
        for name, path in files.items():
            index.setdefault(name, (source, path))
            if any(name == t or name.startswith(t.rstrip("/") + "/") for t in source["take"]):
                wanted.append(name)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(os.path.join(args.out, "LICENSES"))
    written, missing = set(), set()
    while wanted:
        name = wanted.pop()
        if name in written:
            continue
        source, path = index[name]
        text = git(source["git_dir"], "show", f"{source['commit']}:{path}")
        target = os.path.join(args.out, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(text)
        written.add(name)
        for imported in IMPORT.findall(text):
            imported = imported.decode()
            if imported in index:
                wanted.append(imported)
            elif not imported.startswith("google/protobuf/"):
                missing.add(f"{imported} (imported by {name})")
    if missing:
        sys.exit("imports found in no source:\n  " + "\n  ".join(sorted(missing)))
    lines = [f"# {args.name}: assembled by scripts/assemble_deps.py", "",
             "| source | revision | commit | import root | files |", "|---|---|---|---|---|"]
    for source in sources:
        count = sum(1 for n in written if index[n][0] is source)
        lines.append(f"| {source['mirror']} | {source['rev']} | {source['commit'][:12]} "
                     f"| {source.get('root') or '.'} | {count} |")
        for licence in ("LICENSE", "LICENSE.txt", "COPYING"):
            try:
                text = git(source["git_dir"], "show", f"{source['commit']}:{licence}")
            except subprocess.CalledProcessError:
                continue
            with open(os.path.join(args.out, "LICENSES", source["mirror"]), "wb") as f:
                f.write(text)
            break
    with open(os.path.join(args.out, "SOURCES.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(written)} files under {args.out}")


if __name__ == "__main__":
    main()
