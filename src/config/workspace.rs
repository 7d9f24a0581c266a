//! `buf.work.yaml` (and its legacy name `buf.work`): a buf v1 workspace, the list of directories
//! that are modules. Validated as buf validates it: version v1 only, strict keys, at least one
//! directory, each relative, inside the workspace, not `.`, listed once, none inside another.

use miette::Report;
use serde::Deserialize;

use super::{find_word, point, ConfigError};
use crate::source::{is_within, normalize};

/// The names buf looks for, in its order: the first that exists is the workspace file.
pub const WORK_FILE_NAMES: [&str; 2] = ["buf.work.yaml", "buf.work"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkFile {
    version: Option<String>,
    #[serde(default)]
    directories: Vec<String>,
}

/// The module directories of a workspace file, normalized and sorted (buf's module order).
/// `display` names the file and revision in diagnostics (`buf.work.yaml @ HEAD~1`).
pub fn parse(text: &str, display: &str) -> Result<Vec<String>, Report> {
    let fail = |message: String, span: Option<std::ops::Range<usize>>, label: &str| -> Report {
        ConfigError::at(format!("{display}: {message}"), display, text, span, label).into()
    };
    let file: Option<WorkFile> = yaml_serde::from_str(text).map_err(|e| {
        let span = e.location().map(|l| point(text, l.line(), l.column()));
        fail(format!("invalid buf.work.yaml: {e}"), span, "here")
    })?;
    let file = file.unwrap_or(WorkFile {
        version: None,
        directories: Vec::new(),
    });
    match file.version.as_deref() {
        None => {
            return Err(fail(
                "\"version\" is not set; buf requires \"version: v1\"".into(),
                None,
                "",
            ))
        }
        Some("v1") => {}
        Some(other) => {
            return Err(fail(
                format!("version {other:?} is not supported for workspace files (only v1 is)"),
                find_word(text, other),
                "unsupported version",
            ))
        }
    }
    if file.directories.is_empty() {
        return Err(fail(
            "`directories` is empty: a workspace lists at least one module directory".into(),
            find_word(text, "directories"),
            "no directory",
        ));
    }
    let mut dirs: Vec<(String, &str)> = Vec::new();
    for written in &file.directories {
        let at = find_word(text, written);
        let dir = validated(written).map_err(|why| {
            fail(
                format!("directory {written:?} is invalid: {why}"),
                at.clone(),
                "invalid directory",
            )
        })?;
        if dirs.iter().any(|(d, _)| *d == dir) {
            return Err(fail(
                format!("directory {written:?} is listed more than once"),
                at,
                "listed again",
            ));
        }
        dirs.push((dir, written));
    }
    dirs.sort();
    for (i, (outer, outer_written)) in dirs.iter().enumerate() {
        for (inner, inner_written) in &dirs[i + 1..] {
            if is_within(inner, outer) {
                return Err(fail(
                    format!("directory {outer_written:?} contains directory {inner_written:?}"),
                    find_word(text, inner_written),
                    "inside another directory",
                ));
            }
        }
    }
    Ok(dirs.into_iter().map(|(d, _)| d).collect())
}

/// A directory as buf accepts it: relative, inside the workspace, not the workspace itself.
fn validated(written: &str) -> Result<String, String> {
    if written.starts_with('/') || written.starts_with('\\') {
        return Err("expected to be relative".into());
    }
    let dir = normalize(written);
    if dir == ".." || dir.starts_with("../") {
        return Err("it is outside the workspace".into());
    }
    if dir.is_empty() {
        return Err("\".\" is the workspace itself; list the module directories instead".into());
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        format!("{}", parse(text, "buf.work.yaml @ HEAD").unwrap_err())
    }

    #[test]
    fn directories_are_normalized_and_sorted() {
        let dirs = parse(
            "version: v1\ndirectories:\n  - vendor/\n  - ./proto\n",
            "buf.work.yaml",
        )
        .unwrap();
        assert_eq!(dirs, vec!["proto".to_string(), "vendor".to_string()]);
    }

    #[test]
    fn buf_refusals_are_errors() {
        for (text, expected) in [
            ("directories: [a]\n", "\"version\" is not set"),
            ("", "\"version\" is not set"),
            ("version: v2\ndirectories: [a]\n", "\"v2\" is not supported"),
            (
                "version: v1beta1\ndirectories: [a]\n",
                "\"v1beta1\" is not supported",
            ),
            ("version: v1\ndirectories: []\n", "`directories` is empty"),
            ("version: v1\n", "`directories` is empty"),
            (
                "version: v1\ndirectories: [a, ./a]\n",
                "listed more than once",
            ),
            (
                "version: v1\ndirectories: [a, a/b]\n",
                "\"a\" contains directory \"a/b\"",
            ),
            (
                "version: v1\ndirectories: [b/c, b]\n",
                "\"b\" contains directory \"b/c\"",
            ),
            ("version: v1\ndirectories: [.]\n", "\".\" is invalid"),
            (
                "version: v1\ndirectories: [../x]\n",
                "outside the workspace",
            ),
            (
                "version: v1\ndirectories: [/abs]\n",
                "expected to be relative",
            ),
            (
                "version: v1\ndirectories: [a]\nfoo: 1\n",
                "unknown field `foo`",
            ),
            ("version: v1\ndirectories: [a\n", "invalid buf.work.yaml"),
        ] {
            let message = err(text);
            assert!(message.contains(expected), "{text:?}: {message}");
            assert!(message.starts_with("buf.work.yaml @ HEAD: "), "{message}");
        }
    }

    #[test]
    fn siblings_sharing_a_prefix_do_not_overlap() {
        let dirs = parse("version: v1\ndirectories: [a, ab]\n", "buf.work.yaml").unwrap();
        assert_eq!(dirs, vec!["a".to_string(), "ab".to_string()]);
    }
}
