#!/usr/bin/env python3
"""Writes a pair of .proto trees, old/ and new/, for benchmarking `protocompat check`.

Usage: gen_bench_tree.py OUT_DIR [--files N] [--changes N] [--seed N]

OUT_DIR/old holds N files (default 5,000) of realistic proto3 schemas: packages of ~50 files,
imports between files (also across packages), messages with 10-30 fields of mixed types
(scalars, enums, messages from imported files, repeated, map, optional, oneof), nested messages
and enums, services, and file/field options. OUT_DIR/new is the same tree with about
--changes breaking changes sprinkled in (deleted fields, type changes, renamed fields, deleted
enum values, deleted files), and a buf.yaml selecting the FILE category (or --use), so that both
protocompat and buf read the same rule selection. The output is deterministic for a seed.
"""
import argparse
import copy
import os
import random
import shutil

SCALARS = ["int32", "int64", "uint32", "uint64", "sint32", "sint64", "bool", "string",
           "bytes", "double", "float", "fixed32", "fixed64", "sfixed32", "sfixed64"]
WORDS = ["account", "order", "item", "price", "amount", "status", "region", "owner", "label",
         "created", "updated", "deleted", "version", "count", "total", "limit", "offset",
         "token", "name", "title", "note", "code", "kind", "level", "score", "weight", "size",
         "color", "email", "phone", "address", "city", "country", "zone", "tag", "flag", "mode",
         "source", "target", "parent", "child", "ref", "hash", "digest", "payload", "ttl"]
DOMAINS = ["billing", "orders", "catalog", "users", "shipping", "inventory", "search",
           "payments", "reviews", "ads", "media", "auth", "metrics", "audit", "support"]


def ident(rng, parts=2):
    return "_".join(rng.choice(WORDS) for _ in range(parts))


def camel(snake):
    return "".join(p.capitalize() for p in snake.split("_"))


class File:
    def __init__(self, index, package, path):
        self.index = index
        self.package = package
        self.path = path
        self.imports = []       # File objects
        self.messages = []      # dicts
        self.enums = []         # dicts
        self.services = []      # dicts
        self.options = []       # (name, value)


def make_enum(rng, name):
    prefix = "".join("_" + c if c.isupper() else c.upper() for c in name).lstrip("_")
    values = [f"{prefix}_UNSPECIFIED"] + [
        f"{prefix}_{w.upper()}" for w in rng.sample(WORDS, rng.randint(2, 8))]
    return {"name": name, "values": [[v, i] for i, v in enumerate(values)]}


def make_message(rng, name, local_types, imported_types, depth=0):
    msg = {"name": name, "fields": [], "nested": [], "enums": [], "reserved": []}
    if depth == 0 and rng.random() < 0.5:
        msg["enums"].append(make_enum(rng, camel(ident(rng, 1)) + "Kind"))
    if depth == 0 and rng.random() < 0.6:
        nested = make_message(rng, camel(ident(rng, 1)) + "Detail", [], [], depth + 1)
        msg["nested"].append(nested)
    used = set()
    number = 0
    for _ in range(rng.randint(10, 30) if depth == 0 else rng.randint(2, 6)):
        fname = ident(rng)
        while fname in used:
            fname = ident(rng, 3)
        used.add(fname)
        number += rng.choice([1, 1, 1, 2])
        roll = rng.random()
        label, oneof = "", None
        if roll < 0.55 or depth > 0:
            ftype = rng.choice(SCALARS)
        elif roll < 0.7 and (msg["enums"] or local_types):
            ftype = msg["enums"][0]["name"] if msg["enums"] else rng.choice(local_types)
        elif roll < 0.85 and imported_types:
            ftype = rng.choice(imported_types)
        elif msg["nested"]:
            ftype = msg["nested"][0]["name"]
        else:
            ftype = rng.choice(SCALARS)
        roll = rng.random()
        if roll < 0.15:
            label = "repeated "
        elif roll < 0.22:
            ftype = f"map<string, {ftype if ftype in SCALARS and ftype not in ('double', 'float', 'bytes') else 'string'}>"
        elif roll < 0.3 and ftype in SCALARS:
            label = "optional "
        elif roll < 0.36:
            oneof = "choice"
        options = ""
        if ftype in ("int64", "uint64") and rng.random() < 0.2:
            options = " [jstype = JS_STRING]"
        elif rng.random() < 0.05:
            options = " [deprecated = true]"
        msg["fields"].append({"name": fname, "type": ftype, "label": label,
                              "number": number, "oneof": oneof, "options": options})
    return msg


