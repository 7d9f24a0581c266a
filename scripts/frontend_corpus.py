#!/usr/bin/env python3
"""The front-end conformance corpus: vendoring inputs from public corpora, recording the
verdicts of protoc and buf on them, and listing where protocompat differs.

Layout: testdata/frontend/<corpus>/<case>/... is one input: a set of .proto files, all of
which are compiled together (protoc gets every file of the case on its command line with the
case as its only -I root besides its bundled well-known types; buf builds the case directory
as a module; protocompat compares the directory with itself). Each corpus directory keeps the
licence of the repository its files come from. testdata/frontend/handmade/ is written by hand
(one case per family of issue 10) and is never overwritten by `vendor`.

  scripts/frontend_corpus.py vendor [--mirror DIR]   copy inputs from the fetched mirrors
  scripts/frontend_corpus.py verdicts [CASE...]      run protoc and buf, write verdicts.json
  scripts/frontend_corpus.py compare [--bin BIN] [--rust | --markdown] [--protoc-follow]
                                                     run protocompat, print the differences (or
                                                     the test's expected-failure list, or
                                                     write DISAGREEMENTS.md); --protoc-follow
                                                     also lists the inputs where protoc and buf
                                                     disagree and protocompat is not protoc
  scripts/frontend_corpus.py readme [--check]        write (or check) README.md's list of the
                                                     protoc/buf disagreements, by family

The mirrors are bare clones read with `git show` (the workplace's `fetch` tool puts them in
/work/.mirror/<owner>+<name>/repo); the commit each corpus was taken from is recorded in
testdata/frontend/SOURCES.json. protoc is `python3 -m grpc_tools.protoc` (pip install
grpcio-tools), buf is $BUF or `buf` on PATH; both run under `nice -n 15`. CI needs neither:
tests/cli/frontend_conformance.rs reads verdicts.json.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "testdata" / "frontend"
VERDICTS = OUT / "verdicts.json"
SOURCES = OUT / "SOURCES.json"
DEFAULT_MIRROR = Path("/work/.mirror")
DEFAULT_BUF = "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf"

# Imports every tool resolves from its own bundled copy (protoc's include dir, buf's and our
# well-known types): never vendored into a case, so a case sees each tool's own version.
BUNDLED = {
    f"google/protobuf/{name}.proto"
    for name in [
        "any", "api", "descriptor", "duration", "empty", "field_mask", "source_context",
        "struct", "timestamp", "type", "wrappers", "cpp_features", "go_features",
        "java_features", "compiler/plugin",
    ]
}

VENDORED_CORPORA = ["protocompile", "protobuf", "buf"]


# ---------------------------------------------------------------------------------------------
# Reading Go test tables (protocompile's tests are table-driven Go: map literals of strings).


class GoLexer:
    """Tokens of Go source: ('str', bytes), ('id', text), ('num', text), ('p', char)."""

    SIMPLE_ESCAPES = {
        "a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39,
    }

    def __init__(self, text):
        self.text = text
        self.i = 0

    def tokens(self):
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c.isspace():
                self.i += 1
            elif text.startswith("//", self.i):
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif text.startswith("/*", self.i):
                self.i = text.index("*/", self.i) + 2
            elif c == "`":
                end = text.index("`", self.i + 1)
                raw = text[self.i + 1 : end].replace("\r", "")
                self.i = end + 1
                yield ("str", raw.encode())
            elif c == '"':
                yield ("str", self.interpreted())
            elif c == "'":
                end = self.i + 1
                while text[end] != "'":
                    end += 2 if text[end] == "\\" else 1
                self.i = end + 1
                yield ("rune", text[self.i - 1])
            elif c.isalpha() or c == "_":
                m = re.compile(r"[A-Za-z0-9_]+").match(text, self.i)
                self.i = m.end()
                yield ("id", m.group())
            elif c.isdigit():
                m = re.compile(r"[0-9A-Za-z_.]+").match(text, self.i)
                self.i = m.end()
                yield ("num", m.group())
            else:
                self.i += 1
                yield ("p", c)

    def interpreted(self):
        text = self.text
        self.i += 1
        out = bytearray()
        while text[self.i] != '"':
            c = text[self.i]
            if c != "\\":
                out += c.encode()
                self.i += 1
                continue
            e = text[self.i + 1]
            if e in self.SIMPLE_ESCAPES:
                out.append(self.SIMPLE_ESCAPES[e])
                self.i += 2
            elif e == "x":
                out.append(int(text[self.i + 2 : self.i + 4], 16))
                self.i += 4
            elif e in "01234567":
                out.append(int(text[self.i + 1 : self.i + 4], 8))
                self.i += 4
            elif e in "uU":
                width = 4 if e == "u" else 8
                out += chr(int(text[self.i + 2 : self.i + 2 + width], 16)).encode()
                self.i += 2 + width
            else:
                raise ValueError(f"unknown Go escape \\{e}")
        self.i += 1
        return bytes(out)


class Unevaluated:
    """A Go expression this reader does not evaluate (a call, a variable)."""

    def __repr__(self):
        return "<unevaluated>"


class GoTable:
    """Evaluates the composite literal after `NAME := map[string]...` in Go source."""

    def __init__(self, source, start):
        self.toks = list(GoLexer(source[start:]).tokens())
        self.k = 0

    def peek(self, ahead=0):
        return self.toks[self.k + ahead] if self.k + ahead < len(self.toks) else ("eof", "")

    def take(self):
        tok = self.toks[self.k]
        self.k += 1
        return tok

    def skip_balanced(self, open_, close):
        depth = 0
        while True:
            kind, val = self.take()
            if kind == "p" and val == open_:
                depth += 1
            elif kind == "p" and val == close:
                depth -= 1
                if depth == 0:
                    return

    def skip_type(self):
        """Skips a type (map[string]struct{...}, []string, pkg.Name) up to its literal's `{`."""
        while True:
            kind, val = self.peek()
            if kind == "p" and val == "[":
                self.skip_balanced("[", "]")
            elif kind == "id" and val == "struct":
                self.take()
                self.skip_balanced("{", "}")
            elif kind == "id" or (kind == "p" and val in ".*"):
                self.take()
            else:
                return

    def table(self):
        self.skip_type()
        return self.composite()

    def composite(self):
        """`{ key: value, ... }` as a dict, or `{ value, ... }` as a list."""
        assert self.take() == ("p", "{")
        keyed, items = None, []
        while self.peek() != ("p", "}"):
            first = self.value()
            if self.peek() == ("p", ":"):
                self.take()
                keyed = True
                items.append((first, self.value()))
            else:
                items.append(first)
            if self.peek() == ("p", ","):
                self.take()
        self.take()
        if keyed:
            return {
                key.decode() if isinstance(key, bytes) else key if isinstance(key, str) else repr(key): val
                for key, val in items
            }
        return items

    def value(self):
        parts = [self.operand()]
        while self.peek() == ("p", "+"):
            self.take()
            parts.append(self.operand())
        if len(parts) == 1:
            return parts[0]
        if all(isinstance(p, bytes) for p in parts):
            return b"".join(parts)
        return Unevaluated()

    def operand(self):
        kind, val = self.peek()
        if kind == "str":
            self.take()
            return val
        if kind == "p" and val == "{":
            return self.composite()
        if kind == "id" and val == "string" and self.peek(1) == ("p", "("):
            return self.byte_conversion()
        if kind == "id" and val in ("true", "false"):
            self.take()
            return val == "true"
        if kind == "id" and self.peek(1) == ("p", ":"):
            self.take()  # a field name in a keyed struct literal
            return val
        if kind == "p" and val in "!-&":
            self.take()
            self.operand()
            return Unevaluated()
        if kind in ("p", "id"):
            start = self.k
            self.skip_type()
            if self.peek() == ("p", "{"):
                return self.composite()
            if self.k == start:
                self.take()
        elif kind == "num":
            self.take()
            try:
                return int(val, 0)  # the items of a []byte literal
            except ValueError:
                return Unevaluated()
        elif kind == "rune":
            self.take()
            return Unevaluated()
        if self.peek() == ("p", "("):
            self.skip_balanced("(", ")")
        return Unevaluated()

    def byte_conversion(self):
        """`string([]byte{0xEF, ...})`: the bytes."""
        self.take()
        self.take()
        self.skip_type()
        items = self.composite()
        assert self.take() == ("p", ")")
        return Unevaluated() if not isinstance(items, list) else bytes(items)


