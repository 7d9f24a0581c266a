//! The library's top-level modules import one way. Every `crate::<module>` path under `src/`
//! (tests included, comments not) must name a module of an earlier layer than its own; a
//! module never imports one of its own layer. This rules out cycles between the folders.
//! `scripts/deps.sh --graph` prints the graph itself.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The pipeline, first layer first (see ARCHITECTURE.md). A new top-level module goes here.
const LAYERS: &[&[&str]] = &[
    &["syntax", "direction"],
    &["parse", "model"],
    &["link"],
    &["source", "finding"],
    &["diff"],
    &["rules"],
    &["config"],
    &["passes"],
    &["engine"],
    &["history", "review"],
    &["report"],
    &["check"],
];

/// Not pipeline stages: the crate root, the binary (`main`, `cli`), and the unit-test support.
const OUTSIDE: &[&str] = &["lib", "main", "cli", "test_support"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level modules under `src/` and the `.rs` files of each.
fn modules(src: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(src).expect("src/ is readable") {
        let path = entry.expect("src/ entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            out.push((name, files));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((name, vec![path]));
        }
    }
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("folder is readable") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The first path segment after each `crate::` on a line of code, including each name of a
/// `crate::{a::X, b}` group.
fn crate_references(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            out.extend(group_heads(group));
        } else {
            out.push(identifier(rest).to_string());
        }
    }
    out
}

/// The first segment of each item of a `{...}` group (depth 1 only).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = vec![identifier(group.trim_start()).to_string()];
    let mut depth = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(identifier(group[i + 1..].trim_start()).to_string()),
            _ => {}
        }
    }
    heads
}

fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

#[test]
fn top_level_modules_import_only_earlier_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = BTreeSet::new();
    let modules = modules(&src);
    let names: BTreeSet<&str> = modules.iter().map(|(n, _)| n.as_str()).collect();
    for (module, files) in &modules {
        if OUTSIDE.contains(&module.as_str()) {
            continue;
        }
        let Some(own) = layer_of(module) else {
            problems.insert(format!(
                "src/{module} is not in LAYERS (tests/layers.rs): give it its place in the pipeline"
            ));
            continue;
        };
        for file in files {
            let text = fs::read_to_string(file).expect("source is UTF-8");
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for target in crate_references(line) {
                    if target == *module || !names.contains(target.as_str()) {
                        continue;
                    }
                    let allowed = layer_of(&target).is_some_and(|theirs| theirs < own);
                    if !allowed && !OUTSIDE.contains(&target.as_str()) {
                        let at = file.strip_prefix(&src).unwrap().display();
                        problems.insert(format!("src/{at}:{}: {module} imports {target}", n + 1));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "imports against the pipeline's direction:\n{}",
        problems.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn references_are_read_from_paths_and_groups() {
    assert_eq!(crate_references("use crate::diff::Diff;"), ["diff"]);
    assert_eq!(
        crate_references("use crate::{model::{File, Span}, rules};"),
        ["model", "rules"]
    );
    assert_eq!(
        crate_references("let x = crate::link::build(crate::syntax::Span::default());"),
        ["link", "syntax"]
    );
}
