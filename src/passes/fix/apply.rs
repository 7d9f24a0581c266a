//! Applying edits: group by file, sort, drop exact duplicates, refuse overlaps, then write
//! the files or show the unified diff.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use miette::{miette, Report};

use crate::finding::{Edit, Finding};

/// One file's text before and after its edits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFix {
    /// Path relative to ROOT, as the findings name it.
    pub path: String,
    pub before: String,
    pub after: String,
}

/// Applies edits to one text. Identical edits count once (the deletion findings of one
/// element share theirs); edits that overlap, or two different insertions at one offset,
/// are refused: their result would depend on an arbitrary order.
pub fn apply_edits(text: &str, edits: &[&Edit]) -> Result<String, String> {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by(|a, b| {
        (a.span.start, a.span.end, &a.replacement).cmp(&(b.span.start, b.span.end, &b.replacement))
    });
    sorted.dedup_by(|a, b| a.span == b.span && a.replacement == b.replacement);
    for pair in sorted.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let same_insertion_point = a.span.start == a.span.end && a.span == b.span;
        if b.span.start < a.span.end || same_insertion_point {
            return Err(format!(
                "edits overlap at bytes {}..{} and {}..{}",
                a.span.start, a.span.end, b.span.start, b.span.end
            ));
        }
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut pos = 0usize;
    for edit in sorted {
        let range = edit.span.range();
        let in_bounds = range.start >= pos
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end)
            && range.end <= text.len();
        if !in_bounds {
            return Err(format!(
                "edit at bytes {}..{} does not fit the file as it is now",
                range.start, range.end
            ));
        }
        out.push_str(&text[pos..range.start]);
        out.push_str(&edit.replacement);
        pos = range.end;
    }
    out.push_str(&text[pos..]);
    Ok(out)
}

/// The files the findings' edits change, read from `root` and edited in memory. Fails
/// (changing nothing) when a file cannot be read or its edits conflict.
pub fn plan_files(root: &Path, findings: &[Finding]) -> Result<Vec<FileFix>, Report> {
    // Findings that share their edits share one allocation: take each once, so that 50,000
    // deletions from one message do not compare one long `reserved` statement 50,000 times.
    let mut seen = HashSet::new();
    let shared_once = findings
        .iter()
        .filter(|f| seen.insert(f.edits.as_ptr()))
        .flat_map(|f| f.edits.iter());
    let mut by_path: BTreeMap<&str, Vec<&Edit>> = BTreeMap::new();
    for edit in shared_once {
        by_path.entry(edit.path.as_str()).or_default().push(edit);
    }
    let mut out = Vec::new();
    for (path, edits) in by_path {
        let full = root.join(path);
        let before = std::fs::read_to_string(&full)
            .map_err(|e| miette!("{}: cannot read the file to fix: {e}", full.display()))?;
        let after = apply_edits(&before, &edits).map_err(|why| {
            miette!("{path}: --fix refused, nothing was changed: {why} (please report this)")
        })?;
        // Never write a file that no longer parses: a wrong edit must stop here.
        if let Some((_, why)) = crate::parse::parse(&after).errors.first() {
            return Err(miette!(
                "{path}: --fix refused, nothing was changed: the fixed file would not parse ({why}; please report this)"
            ));
        }
        if after != before {
            out.push(FileFix {
                path: path.to_string(),
                before,
                after,
            });
        }
    }
    Ok(out)
}

/// The unified diff of all fixes, with `a/PATH` and `b/PATH` headers as git prints them;
/// PATH is `root` joined with the file's path, so `git apply` or `patch -p1` run where the
/// check was run applies it.
pub fn unified_diff(root: &Path, fixes: &[FileFix]) -> String {
    let mut out = String::new();
    for fix in fixes {
        let shown = shown_path(root, &fix.path);
        let diff = similar::TextDiff::from_lines(&fix.before, &fix.after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{shown}"), &format!("b/{shown}"))
                .to_string(),
        );
    }
    out
}

fn shown_path(root: &Path, path: &str) -> String {
    let root = root.to_string_lossy().replace('\\', "/");
    let root = root.trim_start_matches("./").trim_end_matches('/');
    if root.is_empty() || root == "." {
        path.to_string()
    } else {
        format!("{root}/{path}")
    }
}

/// Writes the fixed files under `root`.
pub fn write_files(root: &Path, fixes: &[FileFix]) -> Result<(), Report> {
    for fix in fixes {
        let full = root.join(&fix.path);
        std::fs::write(&full, &fix.after)
            .map_err(|e| miette!("{}: cannot write the fixed file: {e}", full.display()))?;
    }
    Ok(())
}
