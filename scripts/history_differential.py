#!/usr/bin/env python3
"""Replays real repositories' histories through buf and protocompat and compares findings.

    scripts/history_differential.py [--repo NAME ...] [--max N] [--config FILE] [--out DIR]
    scripts/history_differential.py GIT_DIR [--root DIR] [--module DIR ...] [-I DIR ...]
                                    [--exclude DIR ...] [--closure] [--max N]
    scripts/history_differential.py --summarize [--out DIR]

The first form runs the repositories of `scripts/histories.toml` (or FILE; each entry
describes one repository's layout, see that file); the second one repository given on the
command line; the third prints the Markdown table of the results already recorded.

For each of the last N commits that changed a `.proto` file of the layout, both tools
compare the commit with its first parent, with the same layout and rules:

- buf on the two trees exported from git (`git archive`, or only the import closure of the
  changed directories with `closure`), with the layout written as a v2 `buf.yaml` at ROOT on
  both sides and every dependency directory a second module (a copy inside ROOT);
- protocompat straight from the git objects (`--git-dir G --rev C --against C^`), with the
  same layout as `--config` and each dependency directory as `-I`; in closure mode with a
  `--path` per changed directory (buf compares the whole exported closure, where every
  file outside those directories is the same on both sides).

A commit agrees when both tools build it and give the same multiset of findings (rule,
path, span, message; protocompat's own HAZARD rules, which buf does not have, are counted
apart by rule and not compared), or both refuse it for the same class of reason (import not found,
unresolved name, number reused, ...: `classify`; each side's errors are classified one by
one, and the two must share a class). buf runs with `--exclude-imports`. Per repository
the script records commits, findings of each side, identical / missing / extra, refusals
of each side classified by reason, and wall and CPU time of each tool, as JSON under
`scripts/history-results/` (no repository content beyond paths and messages), rewritten
after every commit so that an interrupted run keeps what it did. Needs buf (BUF env var,
default the npm install used while developing); without it the script says so and exits
0, and so it does for a repository whose git directory or dependency directory is missing.
PROTOCOMPAT_COMMIT names the binary's commit in the record. Exit 1 when any commit
disagrees.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field

BUF = os.environ.get("BUF", "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf")
HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOMPAT = os.environ.get("PROTOCOMPAT",
                             os.path.join(HERE, "..", "target", "release", "protocompat"))
DEFAULT_CONFIG = os.path.join(HERE, "histories.toml")
DEFAULT_OUT = os.path.join(HERE, "history-results")
DEFAULT_USE = ["FILE", "PACKAGE", "WIRE_JSON", "WIRE"]
IMPORT = re.compile(rb'^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;', re.M)


@dataclass
class Module:
    path: str  # relative to ROOT
    excludes: list = field(default_factory=list)  # relative to ROOT, as in buf.yaml v2


@dataclass
class Repo:
    name: str
    git_dir: str
    root: str = ""  # the directory both tools are run on, relative to the repository top
    modules: list = field(default_factory=lambda: [Module(".")])
    includes: list = field(default_factory=list)  # dependency directories on disk
    commits: int = 100
    use: list = field(default_factory=lambda: list(DEFAULT_USE))
    closure: bool = False
    note: str = ""

    def module_dirs(self):
        """Module directories relative to the repository top ('' for the top itself)."""
        return [norm(os.path.join(self.root, m.path)) for m in self.modules]

    def in_layout(self, path):
        """Whether a repository path belongs to a module and is not excluded from it."""
        for m in self.modules:
            if under(path, norm(os.path.join(self.root, m.path))) and not any(
                    under(path, norm(os.path.join(self.root, e))) for e in m.excludes):
                return True
        return False


def under(path, directory):
    return directory == "" or path == directory or path.startswith(directory + "/")


def norm(path):
    path = os.path.normpath(path) if path else "."
    return "" if path == "." else path


def repo_from_toml(name, entry, defaults):
    merged = {**defaults, **entry}
    modules = [Module(m["path"], list(m.get("excludes", []))) if isinstance(m, dict)
               else Module(m) for m in merged.get("modules", ["."])]
    return Repo(name=name, git_dir=os.path.expanduser(merged["git_dir"]),
                root=norm(merged.get("root", "")), modules=modules,
                includes=list(merged.get("includes", [])),
                commits=int(merged.get("commits", 100)), use=list(merged.get("use", DEFAULT_USE)),
                closure=bool(merged.get("closure", False)), note=merged.get("note", ""))


# ---------------------------------------------------------------- git

def git(git_dir, *args, text=True, input=None):
    return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True,
                          text=text, input=input, check=True).stdout


def proto_pathspecs(repo):
    return [f":(glob){d + '/' if d else ''}**/*.proto" for d in repo.module_dirs()]


def commits_to_replay(repo, limit):
    """The newest `limit` commits that changed a .proto file the layout holds (a module's,
    not excluded), read from one streamed `git log --name-only`."""
    log = subprocess.Popen(["git", "--git-dir", repo.git_dir, "log", "--no-merges",
                            "--name-only", "--format=%x00%H", "--", *proto_pathspecs(repo)],
                           stdout=subprocess.PIPE, text=True)
    commits, current, relevant = [], None, False
    for line in log.stdout:
        line = line.rstrip("\n")
        if line.startswith("\0"):
            if current and relevant:
                commits.append(current)
                if len(commits) == limit:
                    break
            current, relevant = line[1:], False
        elif line and repo.in_layout(line):
            relevant = True
    else:
        if current and relevant and len(commits) < limit:
            commits.append(current)
    log.kill()
    log.wait()
    return commits


def has_path(git_dir, rev, path):
    spec = f"{rev}:{path}" if path else f"{rev}^{{tree}}"
    return subprocess.run(["git", "--git-dir", git_dir, "cat-file", "-e", spec],
                          capture_output=True).returncode == 0


def parent_has_protos(repo, commit):
    if not has_path(repo.git_dir, f"{commit}^", repo.root):
        return False
    files = tree_files(repo.git_dir, f"{commit}^", repo.root)
    return any(repo.in_layout(p) for p in files)


def tree_files(git_dir, rev, under):
    """{path: blob id} of the .proto files of `rev` under `under` ('' for all)."""
    out = git(git_dir, "ls-tree", "-r", "-z", rev, "--", *([under] if under else []))
    files = {}
    for entry in out.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind == "blob" and path.endswith(".proto"):
            files[path] = blob
    return files


def read_blobs(git_dir, blobs):
    """{blob id: bytes} for every id, through one `git cat-file --batch`."""
    wanted = sorted(set(blobs))
    if not wanted:
        return {}
    out = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                         input=("\n".join(wanted) + "\n").encode(), capture_output=True,
                         check=True).stdout
    contents, pos = {}, 0
    for blob in wanted:
        header_end = out.index(b"\n", pos)
        _, _, size = out[pos:header_end].split()
        start = header_end + 1
        contents[blob] = out[start:start + int(size)]
        pos = start + int(size) + 1
    return contents


# ---------------------------------------------------------------- closure mode

def changed_dirs(repo, commit):
    """Directories (relative to the repository top) of the .proto files the commit changed."""
    out = git(repo.git_dir, "diff", "--name-only", "--no-renames", "-z", f"{commit}^", commit,
              "--", *proto_pathspecs(repo))
    return sorted({os.path.dirname(p) for p in out.split("\0") if p and repo.in_layout(p)})


def import_closure(repo, rev, files, seeds):
    """`seeds` plus every file of `files` they import, transitively, resolved as the
    module layout resolves them (the first module holding the import wins). Reads the
    blobs one import level at a time."""
    module_dirs = repo.module_dirs()
    seen, frontier = set(), {s for s in seeds if s in files}
    while frontier:
        seen |= frontier
        contents = read_blobs(repo.git_dir, [files[p] for p in frontier])
        found = set()
        for path in frontier:
            for name in IMPORT.findall(contents[files[path]]):
                name = name.decode()
                for module in module_dirs:
                    candidate = norm(os.path.join(module, name))
                    if candidate in files:
                        found.add(candidate)
                        break
        frontier = found - seen
    return seen


def closure_paths(repo, commit, dirs):
    """The union over both sides of the changed directories' files and their imports, so
    that a file present on both sides is exported on both."""
    sides = {}
    for rev in (f"{commit}^", commit):
        sides[rev] = {p: blob for p, blob in tree_files(repo.git_dir, rev, repo.root).items()
                      if repo.in_layout(p)}
    selected = set()
    for rev, files in sides.items():
        seeds = [p for p in files if os.path.dirname(p) in dirs]
        selected |= import_closure(repo, rev, files, seeds)
    old, new = sides.values()
    if not any(p in old for p in selected) or not any(p in new for p in selected):
        # A directory added (or removed) whose imports are all dependencies leaves one side
        # with no file of the layout, which buf refuses ("had no .proto files"). An
        # unchanged file and its imports, the same on both sides, keep both builds non-empty
        # without adding a finding.
        anchor = next((p for p in sorted(old) if new.get(p) == old[p]), None)
        if anchor:
            selected |= import_closure(repo, f"{commit}^", old, [anchor])
    return selected


# ---------------------------------------------------------------- export

def export_tree(repo, rev, dest, only=None):
    """The tree of `rev` under `dest` (only ROOT; only the paths `only` when given), paths
    kept as in the repository. Every buf.yaml / buf.work.yaml / buf.lock is dropped: the
    layout under test is the one this script writes; so is every symlink."""
    os.makedirs(dest)
    if only is None:
        archive = subprocess.run(["git", "--git-dir", repo.git_dir, "archive", rev,
                                  *([repo.root] if repo.root else [])],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)
    else:
        files = tree_files(repo.git_dir, rev, repo.root)
        wanted = {p: files[p] for p in only if p in files}
        contents = read_blobs(repo.git_dir, wanted.values())
        for path, blob in wanted.items():
            target = os.path.join(dest, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(contents[blob])
        os.makedirs(os.path.join(dest, repo.root), exist_ok=True)
    for top, dirs, names in os.walk(dest):
        for name in names + dirs:
            path = os.path.join(top, name)
            # Symlinks go too: buf follows them on disk, git stores them as links that
            # protocompat (reading the objects) does not follow, so kept they would make
            # the two tools see different trees.
            if os.path.islink(path) or name in ("buf.yaml", "buf.work.yaml", "buf.lock",
                                                "buf.gen.yaml"):
                os.remove(path)


def dep_links(repo):
    """Dependency directory -> its name inside ROOT on the buf side."""
    return {inc: f"_dep{i}" for i, inc in enumerate(repo.includes)}


def yaml_list(items):
    return "[" + ", ".join(json.dumps(i) for i in items) + "]"


def layout_yaml(repo, with_deps):
    lines = ["version: v2", "modules:"]
    for m in repo.modules:
        lines.append(f"  - path: {json.dumps(m.path)}")
        if m.excludes or (with_deps and norm(m.path) == "" and repo.includes):
            excludes = list(m.excludes)
            if with_deps and norm(m.path) == "":
                excludes += list(dep_links(repo).values())
            lines.append(f"    excludes: {yaml_list(excludes)}")
    if with_deps:
        for link in dep_links(repo).values():
            lines.append(f"  - path: {link}")
    lines += ["breaking:", f"  use: {yaml_list(repo.use)}", ""]
    return "\n".join(lines)


def prepare_side(repo, rev, dest, only):
    export_tree(repo, rev, dest, only)
    root = os.path.join(dest, repo.root)
    with open(os.path.join(root, "buf.yaml"), "w") as f:
        f.write(layout_yaml(repo, with_deps=True))
    for inc, link in dep_links(repo).items():
        # A copy, not a symlink: protocompat resolves an -I symlink to its target, which
        # is outside the working tree it is given (issue 15, item 4).
        shutil.copytree(inc, os.path.join(root, link))


# ---------------------------------------------------------------- the two tools

def timed(cmd, cwd, env=None):
    """(completed process, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return run, wall, cpu


# buf's messages where protocompat's differ on purpose (README, "Differences from buf").
BUF_MESSAGE_FIXES = [(re.compile(r'"q moved from oneof'), '" moved from oneof')]


def key(path, finding, rule_field):
    message = finding.get("message") or ""
    if rule_field == "type":
        for pattern, replacement in BUF_MESSAGE_FIXES:
            message = pattern.sub(replacement, message)
    return (finding[rule_field], path, finding.get("start_line") or 0,
            finding.get("start_column") or 0, finding.get("end_line") or 0,
            finding.get("end_column") or 0, message)


def buf_env():
    env = dict(os.environ)
    env.setdefault("BUF_CACHE_DIR", os.path.join(tempfile.gettempdir(), "history-buf-cache"))
    return env


def run_buf(repo, work):
    new_root = os.path.join(work, "new", repo.root)
    against = os.path.relpath(os.path.join(work, "old", repo.root), new_root)
    run, wall, cpu = timed(["nice", "-n", "19", BUF, "breaking", ".", "--against", against,
                            "--exclude-imports", "--error-format", "json"], new_root, buf_env())
    found = []
    for line in run.stdout.splitlines():
        if line.strip():
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    compile_errors = [f for f in found if f.get("type") == "COMPILE"]
    failed = run.returncode not in (0, 100) or bool(compile_errors)
    # Each error on a line of its own: buf's compile errors, then what it printed on stderr.
    reason = "\n".join([f"{f.get('path')}: {f.get('message')}" for f in compile_errors] +
                       [run.stderr.strip()])
    # Both tools print paths relative to ROOT (buf's working directory).
    findings = Counter(key(f.get("path") or "", f, "type") for f in found
                       if f.get("type") != "COMPILE")
    return failed, findings, reason, wall, cpu


def protocompat_rule_categories():
    """{rule id: set of categories}, from `protocompat rules`."""
    run = subprocess.run([PROTOCOMPAT, "rules", "--all"], capture_output=True, text=True,
                         check=True)
    table = {}
    for line in run.stdout.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2:
            table[parts[0]] = set(parts[1].split(","))
    return table


def compared_rule(rule, use, categories):
    """Whether buf can report `rule` under `use`: protocompat's own categories (HAZARD, on
    in every configuration) are left out of the comparison and counted apart."""
    cats = categories.get(rule)
    return cats is None or rule in use or bool(cats & set(use))


def run_protocompat(repo, commit, work, dirs):
    config = os.path.join(work, "protocompat.yaml")
    with open(config, "w") as f:
        f.write(layout_yaml(repo, with_deps=False))
    cwd = os.path.join(work, "new")
    includes = []
    for inc, link in dep_links(repo).items():
        includes += ["-I", norm(os.path.join(repo.root, link))]
    paths = []
    for d in dirs or []:
        paths += ["--path", os.path.relpath(d or ".", repo.root or ".")]
    run, wall, cpu = timed(["nice", "-n", "19", PROTOCOMPAT, "check", repo.root or ".",
                            "--git-dir", os.path.abspath(repo.git_dir), "--rev", commit,
                            "--against", f"{commit}^", "--config", config, *includes, *paths,
                            "--format", "json"], cwd)
    if "panicked" in run.stderr or run.returncode not in (0, 1, 2):
        return True, (Counter(), Counter()), "PANIC " + run.stderr.strip(), wall, cpu
    if run.returncode == 2:
        return True, (Counter(), Counter()), run.stderr.strip(), wall, cpu
    found = json.loads(run.stdout)["findings"]
    categories = RULE_CATEGORIES or protocompat_rule_categories()
    findings = Counter(key(f.get("path") or "", f, "rule") for f in found
                       if compared_rule(f["rule"], repo.use, categories))
    own = Counter(f["rule"] for f in found if not compared_rule(f["rule"], repo.use, categories))
    return False, (findings, own), "", wall, cpu


# ---------------------------------------------------------------- refusal reasons

# Matched against the first error line (protocompat's `× ...`, buf's first line), in order.
REASONS = [
    ("panic", r"panicked|PANIC"),
    ("import not found", r'^import "[^"]*" was not found|file does not exist|'
                         r'import "[^"]*": .*(not found|does not exist)|: does not exist$|'
                         r"imports? could not be found"),
    ("unresolved name", r"cannot resolve type|unknown type|is not defined|"
                        r"could not resolve|unresolved|cannot find .* in this scope"),
    ("number reused", r"used more than once|already used by|uses number"),
    ("duplicate definition", r"already defined|duplicate|declared multiple|more than once|"
                             r"contained in multiple"),
    ("syntax", r"syntax error|unexpected|expected|parse error|invalid syntax|unterminated"),
    ("import cycle", r"import cycle|cycle"),
    ("invalid schema", r"invalid|must be|not allowed|cannot be|conflict|reserved"),
    ("configuration", r"buf\.yaml|buf\.work\.yaml|configuration|config|module"),
]


def error_lines(message, limit=8):
    """Each error's first line: protocompat's `× ...` lines (miette), else every non-empty
    line (buf prints one error a line)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    marked = [line.lstrip("× ").strip() for line in lines if line.startswith("×")]
    return [line[:300] for line in (marked or lines)[:limit]]


def classify(line):
    for reason, pattern in REASONS:
        if re.search(pattern, line, re.I):
            return reason
    return "other"


def reasons(lines):
    """The reason classes of one side's errors."""
    if lines and lines[0].startswith("PANIC"):
        return {"panic"}
    return {classify(line) for line in lines}


# ---------------------------------------------------------------- one repository

RULE_CATEGORIES = {}


def replay(repo, limit, verbose, record=None):
    RULE_CATEGORIES.update(protocompat_rule_categories())
    commits = commits_to_replay(repo, limit)
    stats = {"name": repo.name, "git_dir": repo.git_dir,
             "head": git(repo.git_dir, "rev-parse", "HEAD").strip(),
             "layout": {"root": repo.root, "modules": [m.__dict__ for m in repo.modules],
                        "includes": repo.includes, "closure": repo.closure, "use": repo.use},
             "note": repo.note, "tools": tool_versions(), "commits_selected": len(commits),
             "compared": 0, "skipped": 0, "buf_findings": 0, "protocompat_findings": 0,
             # Findings of protocompat's own rules (HAZARD), which buf does not have: not
             # compared, counted by rule.
             "protocompat_own_findings": {},
             "identical_findings": 0, "missing": 0, "extra": 0, "commits_identical": 0,
             "commits_with_other_findings": 0,
             "time": {"buf_wall": 0.0, "buf_cpu": 0.0, "protocompat_wall": 0.0,
                      "protocompat_cpu": 0.0},
             # Every commit either tool refused, with each side's first error line: the
             # counts below are derived from them (`tally`), so a better classifier can
             # re-derive them from the record (--summarize).
             "refused": [], "differences": []}
    for n, commit in enumerate(commits, 1):
        if verbose and n % 25 == 0:
            print(f"{repo.name}: {n}/{len(commits)}", file=sys.stderr)
        if not parent_has_protos(repo, commit):
            # A first commit, or the layout's first .proto files: nothing to compare with
            # (buf refuses a module without .proto files; protocompat reports every file as
            # new, README "Differences from buf").
            stats["skipped"] += 1
            if record:
                record(finished(stats, complete=False))
            continue
        work = tempfile.mkdtemp(prefix="history-")
        try:
            dirs = changed_dirs(repo, commit) if repo.closure else None
            only = closure_paths(repo, commit, set(dirs)) if repo.closure else None
            prepare_side(repo, commit, os.path.join(work, "new"), only)
            prepare_side(repo, f"{commit}^", os.path.join(work, "old"), only)
            buf_failed, expected, buf_err, bw, bc = run_buf(repo, work)
            our_failed, (got, own), our_err, ow, oc = run_protocompat(repo, commit, work, dirs)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        stats["compared"] += 1
        t = stats["time"]
        t["buf_wall"] += bw
        t["buf_cpu"] += bc
        t["protocompat_wall"] += ow
        t["protocompat_cpu"] += oc
        short = commit[:10]
        if buf_failed or our_failed:
            entry = {"commit": short,
                     "buf": error_lines(buf_err) if buf_failed else None,
                     "protocompat": error_lines(our_err) if our_failed else None}
            if our_err.startswith("PANIC"):
                entry["protocompat"] = ["PANIC"] + entry["protocompat"]
            stats["refused"].append(entry)
            verdict = refusal_verdict(entry)
            if verdict != "both refused":
                print(f"{repo.name} {short}: {verdict}: buf {(entry['buf'] or [''])[0]} / "
                      f"protocompat {(entry['protocompat'] or [''])[0]}", flush=True)
            if record:
                record(finished(stats, complete=False))
            continue
        stats["buf_findings"] += sum(expected.values())
        stats["protocompat_findings"] += sum(got.values())
        for rule, n in own.items():
            own_total = stats["protocompat_own_findings"]
            own_total[rule] = own_total.get(rule, 0) + n
        stats["identical_findings"] += sum((expected & got).values())
        missing, extra = sorted((expected - got).elements()), sorted((got - expected).elements())
        stats["missing"] += len(missing)
        stats["extra"] += len(extra)
        if missing or extra:
            stats["commits_with_other_findings"] += 1
            stats["differences"].append({"commit": short, "missing": [list(m) for m in missing],
                                         "extra": [list(e) for e in extra]})
            print(f"{repo.name} {short}: {len(missing)} missing, {len(extra)} extra; first: "
                  f"{(missing + [None])[0]} / {(extra + [None])[0]}", flush=True)
        else:
            stats["commits_identical"] += 1
        if record:
            # After every commit, so that a run stopped early still leaves its figures.
            record(finished(stats, complete=False))
    return finished(stats, complete=True)


def finished(stats, complete):
    """A copy of the running figures, times rounded, counts derived."""
    done = json.loads(json.dumps(stats))
    done["time"] = {k: round(v, 1) for k, v in done["time"].items()}
    done["complete"] = complete
    return tally(done)


def refusal_verdict(entry):
    buf, ours = entry["buf"], entry["protocompat"]
    if ours is not None and "panic" in reasons(ours):
        return "protocompat panicked"
    if buf is None:
        return "only protocompat refused"
    if ours is None:
        return "only buf refused"
    if not reasons(buf) & reasons(ours):
        return "both refused for different reasons"
    return "both refused"


def shared_reason(entry):
    """The reason class both sides give (the first one, in REASONS order)."""
    common = reasons(entry["buf"]) & reasons(entry["protocompat"])
    return next((r for r, _ in REASONS if r in common), "other")


def tally(stats):
    """The refusal counts, derived from the recorded refusals."""
    verdicts = Counter(refusal_verdict(e) for e in stats["refused"])
    stats["refusals"] = {
        side: dict(Counter(r for e in stats["refused"] if e[side] is not None
                           for r in reasons(e[side])))
        for side in ("buf", "protocompat")}
    stats["refusal_verdicts"] = dict(verdicts)
    stats["commits_differing"] = stats["commits_with_other_findings"] + sum(
        n for v, n in verdicts.items() if v != "both refused")
    return stats


def tool_versions():
    def version(cmd):
        run = subprocess.run(cmd, capture_output=True, text=True)
        return (run.stdout or run.stderr).strip()
    return {"buf": version([BUF, "--version"]),
            "protocompat": version([PROTOCOMPAT, "--version"]),
            "protocompat_commit": os.environ.get("PROTOCOMPAT_COMMIT", "")}


def recorder(path):
    def record(stats):
        with open(path + ".tmp", "w") as f:
            json.dump(stats, f, indent=1)
            f.write("\n")
        os.replace(path + ".tmp", path)
    return record


def summary_line(s):
    t = s["time"]
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(s["refusal_verdicts"].items())) or "none"
    return (f"{s['name']}: {s['compared']} commits ({s['skipped']} skipped), buf "
            f"{s['buf_findings']} / protocompat {s['protocompat_findings']} findings, "
            f"{s['identical_findings']} identical, {s['missing']} missing, {s['extra']} extra; "
            f"refusals: {verdicts}; buf {t['buf_wall']} s wall / {t['buf_cpu']} s CPU, "
            f"protocompat {t['protocompat_wall']} s / {t['protocompat_cpu']} s; "
            f"bad {s['commits_differing']} of {s['compared']}")


