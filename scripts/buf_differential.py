#!/usr/bin/env python3
"""Differential test against buf: random schema pairs, buf's findings vs protocompat's.

Usage: scripts/buf_differential.py FIRST_SEED END_SEED [CATEGORIES] [--keep]

For each seed it generates a random proto2, proto3 or editions-2023 file (messages with
scalar, message, enum, map, repeated, oneof and optional/required fields, reserved ranges,
nested messages, an enum, a service), mutates a copy (types, labels, deletions, renames,
numbers, options, syntax, package, reserved ranges, enum values, service, go_package), writes
both under /tmp/protocompat_differential/c<seed>/{previous,current} with a v2 buf.yaml using
CATEGORIES (default FILE), and runs `buf breaking` and `protocompat check` from `current`.
A seed fails when the multisets of (rule, path, start/end line/column) differ, or when one
tool cannot compile what the other can. Failing cases are kept on disk; the last line is
'bad N'. Needs buf (BUF env var, default: the npm install used while developing) and a
release build; exits 0 with a note when buf is absent.
"""
import random, json, os, subprocess, sys, shutil
BUF=os.environ.get("BUF", "/tmp/peer/node_modules/@bufbuild/buf-linux-x64/bin/buf")
PC=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "protocompat")
WORK="/tmp/protocompat_differential"
SCALARS=["int32","int64","uint32","sint32","string","bytes","bool","double","float","fixed64","sfixed32"]
def gen_file(r, syntax):
    # returns a structure: list of messages with fields
    msgs=[]
    for i in range(r.randint(1,4)):
        fields=[]
        n=1
        for j in range(r.randint(1,7)):
            kind=r.choice(["scalar","scalar","msg","enum","map","repeated","oneof","opt","group","feat"])
            fields.append(dict(kind=kind, name=f"f_{i}_{j}", num=n, ty=r.choice(SCALARS), ref=f"M{r.randint(0,3)}", opts=r.choice(["","","[deprecated = true]","[json_name = \"jj%d\"]"%j])))
            n+=1
        msgs.append(dict(name=f"M{i}", fields=fields, reserved=r.choice([None,(50,60)]), nested=r.random()<0.4))
    return dict(ext=r.random()<0.5, closed=r.random()<0.3, legacy_json=r.random()<0.3, syntax=syntax, pkg=r.choice(["a.v1","a.v2"]), msgs=msgs, enum_vals=[("E_ZERO",0),("E_ONE",1),("E_TWO",2)][:r.randint(1,3)], svc=r.random()<0.6, go=r.choice(["x/y","x/z"]))
def render(s, r):
    out=[]
    if s["syntax"]=="editions": out.append('edition = "2023";')
    else: out.append(f'syntax = "{s["syntax"]}";')
    out.append(f'package {s["pkg"]};')
    out.append(f'option go_package = "{s["go"]}";')
    nmsg=len(s["msgs"])
    for m in s["msgs"]:
        out.append(f'message {m["name"]} {{')
        if m["reserved"]: out.append(f'  reserved {m["reserved"][0]} to {m["reserved"][1]};')
        if m["nested"]: out.append(f'  message Inner {{ string x = 1; }}' if s["syntax"]!="proto2" else '  message Inner { optional string x = 1; }')
        for f in m["fields"]:
            ref = f["ref"] if int(f["ref"][1:]) < nmsg else "M0"
            lab = "optional " if s["syntax"]=="proto2" else ""
            k=f["kind"]; o=(" "+f["opts"]) if f["opts"] else ""
            if k=="scalar": out.append(f'  {lab}{f["ty"]} {f["name"]} = {f["num"]}{o};')
            elif k=="msg": out.append(f'  {lab}{ref} {f["name"]} = {f["num"]}{o};')
            elif k=="enum": out.append(f'  {lab}E {f["name"]} = {f["num"]}{o};')
            elif k=="map": out.append(f'  map<string, {f["ty"] if f["ty"] not in ("float","double","bytes") else "int32"}> {f["name"]} = {f["num"]};')
            elif k=="repeated": out.append(f'  repeated {f["ty"]} {f["name"]} = {f["num"]}{o};')
            elif k=="oneof": out.append(f'  oneof o_{f["name"]} {{ {f["ty"]} {f["name"]} = {f["num"]}{o}; }}')
            elif k=="group":
                if s["syntax"]=="proto2": out.append(f'  optional group G{f["num"]} = {f["num"]} {{ optional {f["ty"]} g = 1; }}')
                elif s["syntax"]=="editions": out.append(f'  {ref} {f["name"]} = {f["num"]} [features.message_encoding = DELIMITED];')
                else: out.append(f'  {ref} {f["name"]} = {f["num"]};')
            elif k=="feat":
                if s["syntax"]=="editions": out.append(f'  {"string" if f["ty"] in ("string","bytes") else "repeated int32"} {f["name"]} = {f["num"]} [{"features.utf8_validation = NONE" if f["ty"]=="string" else "features.repeated_field_encoding = EXPANDED"}];')
                elif s["syntax"]=="proto2": out.append(f'  optional int64 {f["name"]} = {f["num"]} [default = {f["num"] * 7}];')
                else: out.append(f'  repeated int32 {f["name"]} = {f["num"]} [packed = false];')
            elif k=="opt":
                if s["syntax"]=="proto3": out.append(f'  optional {f["ty"]} {f["name"]} = {f["num"]}{o};')
                elif s["syntax"]=="proto2": out.append(f'  required {f["ty"]} {f["name"]} = {f["num"]}{o};')
                else: out.append(f'  {f["ty"]} {f["name"]} = {f["num"]} [features.field_presence = IMPLICIT];')
        if s["ext"] and s["syntax"]!="proto3" and m["name"]=="M0": out.append('  extensions 100 to 200;')
        if s["legacy_json"] and s["syntax"]=="editions": out.append('  option features.json_format = LEGACY_BEST_EFFORT;')
        out.append('}')
    if s["ext"] and s["syntax"]!="proto3":
        out.append(f'extend M0 {{ {"optional " if s["syntax"]=="proto2" else ""}int32 ext_a = 100; {"repeated" } string ext_b = 101; }}')
    vals=" ".join(f"{n} = {v};" for n,v in s["enum_vals"])
    closed = " option features.enum_type = CLOSED;" if s["closed"] and s["syntax"]=="editions" else ""
    out.append(f'enum E {{{closed} {vals} }}')
    if s["svc"]: out.append('service S { rpc Get(M0) returns (M0); rpc Put(stream M0) returns (M0); }')
    return "\n".join(out)+"\n"
