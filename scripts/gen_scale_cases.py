#!/usr/bin/env python3
"""Writes hostile-scale case pairs for scripts/bench-scale.sh: DIR/<case>/{old,new}/.

Each case puts N declarations of one kind in one file (or N/10 files) and changes them all
or half of them, so that any work quadratic in the size of one element shows up as minutes.

    scripts/gen_scale_cases.py DIR [N]      # N defaults to 100000
"""
import os
import sys

HEADER = 'syntax = "proto3";\npackage big.v1;\n'


def number(i):
    """The i-th usable field number: 1, 2, ... skipping the implementation's 19000-19999."""
    return i + 1 if i < 18999 else i + 1001


def message_of(fields):
    return HEADER + "message M {\n" + "".join(fields) + "}\n"


def cases(n):
    fields = lambda ty, keep: message_of(
        f"  {ty} f{i} = {number(i)};\n" for i in range(n) if keep(i))
    messages = lambda prefix, keep: HEADER + "".join(
        f"message {prefix}{i} {{ int32 a = 1; }}\n" for i in range(n) if keep(i))
    values = lambda prefix, keep: HEADER + "enum E {\n  E_UNSPECIFIED = 0;\n" + "".join(
        f"  {prefix}{i} = {i};\n" for i in range(1, n) if keep(i)) + "}\n"
    oneofs = lambda keep: message_of(
        f"  oneof o{i} {{ int32 f{i} = {number(i)}; }}\n" for i in range(n) if keep(i))
    in_oneof = lambda: HEADER + "message M {\n  oneof o {\n" + "".join(
        f"    int32 f{i} = {number(i)};\n" for i in range(n)) + "  }\n}\n"
    rpcs = lambda keep: HEADER + "message Q {}\nservice S {\n" + "".join(
        f"  rpc R{i}(Q) returns (Q);\n" for i in range(n) if keep(i)) + "}\n"
    reserved = lambda keep: message_of(
        f"  reserved {number(i)};\n  reserved \"r{i}\";\n" for i in range(n) if keep(i))
    files = lambda keep: {
        f"f{i}.proto": HEADER + f"message M{i} {{ int32 a = 1; }}\n"
        for i in range(n // 10) if keep(i)}
    everything, odd = (lambda i: True), (lambda i: i % 2)
    yield "fields-retyped", fields("int32", everything), fields("sint32", everything)
    yield "fields-deleted", fields("int32", everything), fields("int32", odd)
    yield "fields-into-oneof", fields("int32", everything), in_oneof()
    yield "messages-deleted", messages("M", everything), messages("M", odd)
    yield "messages-renamed", messages("M", everything), messages("R", everything)
    yield "enum-values-deleted", values("E_V", everything), values("E_V", odd)
    yield "enum-values-renamed", values("E_A", everything), values("E_B", everything)
    yield "oneofs-deleted", oneofs(everything), oneofs(odd)
    yield "rpcs-deleted", rpcs(everything), rpcs(odd)
    yield "reserved-deleted", reserved(everything), reserved(odd)
    yield "files-deleted", files(everything), files(odd)


def write(root, name, side, content):
    files = content if isinstance(content, dict) else {"a.proto": content}
    for path, text in files.items():
        full = os.path.join(root, name, side, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def main():
    root = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    for name, old, new in cases(n):
        write(root, name, "old", old)
        write(root, name, "new", new)
        print(name)


if __name__ == "__main__":
    main()