# ---------------------------------------------------------------- the table

def reasons_text(counts):
    return ", ".join(f"{n} {r}" for r, n in sorted(counts.items(), key=lambda x: -x[1])) or "–"


def closure_mark(s):
    closure = s["layout"]["closure"] and not s["name"].endswith("-closure")
    return " (closure)" if closure else ""


def own_text(s):
    if "protocompat_own_findings" not in s:
        return "not counted"  # recorded before protocompat had HAZARD rules
    return f"{sum(s['protocompat_own_findings'].values()):,}"


def summarize(out_dir):
    rows = []
    for name in sorted(os.listdir(out_dir)):
        if name.endswith(".json"):
            with open(os.path.join(out_dir, name)) as f:
                rows.append(tally(json.load(f)))
    lines = ["| repository | commits | findings (buf / protocompat) | identical | missing | extra "
             "| refused by both, by reason | refused by one side, or for different reasons "
             "| HAZARD findings (not compared) "
             "| buf wall / CPU | protocompat wall / CPU | protocompat at |", "|" + "---|" * 12]
    for s in rows:
        t = s["time"]
        both = Counter(shared_reason(e) for e in s["refused"]
                       if refusal_verdict(e) == "both refused")
        other = {v: n for v, n in s["refusal_verdicts"].items() if v != "both refused"}
        lines.append(
            f"| {s['name']}{closure_mark(s)}"
            f"{'' if s.get('complete', True) else ' (stopped early)'} | {s['compared']} "
            f"| {s['buf_findings']:,} / {s['protocompat_findings']:,} "
            f"| {s['identical_findings']:,} | {s['missing']} | {s['extra']} "
            f"| {reasons_text(both)} | {reasons_text(other)} "
            f"| {own_text(s)} "
            f"| {t['buf_wall']:.0f} s / {t['buf_cpu']:.0f} s "
            f"| {t['protocompat_wall']:.0f} s / {t['protocompat_cpu']:.0f} s "
            f"| {s['tools'].get('protocompat_commit') or '?'} |")
    return "\n".join(lines)