def mutate(s, r):
    s=json.loads(json.dumps(s))
    for _ in range(r.randint(1,4)):
        m=r.choice(s["msgs"]); 
        if not m["fields"]: continue
        f=r.choice(m["fields"])
        op=r.choice(["type","kind","del","rename","num","opts","syntax","pkg","reserved","enum","svc","nested","go","ext","closed","legacy_json"])
        if op=="type": f["ty"]=r.choice(SCALARS)
        elif op=="kind": f["kind"]=r.choice(["scalar","msg","enum","map","repeated","oneof","opt","group","feat"])
        elif op=="del": m["fields"].remove(f)
        elif op=="rename": f["name"]=f["name"]+"_r"
        elif op=="num": f["num"]=f["num"]+100
        elif op=="opts": f["opts"]=r.choice(["","[deprecated = true]","[json_name = \"zz\"]"])
        elif op=="syntax": s["syntax"]=r.choice(["proto2","proto3","editions"])
        elif op=="pkg": s["pkg"]=r.choice(["a.v1","a.v2"])
        elif op=="reserved": m["reserved"]=r.choice([None,(50,55),(40,70)])
        elif op=="enum": s["enum_vals"]=s["enum_vals"][:-1] if len(s["enum_vals"])>1 else [("E_ZERO",0),("E_NEW",5)]
        elif op=="svc": s["svc"]=not s["svc"]
        elif op=="nested": m["nested"]=not m["nested"]
        elif op=="go": s["go"]=r.choice(["x/y","x/q"])
        elif op in ("ext","closed","legacy_json"): s[op]=not s[op]
    return s
STATS = {"findings": 0, "compile_errors": 0}

def run_case(seed, cats):
    r=random.Random(seed)
    base=f"{WORK}/c{seed}"
    shutil.rmtree(base, ignore_errors=True)
    s=gen_file(r, r.choice(["proto2","proto3","editions"]))
    n=mutate(s, r)
    for side,st in (("previous",s),("current",n)):
        os.makedirs(f"{base}/{side}")
        open(f"{base}/{side}/buf.yaml","w").write(f"version: v2\nbreaking:\n  use: [{cats}]\n")
        open(f"{base}/{side}/a.proto","w").write(render(st, r))
    b=subprocess.run([BUF,"breaking",".","--against","../previous","--error-format","json"],cwd=f"{base}/current",capture_output=True,text=True)
    p=subprocess.run([PC,"check",".","--against","../previous","--format","json"],cwd=f"{base}/current",capture_output=True,text=True)
    exp=[]; 
    for line in b.stdout.splitlines():
        if line.strip():
            j=json.loads(line); exp.append((j["type"],j.get("path",""),j.get("start_line",0),j.get("start_column",0),j.get("end_line",0),j.get("end_column",0)))
    buf_compile_error = any(e[0]=="COMPILE" for e in exp) or (b.returncode not in (0,100))
    try:
        d=json.loads(p.stdout); got=[(f["rule"],f["path"] or "",f["start_line"] or 0,f["start_column"] or 0,f["end_line"] or 0,f["end_column"] or 0) for f in d["findings"]]
        pc_err=False
    except Exception:
        got=[]; pc_err=True
    STATS["findings"] += len(exp)
    STATS["compile_errors"] += int(buf_compile_error)
    if buf_compile_error or pc_err:
        if buf_compile_error != pc_err or p.returncode!=2 and buf_compile_error:
            return f"c{seed}: compile mismatch buf_err={buf_compile_error} ({b.stderr.strip()[:200]} {exp[:1]}) pc_rc={p.returncode} ({p.stderr.strip()[:300]})"
        return None
    from collections import Counter
    ce,cg=Counter(exp),Counter(got)
    if ce!=cg:
        return f"c{seed}: missing {sorted((ce-cg).elements())} extra {sorted((cg-ce).elements())}"
    shutil.rmtree(base, ignore_errors=True)
    return None
if __name__=="__main__":
    if not os.path.exists(BUF):
        print(f"buf not found at {BUF}: skipped"); sys.exit(0)
    cats=sys.argv[3] if len(sys.argv)>3 else "FILE"
    bad=0
    for seed in range(int(sys.argv[1]), int(sys.argv[2])):
        res=run_case(seed, cats)
        if res: bad+=1; print(res)
    print(f"buf findings compared: {STATS['findings']}, cases buf could not compile: {STATS['compile_errors']}")
    print("bad", bad)
