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
                "src/{module} is not in LAYERS (tests/cli/layers.rs): give it its place in the pipeline"
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

/// The files of the repository, as paths relative to its root (`target/` and dot-folders left out).
fn repository_files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).expect("readable folder") {
            let path = entry.expect("folder entry").path();
            let name = path.file_name().unwrap().to_string_lossy();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// The words of `text` that look like a path to a source, doc or script file of this
/// repository (`src/engine/mod.rs`, `registry.rs`, `docs/json.md`), leaving out web addresses
/// and templates such as `rules/<ID>.md`.
fn cited_paths(text: &str) -> Vec<String> {
    const CITED: &[&str] = &[".rs", ".md", ".py", ".sh"];
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./-<>*".contains(c);
    let mut out = Vec::new();
    for word in text.split(|c: char| !path_char(c)) {
        let word = word.trim_end_matches('.').trim_start_matches("./");
        let templated = word.contains(['<', '>', '*']) || word.starts_with("..");
        if templated || !CITED.iter().any(|ext| word.ends_with(ext)) {
            continue;
        }
        let file_name = word.rsplit('/').next().unwrap_or(word);
        if file_name.len() > 3 {
            out.push(word.to_string());
        }
    }
    out
}

/// The comment lines of a Rust file (where doc comments cite files).
fn comment_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| l.trim_start().starts_with("//"))
}

#[test]
fn comments_and_docs_cite_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = repository_files(root);
    let exists = |cited: &str| {
        files
            .iter()
            .any(|f| f == cited || f.ends_with(&format!("/{cited}")))
    };
    let mut texts: Vec<(String, String)> = Vec::new();
    for file in &files {
        let vendored = file.starts_with("testdata/") || file.starts_with("fuzz/corpus");
        let snapshot = file.contains("/snapshots/");
        if vendored || snapshot {
            continue;
        }
        let Ok(text) = fs::read_to_string(root.join(file)) else {
            continue;
        };
        let text = if file.ends_with(".rs") {
            comment_lines(&text).collect::<Vec<_>>().join("\n")
        } else if file.ends_with(".md") && !file.starts_with("rules/") {
            text
        } else {
            continue;
        };
        texts.push((file.clone(), text));
    }
    let mut missing = BTreeSet::new();
    for (file, text) in &texts {
        let without_urls: String = text
            .split_whitespace()
            .filter(|w| !w.contains("://"))
            .collect::<Vec<_>>()
            .join(" ");
        for cited in cited_paths(&without_urls) {
            if !exists(&cited) {
                missing.insert(format!("{file}: {cited}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "comments and docs cite files that are not in the repository:\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn cited_paths_leave_out_templates_and_keep_paths() {
    assert_eq!(
        cited_paths("see `src/engine/mod.rs`, rules/<ID>.md and docs/json.md."),
        ["src/engine/mod.rs", "docs/json.md"]
    );
    assert_eq!(cited_paths("a.proto and build.rs"), ["build.rs"]);
}