def go_tables(source):
    """Every `NAME := map[string]...{...}` literal in `source`: (its variable name, its value)."""
    for m in re.finditer(r"(\w+) := map\[string\]", source):
        yield m.group(1), m.start(), GoTable(source, m.end() - len("map[string]")).table()


def remove_prefix_indent(text):
    """protocompile's linker test strips a leading blank line and the second line's indent."""
    lines = text.split(b"\n")
    if len(lines) <= 1 or lines[0].strip() != b"":
        return text
    lines = lines[1:]
    prefix = re.match(rb"[ \t]*", lines[1]).group() if len(lines) > 1 else b""
    return b"\n".join(line[len(prefix) :] if line.startswith(prefix) else line for line in lines)


# ---------------------------------------------------------------------------------------------
# Mirrors.


class Mirror:
    def __init__(self, root, name):
        self.git_dir = root / name / "repo"
        if not self.git_dir.is_dir():
            sys.exit(f"{self.git_dir}: missing (fetch github:{name.replace('+', '/')} first)")
        self.commit = self.git("rev-parse", "HEAD").strip()

    def git(self, *args):
        return subprocess.run(
            ["git", "--git-dir", str(self.git_dir), *args], check=True, capture_output=True
        ).stdout.decode()

    def show(self, path):
        return subprocess.run(
            ["git", "--git-dir", str(self.git_dir), "show", f"{self.commit}:{path}"],
            check=True,
            capture_output=True,
        ).stdout

    def files(self, prefix):
        return self.git("ls-tree", "-r", "--name-only", self.commit, prefix).split()


IMPORT = re.compile(rb'^\s*import\s+(?:public\s+|weak\s+|option\s+)?"([^"]+)"', re.M)


def closure(mirror, root, path):
    """`path` (relative to `root` in the mirror) and what it imports transitively, except the
    bundled well-known types and imports not found (left missing on purpose: the tools say so)."""
    listing = set(mirror.files(root))
    found, todo = {}, [path]
    while todo:
        rel = todo.pop()
        full = f"{root}/{rel}" if root else rel
        if rel in found or full not in listing:
            continue
        found[rel] = mirror.show(full)
        for dep in IMPORT.findall(found[rel]):
            dep = dep.decode()
            if dep not in BUNDLED:
                todo.append(dep)
    return found