# ---------------------------------------------------------------- command line

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("git_dir", nargs="?", help="one repository given on the command line")
    parser.add_argument("--config", default=DEFAULT_CONFIG)
    parser.add_argument("--repo", action="append", default=[], help="entries of the config to run")
    parser.add_argument("--max", type=int, help="commits per repository (overrides the config)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the JSON results go")
    parser.add_argument("--no-record", action="store_true", help="print only, write no JSON")
    parser.add_argument("--summarize", action="store_true", help="print the table and exit")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--root", default="")
    parser.add_argument("--module", action="append", default=[])
    parser.add_argument("--exclude", action="append", default=[],
                        help="excluded directory (relative to ROOT) of the first module")
    parser.add_argument("-I", "--include", action="append", default=[])
    parser.add_argument("--closure", action="store_true")
    parser.add_argument("--use", default=",".join(DEFAULT_USE))
    args = parser.parse_args()
    if args.summarize:
        print(summarize(args.out))
        return 0
    if not os.path.exists(BUF):
        print(f"buf not found at {BUF}: skipped")
        return 0
    if args.git_dir:
        modules = [Module(m) for m in (args.module or ["."])]
        modules[0].excludes = args.exclude
        repos = [Repo(name=os.path.basename(os.path.abspath(args.git_dir)), git_dir=args.git_dir,
                      root=norm(args.root), modules=modules, includes=args.include,
                      commits=args.max or 100, use=args.use.split(","), closure=args.closure)]
    else:
        with open(args.config, "rb") as f:
            config = tomllib.load(f)
        defaults = config.get("defaults", {})
        entries = config.get("repo", {})
        unknown = [r for r in args.repo if r not in entries]
        if unknown:
            parser.error(f"not in {args.config}: {', '.join(unknown)}")
        repos = [repo_from_toml(name, entry, defaults) for name, entry in entries.items()
                 if not args.repo or name in args.repo]
    bad = 0
    for repo in repos:
        if not os.path.isdir(repo.git_dir):
            print(f"{repo.name}: no git directory at {repo.git_dir}: skipped", flush=True)
            continue
        missing_deps = [d for d in repo.includes if not os.path.isdir(d)]
        if missing_deps:
            print(f"{repo.name}: dependency directory {', '.join(missing_deps)} missing "
                  f"(scripts/assemble_deps.py builds it): skipped", flush=True)
            continue
        record = None
        if not args.no_record and not args.git_dir:
            os.makedirs(args.out, exist_ok=True)
            record = recorder(os.path.join(args.out, f"{repo.name}.json"))
        stats = replay(repo, args.max or repo.commits, args.verbose, record)
        if record:
            record(stats)
        print(summary_line(stats), flush=True)
        bad += stats["commits_differing"]
    print(f"bad {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
