//! `audit --fix`: the `reserved` statements for every number and name the history saw
//! deleted and not reserved at REV, written into the working tree with `check --fix`'s edit
//! machinery (`passes::fix`). The elements are looked up by full name in the working tree as
//! it is now, so a file moved or edited since REV is still fixed in the right place, and a
//! second run finds everything reserved and changes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{miette, Report};

use super::rules::{
    HistoryFinding, Subject, ENUM_VALUE_DELETED_NOT_RESERVED, FIELD_DELETED_NOT_RESERVED,
};
use crate::config::Layout;
use crate::engine::{self, PathFilter};
use crate::finding::{Edit, Finding};
use crate::model::Schema;
use crate::passes::fix::{self, FileFix};
use crate::source::{FsTree, Snapshot, Tree};

/// What `audit --fix` would do.
pub struct Plan {
    /// The files to write (paths relative to ROOT).
    pub fixes: Vec<FileFix>,
    /// Per finding (same order as given): whether the working tree reserves its number or
    /// name once the fixes apply.
    pub resolved: Vec<bool>,
    /// Elements the working tree no longer declares (nothing to reserve them in).
    pub gone: Vec<String>,
}

/// Whether `audit --fix` acts on findings of this rule.
pub fn is_fixable(rule: &str) -> bool {
    rule == FIELD_DELETED_NOT_RESERVED || rule == ENUM_VALUE_DELETED_NOT_RESERVED
}

/// Plans the fixes of `found` in the working tree at `root` (`-I` roots on disk serve its
/// imports; `paths` / `exclude_paths` as `--path` / `--exclude-path`).
pub fn plan(
    root: &Path,
    includes: &[PathBuf],
    (paths, exclude_paths): (&[String], &[String]),
    found: &[HistoryFinding],
) -> Result<Plan, Report> {
    let schema = working_tree(root, includes, paths, exclude_paths)?;
    let mut wanted: BTreeMap<&str, (BTreeSet<i64>, BTreeSet<String>)> = BTreeMap::new();
    for f in found.iter().filter(|f| is_fixable(f.rule)) {
        let entry = wanted.entry(f.element.as_str()).or_default();
        if let Subject::Number(n) = &f.subject {
            entry.0.insert(*n);
        }
        // The deleted member's last name; what is reserved already is left alone.
        if let Some(name) = deleted_name(f) {
            entry.1.insert(name.to_string());
        }
    }
    let mut edits: Vec<Edit> = Vec::new();
    let mut done: BTreeMap<&str, fix::ElementFix> = BTreeMap::new();
    let mut gone = Vec::new();
    for (element, (numbers, names)) in &wanted {
        let Some(element_fix) = schema
            .files
            .values()
            .find_map(|file| fix::reserve_in(file, element, numbers, names))
        else {
            gone.push(element.to_string());
            continue;
        };
        edits.extend(element_fix.edits.iter().cloned());
        done.insert(element, element_fix);
    }
    let carrier = Finding {
        rule: FIELD_DELETED_NOT_RESERVED,
        location: None,
        previous: None,
        message: String::new(),
        help: None,
        edits: Arc::from(edits),
        group: None,
        focus: None,
        direction: crate::direction::Direction::Both,
        severity: None,
    };
    let fixes = fix::plan_files(root, std::slice::from_ref(&carrier))?;
    let resolved = found
        .iter()
        .map(|f| {
            is_fixable(f.rule)
                && done
                    .get(f.element.as_str())
                    .is_some_and(|d| match &f.subject {
                        Subject::Number(n) => d.numbers.contains(n),
                        Subject::Name(n) => d.names.contains(n),
                        Subject::Reservation(_) => false,
                    })
        })
        .collect();
    Ok(Plan {
        fixes,
        resolved,
        gone,
    })
}

fn deleted_name(f: &HistoryFinding) -> Option<&str> {
    f.previous.as_ref().map(|p| p.name.as_str())
}

/// The schema of the working tree under ROOT; a file that does not build stops the fix.
fn working_tree(
    root: &Path,
    includes: &[PathBuf],
    paths: &[String],
    exclude_paths: &[String],
) -> Result<Schema, Report> {
    if !root.is_dir() {
        return Err(miette!(
            "{}: --fix edits the working tree, but ROOT is not a directory on disk",
            root.display()
        ));
    }
    let label = "working tree";
    let mut include_trees: Vec<Arc<dyn Tree>> = Vec::new();
    for dir in includes.iter().filter(|d| d.is_dir()) {
        include_trees.push(Arc::new(FsTree::new(dir, label)));
    }
    let side = Snapshot {
        root: Arc::new(FsTree::new(root, label)),
        includes: include_trees,
    };
    let filter = PathFilter {
        paths,
        exclude_paths,
    };
    let mut collected = engine::collect(&side, &Layout::default(), 0, &filter)?;
    let built = engine::build(&mut collected).map_err(|e| {
        let first = e
            .diagnostics
            .into_iter()
            .next()
            .map_or_else(|| "it does not build".to_string(), |d| format!("{d:?}"));
        miette!("--fix refused, nothing was changed: the working tree does not build:\n{first}")
    })?;
    Ok(built.schema)
}