def case_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


def write_case(corpus_dir, name, files, cases):
    case = corpus_dir / name
    assert name not in cases, name
    for rel, content in files.items():
        target = case / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    cases[name] = sorted(files)


def vendor_protocompile(mirror, out):
    cases = {}
    validate = mirror.show("parser/validate_test.go").decode()
    for var, _, table in go_tables(validate):
        if var != "testCases" or not isinstance(table, dict):
            continue
        for name, case in table.items():
            if isinstance(case, dict) and isinstance(case.get("contents"), bytes):
                write_case(out, f"parser.{case_name(name)}", {"test.proto": case["contents"]}, cases)
    parser = mirror.show("parser/parser_test.go").decode()
    for var, at, table in go_tables(parser):
        if var != "inputs":
            continue
        test = re.findall(r"func Test(\w+)", parser[:at])[-1]
        for name, case in table.items():
            file = f"{case_name(name)}.proto"
            if isinstance(case, bytes):
                write_case(out, f"parser.junk.{case_name(name)}", {file: case}, cases)
            elif isinstance(case, dict):
                for key in ("Error", "NoError"):
                    if isinstance(case.get(key), bytes):
                        label = f"parser.{test}.{case_name(name)}.{key.lower()}"
                        write_case(out, label, {file: case[key]}, cases)
    linker = mirror.show("linker/linker_test.go").decode()
    for var, _, table in go_tables(linker):
        if var != "testCases" or not isinstance(table, dict):
            continue
        for name, case in table.items():
            inputs = case.get("input") if isinstance(case, dict) else None
            if not isinstance(inputs, dict) or not all(
                isinstance(v, bytes) for v in inputs.values()
            ):
                continue
            files = {k: remove_prefix_indent(v) for k, v in inputs.items()}
            write_case(out, f"linker.{case_name(name)}", files, cases)
    for path in mirror.files("parser/testdata"):
        # pathological.proto and pathological3.proto (900 KB) add size, not cases: kept are
        # largeproto.proto and pathological2.proto (one 524 KB line: columns past 65,535).
        if path.endswith(".proto") and Path(path).name in ("largeproto.proto", "pathological2.proto"):
            name = Path(path).name
            write_case(out, f"parser.testdata.{case_name(name[:-6])}", {name: mirror.show(path)}, cases)
    for path in mirror.files("internal/testdata"):
        if not path.endswith(".proto"):
            continue
        root = "internal/testdata/options" if path.startswith("internal/testdata/options/") else "internal/testdata"
        rel = path[len(root) + 1 :]
        if rel.startswith("google/protobuf/"):
            continue  # a copy of descriptor.proto, used by the options cases
        files = closure(mirror, root, rel)
        write_case(out, f"testdata.{case_name(rel[:-6])}", files, cases)
    return cases


def vendor_protobuf(mirror, out):
    cases = {}
    paths = [
        p
        for p in mirror.files("src/google/protobuf")
        if p.endswith(".proto") and (p.count("/") == 3 or p.startswith("src/google/protobuf/compiler/"))
    ]
    for path in paths:
        rel = path[len("src/") :]
        if rel == "google/protobuf/unittest_enormous_descriptor.proto":
            continue  # 250 KB of generated fields: size without new cases
        files = closure(mirror, "src", rel)
        write_case(out, case_name(rel[len("google/protobuf/") : -6]), files, cases)
    return cases


def vendor_buf(mirror, out):
    cases = {}
    # buf's own API module, compiled as one whole (per-file closures would copy its large
    # shared files dozens of times).
    module = {p[len("proto/") :]: mirror.show(p) for p in mirror.files("proto/buf") if p.endswith(".proto")}
    write_case(out, "proto", module, cases)
    base = "private/buf/bufformat/testdata"
    for path in mirror.files(base):
        if path.endswith(".proto") and ".golden" not in path:
            directory, name = path.rsplit("/", 1)
            label = case_name(path[len(base) + 1 : -6])
            write_case(out, f"bufformat.{label}", closure(mirror, directory, name), cases)
    return cases


LICENCE_NOTE = {
    "protocompile": "bufbuild/protocompile (Apache-2.0): parser/ and linker/ test tables, "
    "parser/testdata, internal/testdata",
    "protobuf": "protocolbuffers/protobuf (BSD-3-Clause): src/google/protobuf/*.proto and "
    "src/google/protobuf/compiler/**.proto",
    "buf": "bufbuild/buf (Apache-2.0): proto/buf (as one case) and private/buf/bufformat/testdata",
}


def vendor(args):
    mirrors = {
        "protocompile": Mirror(args.mirror, "bufbuild+protocompile"),
        "protobuf": Mirror(args.mirror, "protocolbuffers+protobuf"),
        "buf": Mirror(args.mirror, "bufbuild+buf"),
    }
    vendors = {"protocompile": vendor_protocompile, "protobuf": vendor_protobuf, "buf": vendor_buf}
    sources = {}
    for corpus, mirror in mirrors.items():
        out = OUT / corpus
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        (out / "LICENSE").write_bytes(mirror.show("LICENSE"))
        cases = vendors[corpus](mirror, out)
        sources[corpus] = {
            "repository": f"https://github.com/{mirror.git_dir.parent.name.replace('+', '/')}",
            "commit": mirror.commit,
            "what": LICENCE_NOTE[corpus],
            "cases": len(cases),
        }
        print(f"{corpus}: {len(cases)} cases from {mirror.commit[:12]}")
    SOURCES.write_text(json.dumps(sources, indent=2) + "\n")


