//! The review: every change between two schemas, breaking or not, classed as a SemVer
//! release would need it (`major`, `minor`, `patch`), with the overall verdict and a
//! conventional-commit type. It reads the shared [`Diff`](crate::diff::Diff) (paired,
//! added and removed elements) and the findings of the check that ran over it.
//!
//! - [`collect`] lists the changes element by element;
//! - [`attach`] hangs each finding on the change it is about;
//! - [`classify`] gives each change its class (findings of severity error make it major,
//!   unless its package is unstable) and the whole review its verdict.

mod attach;
mod classify;
mod collect;

mod renames;
#[cfg(test)]
mod tests;

pub use classify::{is_unstable, unstable_reason};

use crate::diff::Diff;
use crate::engine::Compared;
use crate::finding::Finding;
use crate::model::Span;

/// How a change would move a release's version number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// No effect on the wire, JSON or generated code: comments, layout, reservations,
    /// options no generator reads.
    Patch,
    /// An addition or a compatible change users can see.
    Minor,
    /// A finding of severity error under the configured categories.
    Major,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Patch => "patch",
            Class::Minor => "minor",
            Class::Major => "major",
        }
    }
}

/// What happened to the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Added,
    Removed,
    Changed,
    /// The same element under another name: a field or value of the same number, or a
    /// message, enum, service or rpc of the same contents (as `check`'s cause grouping finds).
    Renamed,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
            Kind::Renamed => "renamed",
        }
    }
}

/// The kinds of element a change is about (`element_kind` in JSON).
pub mod element {
    pub const FILE: &str = "file";
    pub const MESSAGE: &str = "message";
    pub const FIELD: &str = "field";
    pub const ONEOF: &str = "oneof";
    pub const ENUM: &str = "enum";
    pub const ENUM_VALUE: &str = "enum_value";
    pub const SERVICE: &str = "service";
    pub const RPC: &str = "rpc";
    pub const EXTENSION: &str = "extension";
    pub const OPTION: &str = "option";
    pub const RESERVATION: &str = "reservation";
    pub const COMMENT: &str = "comment";
    pub const IMPORT: &str = "import";
}

/// The sides a change is seen on: an addition on the new side, a removal on the old one,
/// an option set on the new side only (the old side's place is just its element).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    New,
    Old,
    Both,
}

/// One change to one element.
#[derive(Debug, Clone)]
pub struct Change {
    pub class: Class,
    pub kind: Kind,
    /// The element's full name (`acme.v1.Order.status`); a file's path for file-level
    /// changes. Options, reservations and comments name the element they belong to.
    pub element: String,
    pub element_kind: &'static str,
    /// For a rename: the element's old full name.
    pub renamed_from: Option<String>,
    /// Relative to ROOT: the new side's file, or the old side's for a removal.
    pub path: String,
    /// 1-based line on the side `path` names.
    pub start_line: u32,
    pub description: String,
    /// The findings about this change, sorted.
    pub findings: Vec<Finding>,
    /// The package's last component is unstable (`v1beta1`, `v0`): breaking changes are
    /// allowed, so an error finding makes the change minor, not major.
    pub unstable: Option<String>,
    /// The package the element belongs to.
    pub package: String,
    /// Which sides' snippets show the change.
    pub(crate) shown: Shown,
    /// Where the change is on each side (path relative to ROOT), for attaching findings and
    /// for snippets.
    pub(crate) new_at: Option<(String, Span)>,
    pub(crate) old_at: Option<(String, Span)>,
    /// The class the change has without findings.
    pub(crate) base: Class,
}

impl Change {
    /// Where the change is listed: by file; in a file, what the new side has first, by its
    /// line, then what it lost, by the line it had on the old side (line numbers of the two
    /// sides do not interleave).
    fn order(&self) -> impl Ord + '_ {
        (
            &self.path,
            self.kind == Kind::Removed,
            self.start_line,
            &self.element,
            self.element_kind,
            &self.description,
        )
    }

    /// The rule ids of its findings, sorted and distinct.
    pub fn rules(&self) -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = self.findings.iter().map(|f| f.rule).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// Every change of a check, and what they add up to.
#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Sorted by path; in a path, new-side changes by line, then removals by old line.
    pub changes: Vec<Change>,
}

impl Review {
    /// The highest class of any change; None when nothing changed.
    pub fn verdict(&self) -> Option<Class> {
        self.changes.iter().map(|c| c.class).max()
    }

    /// The conventional-commit type the changes suggest; None when nothing changed.
    pub fn conventional_commit(&self) -> Option<&'static str> {
        classify::conventional_commit(self)
    }

    /// How many changes of each class: (major, minor, patch).
    pub fn counts(&self) -> (usize, usize, usize) {
        let of = |class| self.changes.iter().filter(|c| c.class == class).count();
        (of(Class::Major), of(Class::Minor), of(Class::Patch))
    }
}

/// Hangs the check's findings (paths relative to ROOT, as the check reports them) on the
/// changes [`changes`] listed for each compared module, and classes each.
pub fn review(mut changes: Vec<Change>, modules: &[Compared], findings: &[Finding]) -> Review {
    attach::findings(&mut changes, findings);
    let packages = packages(modules);
    for change in &mut changes {
        if change.package.is_empty() {
            change.package = packages.get(&change.path).cloned().unwrap_or_default();
        }
        classify::class(change);
    }
    classify::with_their_file(&mut changes);
    changes.sort_by(|a, b| a.order().cmp(&b.order()));
    Review { changes }
}

/// Every change of one compared module, from the diff of its two builds (the one the rules
/// read): findings not yet attached.
pub fn changes(diff: &Diff, module: &Compared) -> Vec<Change> {
    collect::changes(diff, module)
}

/// Each compared file's package, by its path relative to ROOT (new side first).
fn packages(modules: &[Compared]) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for m in modules {
        for file in m.old.schema.files.values() {
            out.insert(m.old_path(&file.path).to_string(), file.package.clone());
        }
        for file in m.new.schema.files.values() {
            out.insert(m.new_path(&file.path).to_string(), file.package.clone());
        }
    }
    out
}
