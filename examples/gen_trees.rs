//! Generates a pair of schema trees for benchmarks: `OUT/previous` and `OUT/current`, each
//! with N `.proto` files (default 5,000), where `current` carries a few breaking changes of
//! several kinds (about one file in a hundred).
//!
//! cargo run --release --example gen_trees -- OUT [N]
//! then: cd OUT/current && protocompat check . --against ../previous --format json

use std::fmt::Write as _;
use std::path::Path;

const SCALARS: &[&str] = &[
    "string", "int32", "int64", "uint32", "bool", "bytes", "double", "sint64", "fixed32",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: gen_trees OUT [N]");
        std::process::exit(2);
    };
    let n: usize = match args.next().map(|s| s.parse()) {
        None => 5000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("N: {e}");
            std::process::exit(2);
        }
    };
    let out = Path::new(&out);
    for (side, changed) in [("previous", false), ("current", true)] {
        for i in 0..n {
            // Ten of the last hundred files (which no file imports) are deleted.
            if changed && i + 100 >= n && i % 10 == 9 {
                continue;
            }
            let (path, text) = file(i, changed && i % 100 == 7);
            let full = out.join(side).join(path);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent).expect("create directory");
            }
            std::fs::write(&full, text).expect("write file");
        }
    }
    println!("wrote {n} files per side under {}", out.display());
}

/// File `i`; `breaking`: the variant with a type change, a deleted field and a deleted enum
/// value.
fn file(i: usize, breaking: bool) -> (String, String) {
    let pkg = i % 100;
    let path = format!("acme/svc{pkg}/v1/file{i}.proto");
    let mut t = String::new();
    let _ = writeln!(t, "syntax = \"proto3\";\n\npackage acme.svc{pkg}.v1;\n");
    // Import the previous file of the same package so names resolve across files.
    if i >= 100 {
        let _ = writeln!(t, "import \"acme/svc{pkg}/v1/file{}.proto\";", i - 100);
    }
    let _ = writeln!(t, "import \"google/protobuf/timestamp.proto\";\n");
    let _ = writeln!(t, "option go_package = \"example.com/acme/svc{pkg}/v1\";\n");
    let _ = writeln!(
        t,
        "// Record {i}: a message with scalar, message, map and oneof fields."
    );
    let _ = writeln!(t, "message Record{i} {{");
    for f in 1..=15usize {
        if breaking && f == 4 {
            continue;
        }
        let mut ty = SCALARS[(i + f) % SCALARS.len()];
        if breaking && f == 2 {
            ty = if ty == "string" { "bytes" } else { "string" };
        }
        let label = if f % 5 == 0 { "repeated " } else { "" };
        let _ = writeln!(t, "  {label}{ty} field_{f} = {f};");
    }
    let _ = writeln!(t, "  google.protobuf.Timestamp created_at = 16;");
    let _ = writeln!(t, "  map<string, int64> counters = 17;");
    if i >= 100 {
        let _ = writeln!(t, "  Record{}.Detail parent_detail = 18;", i - 100);
    }
    let _ = writeln!(
        t,
        "  oneof choice {{\n    string name = 19;\n    int64 code = 20;\n  }}"
    );
    let _ = writeln!(
        t,
        "  message Detail {{\n    string note = 1;\n    Status{i} status = 2;\n  }}"
    );
    let _ = writeln!(t, "  reserved 100 to 110;\n}}\n");
    let _ = writeln!(t, "enum Status{i} {{");
    let _ = writeln!(t, "  STATUS{i}_UNSPECIFIED = 0;");
    for v in 1..=5usize {
        if breaking && v == 3 {
            continue;
        }
        let _ = writeln!(t, "  STATUS{i}_VALUE_{v} = {v};");
    }
    let _ = writeln!(t, "}}");
    if i % 10 == 0 {
        let _ = writeln!(
            t,
            "\nservice Service{i} {{\n  rpc Get(Record{i}) returns (Record{i});\n  rpc Watch(Record{i}) returns (stream Record{i});\n}}"
        );
    }
    (path, t)
}