# ---------------------------------------------------------------------------------------------
# Verdicts.


def all_cases():
    """Every case directory: `<corpus>/<case>` for each directory holding .proto files (at any
    depth) under a corpus directory."""
    out = []
    for corpus in sorted(p for p in OUT.iterdir() if p.is_dir()):
        for case in sorted(p for p in corpus.iterdir() if p.is_dir()):
            out.append(f"{corpus.name}/{case.name}")
    return out


def case_files(case):
    root = OUT / case
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.proto"))


PROTOC_LOG = re.compile(r"^[IWE]\d{4} ")  # protoc's logging lines (warnings about the input)


def first_line(text):
    """The first error line of a tool's output (warnings skipped)."""
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("WARN") and not PROTOC_LOG.match(line) and ": warning:" not in line:
            return line[:400]
    return ""


def run_tool(command, cwd, env=None):
    try:
        done = subprocess.run(
            ["nice", "-n", "15", *command],
            cwd=cwd,
            capture_output=True,
            timeout=120,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"verdict": "refuse", "error": "timed out after 120 s"}
    text = done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    if done.returncode == 0:
        return {"verdict": "accept"}
    return {"verdict": "refuse", "error": first_line(text)}


def protoc_verdict(workdir, files):
    return run_tool([sys.executable, "-m", "grpc_tools.protoc", "-I.", "-o", "/dev/null", *files], workdir)


def buf_verdict(workdir, buf, home):
    env = dict(os.environ, HOME=home, BUF_CACHE_DIR=os.path.join(home, "cache"))
    return run_tool([buf, "build", ".", "-o", "/dev/null", "--error-format", "text"], workdir, env)


def tool_versions(buf, home):
    protoc = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "--version"], capture_output=True, text=True
    ).stdout.strip()
    env = dict(os.environ, HOME=home)
    buf_version = subprocess.run([buf, "--version"], capture_output=True, text=True, env=env).stdout.strip()
    return {"protoc": f"{protoc} (grpcio-tools)", "buf": buf_version}


def verdicts(args):
    buf = os.environ.get("BUF") or (DEFAULT_BUF if Path(DEFAULT_BUF).exists() else "buf")
    existing = json.loads(VERDICTS.read_text())["cases"] if VERDICTS.exists() else {}
    selected = args.cases or all_cases()
    with tempfile.TemporaryDirectory(prefix="frontend-corpus-") as scratch:
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        versions = tool_versions(buf, home)
        for n, case in enumerate(selected, 1):
            files = case_files(case)
            # Outside the repository, so neither tool finds a configuration above the case.
            workdir = os.path.join(scratch, "case")
            shutil.rmtree(workdir, ignore_errors=True)
            shutil.copytree(OUT / case, workdir)
            existing[case] = {
                "files": files,
                "protoc": protoc_verdict(workdir, files),
                "buf": buf_verdict(workdir, buf, home),
            }
            if n % 50 == 0:
                print(f"{n}/{len(selected)}", file=sys.stderr)
    present = set(all_cases())
    cases = {k: v for k, v in sorted(existing.items()) if k in present}
    VERDICTS.write_text(json.dumps({"tools": versions, "cases": cases}, indent=1) + "\n")
    agree = sum(1 for v in cases.values() if v["protoc"]["verdict"] == v["buf"]["verdict"])
    print(f"{len(cases)} cases, protoc and buf agree on {agree}")


# ---------------------------------------------------------------------------------------------
# protocompat.


def protocompat_verdict(binary, case):
    root = OUT / case
    done = subprocess.run(
        [binary, "check", str(root), "--against", str(root), "--format", "short"],
        capture_output=True,
        timeout=60,
    )
    text = done.stderr.decode(errors="replace") + done.stdout.decode(errors="replace")
    if done.returncode == 0:
        return "accept", ""
    if done.returncode == 2:
        return "refuse", protocompat_message(text)
    return f"exit {done.returncode}", protocompat_message(text)


def protocompat_message(text):
    """`path:line:col: message` of protocompat's first diagnostic (miette's text layout)."""
    message = re.search(r"^\s*[×x] (.*)$", text, re.M)
    place = re.search(r"╭─\[(.*?) @ .*?:(\d+:\d+)\]", text)
    if not message:
        return first_line(text)
    return f"{place.group(1)}:{place.group(2)}: {message.group(1)}" if place else message.group(1)