def build_old(n_files, rng):
    files = []
    per_package = 50
    for i in range(n_files):
        domain = DOMAINS[(i // per_package) % len(DOMAINS)]
        version = (i // (per_package * len(DOMAINS))) + 1
        group = i // per_package
        package = f"acme.{domain}.g{group}.v{version}"
        path = f"acme/{domain}/g{group}/v{version}/{ident(rng, 1)}_{i}.proto"
        f = File(i, package, path)
        # Imports point at earlier files of the same package, and sometimes at one of the
        # first package's files (shared "common" types), as real trees do; this keeps each
        # file's transitive imports to a package or two.
        start = group * per_package
        candidates = list(range(start, i))
        for j in rng.sample(candidates, min(len(candidates), rng.randint(0, 3))):
            f.imports.append(files[j])
        if group > 0 and rng.random() < 0.3:
            f.imports.append(files[rng.randrange(0, 10)])
        imported_types = [f"{g.package}.{g.messages[0]['name']}" for g in f.imports]
        local_types = []
        for k in range(rng.randint(2, 5)):
            # The file index keeps top-level names unique within a package.
            mname = f"{camel(ident(rng))}{i}{chr(65 + k)}"
            f.messages.append(make_message(rng, mname, local_types, imported_types))
            local_types.append(mname)
        for k in range(rng.randint(0, 2)):
            f.enums.append(make_enum(rng, f"{camel(ident(rng))}Type{i}{chr(65 + k)}"))
        if rng.random() < 0.3:
            svc = {"name": f"{camel(ident(rng))}Service{i}", "rpcs": []}
            for k in range(rng.randint(2, 4)):
                req, res = rng.choice(local_types), rng.choice(local_types)
                stream = "stream " if rng.random() < 0.1 else ""
                svc["rpcs"].append((f"Do{camel(ident(rng))}{k}", req, res, stream))
            f.services.append(svc)
        f.options.append(("go_package", f'"example.com/gen/{path.rsplit("/", 1)[0]};pb"'))
        f.options.append(("java_package", f'"com.{package}"'))
        if rng.random() < 0.5:
            f.options.append(("java_multiple_files", "true"))
        files.append(f)
    return files


def mutate(files, n_changes, rng):
    """Applies breaking changes to a copy of the tree; returns (files, summary)."""
    files = copy.deepcopy(files)
    imported = {g.path for f in files for g in f.imports}
    summary = {}

    def bump(kind):
        summary[kind] = summary.get(kind, 0) + 1

    deletable = [f for f in files if f.path not in imported]
    for f in rng.sample(deletable, min(len(deletable), max(1, n_changes // 30))):
        f.deleted = True
        bump("deleted file")
    live = [f for f in files if not getattr(f, "deleted", False)]
    while sum(summary.values()) < n_changes:
        f = rng.choice(live)
        msg = rng.choice(f.messages)
        scalar_fields = [x for x in msg["fields"] if x["type"] in SCALARS]
        kind = rng.random()
        if kind < 0.3 and len(msg["fields"]) > 2:
            victim = rng.choice(msg["fields"])
            msg["fields"].remove(victim)
            bump("deleted field")
        elif kind < 0.55 and scalar_fields:
            x = rng.choice(scalar_fields)
            x["type"] = rng.choice([t for t in SCALARS if t != x["type"]])
            x["options"] = ""
            bump("changed field type")
        elif kind < 0.8:
            x = rng.choice(msg["fields"])
            x["name"] = x["name"] + "_v2"
            bump("renamed field")
        elif f.enums or msg["enums"]:
            enum = rng.choice(f.enums or msg["enums"])
            if len(enum["values"]) > 2:
                enum["values"].pop()
                bump("deleted enum value")
    return files, summary


def render_enum(e, indent):
    pad = "  " * indent
    lines = [f"{pad}enum {e['name']} {{"]
    lines += [f"{pad}  {v} = {n};" for v, n in e["values"]]
    lines.append(f"{pad}}}")
    return lines


def render_message(m, indent=0):
    pad = "  " * indent
    lines = [f"{pad}// {m['name']} is generated for benchmarks.", f"{pad}message {m['name']} {{"]
    in_oneof = [x for x in m["fields"]
                if x["oneof"] and not x["label"] and not x["type"].startswith("map<")]
    for x in m["fields"]:
        if x not in in_oneof:
            lines.append(f"{pad}  {x['label']}{x['type']} {x['name']} = {x['number']}{x['options']};")
    if in_oneof:
        lines.append(f"{pad}  oneof {in_oneof[0]['oneof']} {{")
        lines += [f"{pad}    {x['type']} {x['name']} = {x['number']}{x['options']};"
                  for x in in_oneof]
        lines.append(f"{pad}  }}")
    for e in m["enums"]:
        lines += render_enum(e, indent + 1)
    for nested in m["nested"]:
        lines += render_message(nested, indent + 1)
    lines.append(f"{pad}}}")
    return lines


def render(f):
    lines = ['syntax = "proto3";', "", f"package {f.package};", ""]
    for g in f.imports:
        lines.append(f'import "{g.path}";')
    if f.imports:
        lines.append("")
    for name, value in f.options:
        lines.append(f"option {name} = {value};")
    lines.append("")
    for m in f.messages:
        lines += render_message(m) + [""]
    for e in f.enums:
        lines += render_enum(e, 0) + [""]
    for s in f.services:
        lines.append(f"service {s['name']} {{")
        for name, req, res, stream in s["rpcs"]:
            lines.append(f"  rpc {name}({req}) returns ({stream}{res});")
        lines += ["}", ""]
    return "\n".join(lines)


def write_tree(root, files):
    for f in files:
        if getattr(f, "deleted", False):
            continue
        path = os.path.join(root, f.path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(render(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--changes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--use", default="FILE",
                    help="comma-separated rule ids or categories for new/buf.yaml (default FILE)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    old = build_old(a.files, rng)
    new, summary = mutate(old, a.changes, rng)
    for side in ("old", "new"):
        shutil.rmtree(os.path.join(a.out, side), ignore_errors=True)
    write_tree(os.path.join(a.out, "old"), old)
    write_tree(os.path.join(a.out, "new"), new)
    with open(os.path.join(a.out, "new", "buf.yaml"), "w") as fh:
        fh.write("version: v1\nbreaking:\n  use:\n")
        fh.writelines(f"    - {u.strip()}\n" for u in a.use.split(",") if u.strip())
    changes = ", ".join(f"{n} {k}" for k, n in sorted(summary.items()))
    print(f"wrote {a.files} files to {a.out}/old and {a.out}/new ({changes})")


if __name__ == "__main__":
    main()