# The families of issue 10 (and the ones found since), as named in
# tests/cli/frontend_conformance.rs: (Rust constant, description, how a difference is recognised:
# a pattern on protoc's error for inputs protocompat wrongly accepts, or on protocompat's error
# for inputs it wrongly refuses; `case:` patterns match the case's name).
FAMILIES = [
    ("PANIC", "a panic: a column past 65,535 in the text renderer", [r"^exit 101"]),
    ("INVISIBLE_PACKAGES", "name resolution skips invisible packages wrongly", [r"cannot resolve type"]),
    ("STALE_WKT", "stale bundled descriptor.proto (protobuf 27.1); missing plugin.proto", [
        r"unknown feature `(enforce_naming_style|default_symbol_visibility)`",
        r"is not in an extension range of `google\.protobuf\.",
        r"compiler/plugin\.proto\" was not found"]),
    ("LITERALS", "literals: an integer beyond u64 as a float default; octal escapes above \\377", [
        r"integer literal is out of range", r"octal escape is out of range"]),
    ("OPTION_TWICE", "an option set twice is accepted", [
        r"was already set", r"Already set option", r"Non-repeated .* specified multiple times"]),
    ("EDITION_2024", "edition 2024 semantics (naming style, local/export, import option)", [
        r"case:(export|local|import_option)", r"TitleCase", r"is not visible from",
        r"option import is not supported", r"weak import is not supported",
        r"ctype option is not allowed", r"java_multiple_files has been removed"]),
    ("EXTENSION_DECLARATIONS", "extension declarations (an option of extension ranges) are not checked", [
        r"[Ee]xtension declaration", r"extension field \d+ is expected", r"as UNVERIFIED",
        r"must have a leading dot", r"contains invalid identifiers"]),
    ("FEATURES", "editions features: lifetimes, targets and the rules they imply", [
        r"deprecated but does not specify", r"removed but does not specify", r"wasn't introduced until",
        r"can't be used in the same file it's defined in", r"cannot be set on an entity of type",
        r"is not allowed under editions", r"Required presence can't be specified by default",
        r"Extensions can't be required", r"Only message fields can specify message encoding",
        r"Implicit presence fields can't specify defaults"]),
    ("OPTIONS", "options are never resolved or type-checked", [
        r"Option .* unknown", r"Error while parsing option value", r"Value must be",
        r"Value out of range", r"for option \"", r"is not a field or extension of message",
        r"Option must not use reserved name", r"Check failed", r"Option field"]),
    ("PROTO3", "proto3 restrictions (group, required, extension ranges, extend)", [
        r"not allowed in proto3", r"not supported in proto3", r"Extensions in proto3"]),
    ("RANGES", "duplicate extension numbers; extension and reserved ranges not validated", [
        r"Integer out of range", r"overlaps with", r"must be greater than start number",
        r"must be positive integers", r"cannot be greater than 536870911",
        r"Extension number \d+ has already been used"]),
    ("DECLARATIONS", "empty enum/oneof/extend; maps in oneofs, map extensions, map entry use; defaults", [
        r"Enums must contain at least one value", r'Expected "required", "optional", or "repeated"',
        r"Expected type name", r"Map fields are not allowed", r"map_entry should not be set explicitly",
        r"can't have default values", r"has no value named", r"Expected number",
        r"Expected integer for field default value", r"Identifier after '-' symbol must be inf or nan",
        r"Unsigned field can't have negative default", r'Expected "\]"']),
    ("NON_TYPE_SYMBOLS", "resolution skips non-type symbols where protoc does not", [r"is not a message type"]),
    ("IMPORTS", "the same file imported twice; import paths with ./ or ..", [
        r"was listed twice", r"virtual path"]),
    ("DESCRIPTOR_RULES", "other descriptor rules protoc enforces", [
        r"json_name is not allowed on extension", r"cannot be required",
        r"declares support for enum aliases", r"is reserved multiple times", r"\[lazy = true\]",
        r"Extensions of MessageSets must be optional messages", r"optimize_for = LITE_RUNTIME",
        r"Exceeds Maximum Package Depth", r"uses the same enum value"]),
]


# The inputs where protoc and buf disagree, by family, for the README's "Differences from
# buf" (protocompat follows protoc on each; tests/cli/frontend_conformance.rs checks both that
# and that the README lists exactly these inputs): (what buf does, what protoc and
# protocompat do, a pattern on the case name). buf's verdict is read from verdicts.json.
PROTOC_BUF_FAMILIES = [
    ('accepts `edition = "2026"`', "refuse it: 2024 is the newest edition",
     r"disagree\.edition_2026|^protobuf/(edition_unittest|internal_options|late_loaded_option|map_proto3_unittest"
     r"|only_one_enum_test|sample_messages_edition|unittest_(arena|delimited|drop_unknown_fields|lazy_dependencies"
     r"|legacy_features|no_field_presence|preserve_unknown_enum|redaction|string_type|string_view))"),
    ("accepts a file of bare integers", "refuse it: a statement starts with a keyword", r"disagree\.bare_integers"),
    ("accepts U+2028 as whitespace", "refuse it: only ASCII whitespace", r"disagree\.u2028_whitespace"),
    ("accepts a float field number (`1e1`)", "refuse it", r"disagree\.float_field_number"),
    ("accepts an enum default given as a number", "refuse it: an enum default is a value name",
     r"disagree\.enum_default_number|default_value_for_enum_using_number"),
    ("accepts a proto2 map whose value is a closed enum not starting at 0", "refuse it",
     r"disagree\.proto2_map_closed_enum_nonzero"),
    ("accepts a statement whose first word is a keyword as a field of a type so named "
     "(`message bar = 1;`, `optional bar = 1;`, `reserved bar = 1;`, `option = 1;` in an enum)",
     "refuse it: the keyword starts its own statement (a label is always a label)",
     r"(message|extend)_decl_start_w_"),
    ("accepts `group.Bar` as the name of a type", "refuse it: `group` is a whole type (`Expected field name.`)",
     r"group_as_type_name_prefix"),
    ("accepts `group` naming a message type (`optional group Foo = 1;`)", "refuse it: a group needs a body",
     r"group_as_type_name(_proto3)?(_no_label)?$"),
    ("accepts `export.T` / `local.T` as a field type in edition 2024",
     "refuse it: the words only come before `message` or `enum`", r"edition_2024_(export|local)_as_type"),
    ("accepts an empty statement (`;`) in a oneof or `extend` block", "refuse it",
     r"(extend|oneof)_disallows_empty_statement"),
    ("accepts a package name over 511 characters", "refuse it", r"long_package_name"),
    ("accepts features on a proto2/proto3 extension range", "refuse them: features need editions",
     r"features_without_editions_ext_range"),
    ("accepts `option allow_alias = false;`", "refuse it: it has no effect", r"enum_allow_alias_false"),
    ('accepts `json_name = "[FooBar]"`', "refuse it: it looks like an extension", r"json_name_looks_like_extension"),
    ("accepts a default on an implicit-presence field (editions)", "refuse it", r"default_with_implicit_presence"),
    ("accepts a lite file extending a non-lite type", "refuse it", r"extend_nonlite_from_lite"),
    ("accepts a type whose name is also a package", "refuse it: the name is already defined",
     r"symbol_conflicts_with_package"),
    ("accepts option values protoc refuses: an enum option given as a number, an unknown closed-enum number "
     "or extension in a message literal, `[]` without `:` for a scalar, `-infin`",
     "refuse them", r"closed_enum_in_msg_literal_using_unknown_number|empty_array_literal_require_leading_colon"
     r"|enum_option_using_number|msg_literal_scoping_rules_limited3|invalid_signed_identifier_in_message_literal"),
    ("accepts extension declarations protoc refuses (a number declared twice, a name declared twice, an "
     "extension in a declared range without a declaration)", "refuse them",
     r"extension_declarations_repeated_tags|extension_declared_multiple_times|extension_matches_no_declaration"),
    ("refuses a reserved name that is not an identifier (`reserved \"a b\";`)", "accept it (protoc warns)",
     r"invalid_reserved_name"),
    ("refuses one extension number used in two files", "accept it", r"duplicate_extension_across_files"),
    ("refuses a `#` comment inside a message literal", "accept it: protobuf's text format reads `#` to the end"
     " of the line as a comment", r"hash_comment_in_message_literal"),
    ('refuses `edition = "UNSTABLE"`', "accept it in protobuf's own files (`google/protobuf/`, `upb/`)",
     r"cpp_file_options_test"),
    ("refuses proto2 JSON-name conflicts that involve a default name", "accept them (protoc warns)",
     r"json_name_(conflict|custom_and_default)_proto2"),
    ("refuses a closed enum in an extension of a file with implicit presence",
     "accept it: extensions always have presence", r"extensions_do_not_inherit_file_field_presence"),
    ("refuses `features.repeated_field_encoding` on a map", "accept it: a map is a repeated field",
     r"success_repeated_field_encoding"),
    ("refuses `jstype = JS_NORMAL` on a non-64-bit field", "accept it", r"success_jstype"),
    ("refuses message-set extensions in custom option values", "accept them",
     r"^protobuf/unittest_(custom_options|import_option)$"),
    ("refuses a group's message named in a custom option's message literal (`Bar< ... >`)", "accept it",
     r"(group|looks_like_group)_in_custom_option_msg_literal"),
    ("refuses two members of one oneof set by two options (`(foo).baz`, then `(foo).buzz`)", "accept it",
     r"oneof_extension_already_set"),
    ("refuses a custom option whose name is also a method of the service", "accept it", r"success_scope_extension"),
    ("refuses an extension declaration whose `type` is not fully qualified", "accept it",
     r"extension_declaration_with_invalid_type"),
    ("refuses a message set without extension ranges", "accept it", r"message_set_wire_format_no_extension_range"),
    ("refuses a DELIMITED (group-like) field written by its type name in a message literal "
     "(`Bar: { ... }`)", "accept it", r"testdata\.test_editions"),
]

README = REPO / "README.md"
README_BEGIN = "<!-- protoc-buf-differences: begin (scripts/frontend_corpus.py readme; do not edit) -->"
README_END = "<!-- protoc-buf-differences: end -->"


def protoc_buf_families(data):
    """Each disagreeing input in its family: [(buf verdict, family, [cases])], and the inputs
    no family (or more than one) matches."""
    groups = {i: [] for i in range(len(PROTOC_BUF_FAMILIES))}
    unmatched = []
    for case, v in data.items():
        if v["protoc"]["verdict"] == v["buf"]["verdict"]:
            continue
        hits = [i for i, (_, _, pattern) in enumerate(PROTOC_BUF_FAMILIES) if re.search(pattern, case)]
        if len(hits) != 1:
            unmatched.append((case, hits))
        else:
            groups[hits[0]].append(case)
    out = []
    for i, (buf, ours, _) in enumerate(PROTOC_BUF_FAMILIES):
        verdicts = {data[c]["buf"]["verdict"] for c in groups[i]}
        out.append((verdicts, buf, ours, groups[i]))
    return out, unmatched


def readme_block(data):
    families, unmatched = protoc_buf_families(data)
    if unmatched:
        raise SystemExit(f"inputs in no single family of PROTOC_BUF_FAMILIES: {unmatched}")
    tools = json.loads(VERDICTS.read_text())["tools"]
    total = sum(len(cases) for *_, cases in families)
    lines = [
        README_BEGIN,
        "",
        f"The front-end corpus (`testdata/frontend/`, {len(data)} inputs) has {total} where protoc",
        f"(libprotoc {tools['protoc'].split()[1]}) and buf {tools['buf']} give different verdicts; protocompat",
        "gives protoc's on each (`tests/cli/frontend_conformance.rs` checks it, and that this list is",
        "the corpus's). By family:",
        "",
        "| inputs | buf | protoc and protocompat |",
        "| ---: | --- | --- |",
    ]
    for verdicts, buf, ours, cases in families:
        if not cases:
            raise SystemExit(f"no input in the family {buf!r}")
        if verdicts != ({"accept"} if buf.startswith("accepts") else {"refuse"}):
            raise SystemExit(f"buf's verdicts {verdicts} do not match the family {buf!r}")
        lines.append(f"| {len(cases)} | {buf} | {ours} |")
    lines += ["", "<details><summary>The inputs of each family</summary>", ""]
    for verdicts, buf, _, cases in families:
        verdict = "buf accepts" if verdicts == {"accept"} else "buf refuses"
        lines.append(f"- ({verdict}) {buf} — inputs: " + ", ".join(f"`{c}`" for c in cases))
    lines += ["", "</details>", "", README_END]
    return "\n".join(lines)


def readme(args):
    data = json.loads(VERDICTS.read_text())["cases"]
    block = readme_block(data)
    text = README.read_text()
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < 0:
        raise SystemExit(f"README.md has no {README_BEGIN!r} ... {README_END!r} block")
    updated = text[:begin] + block + text[end + len(README_END):]
    if args.check:
        if updated != text:
            raise SystemExit("README.md's protoc/buf differences are stale: run scripts/frontend_corpus.py readme")
        print("README.md lists the protoc/buf differences of verdicts.json")
    else:
        README.write_text(updated)


def family_of(case, theirs, ours, our_message, protoc_message):
    text = our_message if theirs == "accept" or ours.startswith("exit") else protoc_message
    if ours.startswith("exit"):
        text = ours
    for name, _, patterns in FAMILIES:
        for pattern in patterns:
            if pattern.startswith("case:"):
                if theirs == "refuse" and re.search(pattern[5:], case.split("/", 1)[1]):
                    return name
            elif re.search(pattern, text):
                return name
    return "UNCLASSIFIED"


def not_following_protoc(binary, data):
    """The inputs where protoc and buf disagree and protocompat's verdict is not protoc's
    (issue 10: follow protoc there)."""
    out = []
    for case, v in data.items():
        if v["protoc"]["verdict"] == v["buf"]["verdict"]:
            continue
        ours, message = protocompat_verdict(binary, case)
        if ours != v["protoc"]["verdict"]:
            out.append({"case": case, "protoc": v["protoc"], "ours": ours, "message": message})
    return out


def differences(binary):
    data = json.loads(VERDICTS.read_text())["cases"]
    out, agreeing = [], 0
    for case, v in data.items():
        if v["protoc"]["verdict"] != v["buf"]["verdict"]:
            continue
        agreeing += 1
        ours, message = protocompat_verdict(binary, case)
        theirs = v["protoc"]["verdict"]
        if ours != theirs:
            family = family_of(case, theirs, ours, message, v["protoc"].get("error", ""))
            out.append({"case": case, "family": family, "theirs": theirs, "ours": ours,
                        "message": message, "protoc": v["protoc"].get("error", ""),
                        "buf": v["buf"].get("error", "")})
    return data, agreeing, out


def case_size(case):
    return sum(p.stat().st_size for p in (OUT / case).rglob("*.proto"))


def markdown(data, agreeing, diffs, unfollowed):
    descriptions = {name: text for name, text, _ in FAMILIES}
    descriptions["UNCLASSIFIED"] = "not yet classified"
    by_family = {}
    for d in diffs:
        by_family.setdefault(d["family"], []).append(d)
    tools = json.loads(VERDICTS.read_text())["tools"]
    lines = [
        "# Front-end disagreements with protoc and buf",
        "",
        "Written by `scripts/frontend_corpus.py compare --markdown` (do not edit by hand). References:",
        f"{tools['protoc']}, buf {tools['buf']}. Inputs: testdata/frontend/<corpus>/<case>/ (see",
        "SOURCES.json for where each corpus comes from).",
        "",
        f"- inputs: {len(data)}",
        f"- protoc and buf agree on: {agreeing} (the test checks these); they disagree on {len(data) - agreeing}",
        f"- protocompat agrees with both on: {agreeing - len(diffs)}",
        f"- protocompat disagrees on: {len(diffs)} (the expected failures of tests/cli/frontend_conformance.rs)",
        f"- where protoc and buf disagree, protocompat follows protoc on: {len(data) - agreeing - len(unfollowed)}"
        f" of {len(data) - agreeing}" + "".join(f"\n  - not on `{d['case']}`" for d in unfollowed),
        "",
        "| family | inputs | protocompat refuses a valid schema | accepts an invalid one | crashes |",
        "|---|---:|---:|---:|---:|",
    ]
    order = [name for name, _, _ in FAMILIES] + ["UNCLASSIFIED"]
    for name in order:
        if name in by_family:
            items = by_family[name]
            crashes = sum(1 for d in items if d["ours"].startswith("exit"))
            false_errors = sum(1 for d in items if d["ours"] == "refuse")
            missed = len(items) - crashes - false_errors
            lines.append(f"| {descriptions[name]} (`{name}`) | {len(items)} | {false_errors} | {missed} | {crashes} |")
    lines.append("")
    for name in order:
        if name not in by_family:
            continue
        items = sorted(by_family[name], key=lambda d: (case_size(d["case"]), d["case"]))
        lines += [f"## {descriptions[name]} (`{name}`): {len(items)}", ""]
        smallest = items[0]
        if smallest["ours"].startswith("exit"):
            lines.append(
                f"Smallest input, `{smallest['case']}`: protoc and buf {smallest['theirs']} it; "
                f"protocompat ends with {smallest['ours']} (a panic):"
            )
        elif smallest["theirs"] == "accept":
            lines.append(f"Smallest input, `{smallest['case']}`: protoc and buf accept it; protocompat refuses it:")
        else:
            lines.append(f"Smallest input, `{smallest['case']}`: protoc and buf refuse it; protocompat accepts it:")
        lines.append("")
        for path in sorted((OUT / smallest["case"]).rglob("*.proto")):
            text = path.read_text(errors="replace")
            if len(text) > 1500:
                text = text[:1500] + f"\n... ({len(text)} bytes in all)"
            lines += [f"`{path.relative_to(OUT / smallest['case'])}`:", "", "```proto", text.rstrip("\n"), "```", ""]
        lines += [
            f"- protoc: `{smallest['protoc'] or 'accepted'}`",
            f"- buf: `{smallest['buf'] or 'accepted'}`",
            f"- protocompat: `{smallest['message'] or smallest['ours']}`",
            "",
            "All inputs of the family (protoc's message, or protocompat's when it refuses a valid input):",
            "",
        ]
        for d in items:
            shown = d["message"] if d["theirs"] == "accept" else d["protoc"]
            lines.append(f"- `{d['case']}`: {shown[:200]}")
        lines.append("")
    lines += [
        "## Where protoc and buf disagree (the test wants protoc's verdict)",
        "",
        "Issue 10 says to follow protoc here; the README's \"Differences from buf\" lists them by",
        "family (`scripts/frontend_corpus.py readme`). Each input: protoc's verdict and message,",
        "then buf's.",
        "",
    ]
    for case, v in data.items():
        p, b = v["protoc"], v["buf"]
        if p["verdict"] != b["verdict"]:
            lines.append(
                f"- `{case}`: protoc {p['verdict']}s{': ' + p['error'][:160] if p.get('error') else ''}; "
                f"buf {b['verdict']}s{': ' + b['error'][:160] if b.get('error') else ''}"
            )
    lines.append("")
    return "\n".join(lines)


def compare(args):
    data, agreeing, diffs = differences(args.bin)
    if args.rust:
        for d in diffs:
            print(f'    ("{d["case"]}", {d["family"]}),')
    elif args.markdown:
        unfollowed = not_following_protoc(args.bin, data)
        (OUT / "DISAGREEMENTS.md").write_text(markdown(data, agreeing, diffs, unfollowed))
    else:
        for d in diffs:
            print("\t".join([d["case"], d["family"], d["theirs"], d["ours"], d["message"], d["protoc"]]))
    print(
        f"{len(data)} cases, {agreeing} where protoc and buf agree, protocompat differs on {len(diffs)}",
        file=sys.stderr,
    )
    if args.protoc_follow:
        unfollowed = not_following_protoc(args.bin, data)
        for d in unfollowed:
            p = d["protoc"]
            print(f"{d['case']}\tprotoc {p['verdict']}s {p.get('error', '')[:120]}\tours: {d['ours']} {d['message'][:160]}")
        disagreeing = len(data) - agreeing
        print(
            f"{disagreeing} where protoc and buf disagree: protocompat follows protoc on "
            f"{disagreeing - len(unfollowed)}, not on {len(unfollowed)}",
            file=sys.stderr,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("vendor")
    v.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    r = sub.add_parser("verdicts")
    r.add_argument("cases", nargs="*")
    c = sub.add_parser("compare")
    c.add_argument("--bin", default=str(REPO / "target" / "release" / "protocompat"))
    c.add_argument("--rust", action="store_true", help="print the EXPECTED_FAILURES entries")
    c.add_argument("--markdown", action="store_true", help="write testdata/frontend/DISAGREEMENTS.md")
    c.add_argument("--protoc-follow", action="store_true",
                   help="also list the inputs where protoc and buf disagree and protocompat does not follow protoc")
    m = sub.add_parser("readme")
    m.add_argument("--check", action="store_true", help="fail when README.md's block is stale")
    args = parser.parse_args()
    {"vendor": vendor, "verdicts": verdicts, "compare": compare, "readme": readme}[args.command](args)


if __name__ == "__main__":
    main()
