//! The ledger: for every message, enum and extendee (by full name), every number it has
//! used, each use a [`Life`] from the commit that added it to the one that deleted it, with
//! the names and types it had; the reservations it holds and those it dropped.
//!
//! The ledger is updated commit by commit from the files that changed: only the elements
//! those files declare (before or after) are merged again and compared with their entry.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use git2::Oid;
use serde::{Deserialize, Serialize};

use super::summary::{Element, FileSummary, Kind, Member, Span};

/// Index of a commit in the walk's commit list.
pub type CommitIdx = u32;

/// Where something was seen: the commit, the file and its blob, the span in that blob.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occurrence {
    pub commit: CommitIdx,
    pub path: Arc<str>,
    #[serde(with = "super::oid_bytes")]
    pub blob: Oid,
    pub span: Span,
}

/// One name/type/label a number had, from commit `at` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    pub name: String,
    pub ty: String,
    pub label: String,
    pub at: CommitIdx,
}

/// One use of a number, from its addition to its deletion.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Life {
    /// In order; a rename or retype in place adds a version (not a new life).
    pub versions: Vec<Version>,
    pub deleted: Option<CommitIdx>,
    /// The commit that reserved the number once it was free.
    pub reserved: Option<CommitIdx>,
    /// Where it was first seen and where it was last seen.
    pub first: Occurrence,
    pub last: Occurrence,
    /// Where each version after the first was first seen (`since[i]` for `versions[i + 1]`):
    /// a name that came or went by a rename in place is shown where it was.
    pub since: Vec<Occurrence>,
}

impl Life {
    pub fn added(&self) -> CommitIdx {
        self.versions[0].at
    }
    pub fn first_version(&self) -> &Version {
        &self.versions[0]
    }
    pub fn last_version(&self) -> &Version {
        self.versions.last().expect("a life has a version")
    }
    /// Where version `i` was first seen.
    pub fn version_at(&self, i: usize) -> &Occurrence {
        match i {
            0 => &self.first,
            _ => self.since.get(i - 1).unwrap_or(&self.last),
        }
    }
}

/// A reserved number range still held, and since when.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reservation {
    pub start: i64,
    pub end: i64,
    pub added: CommitIdx,
    pub at: Occurrence,
}

/// A reservation removed while its element lived on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Dropped {
    /// A range of numbers, or a name.
    pub what: Reserved,
    pub added: CommitIdx,
    pub dropped: CommitIdx,
    /// The `reserved` statement as last seen.
    pub at: Occurrence,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reserved {
    Numbers(i64, i64),
    Name(String),
}

/// The history of one message, enum or extendee.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ElementLedger {
    pub kind: Kind,
    /// (added, deleted) of the element itself.
    pub presence: Vec<(CommitIdx, Option<CommitIdx>)>,
    pub numbers: BTreeMap<i64, Vec<Life>>,
    /// Current reserved ranges (sorted, disjoint).
    pub reserved: Vec<Reservation>,
    /// Current reserved names and the commit that added each.
    pub reserved_names: BTreeMap<String, (CommitIdx, Occurrence)>,
    pub dropped: Vec<Dropped>,
    /// The declaration, as last seen.
    pub at: Option<Occurrence>,
}

impl ElementLedger {
    fn new(kind: Kind) -> Self {
        ElementLedger {
            kind,
            presence: Vec::new(),
            numbers: BTreeMap::new(),
            reserved: Vec::new(),
            reserved_names: BTreeMap::new(),
            dropped: Vec::new(),
            at: None,
        }
    }

    /// Whether the element exists at the audited revision.
    pub fn present(&self) -> bool {
        self.presence.last().is_some_and(|(_, end)| end.is_none())
    }

    /// Whether the element was gone at some commit in `[from, to)`, `to` being a commit where
    /// it exists: then it came back after `from`.
    pub fn absent_between(&self, from: CommitIdx, to: CommitIdx) -> bool {
        self.presence
            .iter()
            .any(|&(start, _)| from < start && start <= to)
    }

    /// Whether `number` is covered by a current reservation.
    pub fn number_reserved(&self, number: i64) -> bool {
        self.reserved
            .iter()
            .any(|r| r.start <= number && number <= r.end)
    }

    /// Whether every number of `start..=end` is covered by current reservations.
    pub fn range_reserved(&self, start: i64, end: i64) -> bool {
        let held: Vec<(i64, i64)> = self.reserved.iter().map(|r| (r.start, r.end)).collect();
        subtract((start, end), &held).is_empty()
    }

    /// Whether a current member uses `name`.
    pub fn name_in_use(&self, name: &str) -> bool {
        self.numbers.values().any(|lives| {
            lives
                .last()
                .is_some_and(|l| l.deleted.is_none() && l.last_version().name == name)
        })
    }
}

/// One element merged over every file that declares it, at one commit.
struct State {
    at: Occurrence,
    members: BTreeMap<i64, (Member, Occurrence)>,
    reserved: Vec<(i64, i64, Occurrence)>,
    names: BTreeMap<String, Occurrence>,
}

/// A file's content at a commit: its blob and what it declares.
pub type FileVersion = (Oid, Arc<FileSummary>);

/// The ledger of every element, and the snapshot it was last updated to.
#[derive(Default, Serialize, Deserialize)]
pub struct Ledger {
    #[serde(with = "super::pairs")]
    pub elements: HashMap<(String, Kind), ElementLedger>,
    /// The files under ROOT now: path -> (blob, summary).
    #[serde(with = "super::files")]
    pub(super) files: BTreeMap<Arc<str>, (Oid, Arc<FileSummary>)>,
    /// Which files declare each element.
    #[serde(with = "super::pairs")]
    pub(super) defs: HashMap<(String, Kind), BTreeSet<Arc<str>>>,
    /// What `finish` overwrote, so that more commits can be applied as if it had not run
    /// (an extended walk then equals a walk from scratch).
    pub(super) finished: Vec<Overwritten>,
}

/// An element's places before `finish` moved them to the last commit.
#[derive(Serialize, Deserialize)]
pub(super) struct Overwritten {
    pub(super) key: (String, Kind),
    pub(super) at: Option<Occurrence>,
    pub(super) lasts: Vec<(i64, Occurrence)>,
}

impl Ledger {
    /// Applies one commit: each changed path with its new blob and summary (`None`: deleted).
    /// Returns the elements whose entries it updated.
    pub fn apply(
        &mut self,
        commit: CommitIdx,
        changes: Vec<(Arc<str>, Option<FileVersion>)>,
    ) -> BTreeSet<(String, Kind)> {
        self.unfinish();
        let mut affected: BTreeSet<(String, Kind)> = BTreeSet::new();
        for (path, new) in changes {
            let old = self.files.remove(&path).map(|(_, s)| s);
            let new_summary = new.as_ref().map(|(_, s)| s.clone());
            changed_elements(old.as_deref(), new_summary.as_deref(), &mut affected);
            if let Some(old) = &old {
                for e in &old.elements {
                    if let Some(set) = self.defs.get_mut(&(e.full_name.clone(), e.kind)) {
                        set.remove(&path);
                    }
                }
            }
            if let Some((blob, summary)) = new {
                for e in &summary.elements {
                    self.defs
                        .entry((e.full_name.clone(), e.kind))
                        .or_default()
                        .insert(path.clone());
                }
                self.files.insert(path, (blob, summary));
            }
        }
        for key in &affected {
            let state = self.merged(key, commit);
            let entry = self
                .elements
                .entry(key.clone())
                .or_insert_with(|| ElementLedger::new(key.1));
            update(entry, state, commit);
        }
        affected
    }

    /// The files under ROOT now, with their blobs.
    pub fn files(&self) -> impl Iterator<Item = (&Arc<str>, Oid)> {
        self.files.iter().map(|(p, (blob, _))| (p, *blob))
    }

    /// Points every element that exists now at its current place (the walk skips elements
    /// whose content a commit left alone, so their places may be older blobs): call once,
    /// after the last commit.
    pub fn finish(&mut self, last: CommitIdx) {
        self.unfinish();
        let keys: Vec<(String, Kind)> = self
            .elements
            .iter()
            .filter(|(_, e)| e.present())
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let Some(state) = self.merged(&key, last) else {
                continue;
            };
            let entry = self.elements.get_mut(&key).expect("listed above");
            let mut overwritten = Overwritten {
                at: entry.at.replace(state.at.clone()),
                key,
                lasts: Vec::new(),
            };
            for (number, (_, at)) in &state.members {
                if let Some(life) = entry
                    .numbers
                    .get_mut(number)
                    .and_then(|l| l.last_mut())
                    .filter(|l| l.deleted.is_none())
                {
                    let before = std::mem::replace(&mut life.last, at.clone());
                    overwritten.lasts.push((*number, before));
                }
            }
            self.finished.push(overwritten);
        }
    }

    /// Undoes `finish`: puts back the places it moved.
    fn unfinish(&mut self) {
        for overwritten in std::mem::take(&mut self.finished) {
            let Some(entry) = self.elements.get_mut(&overwritten.key) else {
                continue;
            };
            entry.at = overwritten.at;
            for (number, before) in overwritten.lasts {
                if let Some(life) = entry.numbers.get_mut(&number).and_then(|l| l.last_mut()) {
                    life.last = before;
                }
            }
        }
    }

    /// The element as every file declaring it now says, first file (by path) first.
    fn merged(&self, key: &(String, Kind), commit: CommitIdx) -> Option<State> {
        let paths = self.defs.get(key)?;
        let mut state: Option<State> = None;
        for path in paths {
            let (blob, summary) = &self.files[path];
            let occurrence = |span: Span| Occurrence {
                commit,
                path: path.clone(),
                blob: *blob,
                span,
            };
            for e in summary.named(&key.0).iter().filter(|e| e.kind == key.1) {
                let s = state.get_or_insert_with(|| State {
                    at: occurrence(e.span),
                    members: BTreeMap::new(),
                    reserved: Vec::new(),
                    names: BTreeMap::new(),
                });
                for m in &e.members {
                    s.members
                        .entry(m.number)
                        .or_insert_with(|| (m.clone(), occurrence(m.span)));
                }
                for r in &e.reserved_numbers {
                    s.reserved.push((r.start, r.end, occurrence(r.span)));
                }
                for n in &e.reserved_names {
                    s.names
                        .entry(n.name.clone())
                        .or_insert_with(|| occurrence(n.span));
                }
            }
        }
        state
    }
}

/// The elements whose content (numbers, names, types, reservations; not their places)
/// differs between two versions of a file.
pub(super) fn changed_elements(
    old: Option<&FileSummary>,
    new: Option<&FileSummary>,
    out: &mut BTreeSet<(String, Kind)>,
) {
    let old = old.map_or(&[][..], |s| s.elements.as_slice());
    let new = new.map_or(&[][..], |s| s.elements.as_slice());
    let (mut i, mut j) = (0, 0);
    // Both are sorted by (full name, kind): walk them side by side.
    while i < old.len() || j < new.len() {
        let next = match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) => key(a).min(key(b)),
            (Some(a), None) => key(a),
            (None, Some(b)) => key(b),
            (None, None) => break,
        };
        let a_end = i + old[i..].iter().take_while(|e| key(e) == next).count();
        let b_end = j + new[j..].iter().take_while(|e| key(e) == next).count();
        if !same_content(&old[i..a_end], &new[j..b_end]) {
            out.insert((next.0.to_string(), next.1));
        }
        (i, j) = (a_end, b_end);
    }
}

fn key(e: &Element) -> (&str, Kind) {
    (e.full_name.as_str(), e.kind)
}

fn member(m: &Member) -> (i64, &str, &str, &str) {
    (m.number, m.name.as_str(), m.ty.as_str(), m.label.as_str())
}

fn same_content(a: &[Element], b: &[Element]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.members
                .iter()
                .map(member)
                .eq(y.members.iter().map(member))
                && x.reserved_numbers
                    .iter()
                    .map(|r| (r.start, r.end))
                    .eq(y.reserved_numbers.iter().map(|r| (r.start, r.end)))
                && x.reserved_names
                    .iter()
                    .map(|n| &n.name)
                    .eq(y.reserved_names.iter().map(|n| &n.name))
        })
}

/// Compares an element's new state with its ledger entry and records what changed.
fn update(entry: &mut ElementLedger, state: Option<State>, commit: CommitIdx) {
    let Some(state) = state else {
        if let Some(open) = entry.presence.last_mut().filter(|(_, end)| end.is_none()) {
            open.1 = Some(commit);
            for life in entry.numbers.values_mut().filter_map(|l| l.last_mut()) {
                if life.deleted.is_none() {
                    life.deleted = Some(commit);
                }
            }
            // A reservation goes with its element; a recreated element starts afresh.
            entry.reserved.clear();
            entry.reserved_names.clear();
        }
        return;
    };
    let was_present = entry.present();
    if !was_present {
        entry.presence.push((commit, None));
    }
    entry.at = Some(state.at.clone());
    update_members(entry, &state, commit);
    update_reserved_numbers(entry, &state, commit, was_present);
    update_reserved_names(entry, &state, commit, was_present);
}

fn update_members(entry: &mut ElementLedger, state: &State, commit: CommitIdx) {
    for (number, (member, at)) in &state.members {
        let lives = entry.numbers.entry(*number).or_default();
        let version = Version {
            name: member.name.clone(),
            ty: member.ty.clone(),
            label: member.label.clone(),
            at: commit,
        };
        match lives.last_mut().filter(|l| l.deleted.is_none()) {
            Some(life) => {
                let last = life.last_version();
                if (&last.name, &last.ty, &last.label)
                    != (&version.name, &version.ty, &version.label)
                {
                    life.versions.push(version);
                    life.since.push(at.clone());
                }
                life.last = at.clone();
            }
            None => lives.push(Life {
                versions: vec![version],
                deleted: None,
                reserved: None,
                first: at.clone(),
                last: at.clone(),
                since: Vec::new(),
            }),
        }
    }
    for (number, lives) in entry.numbers.iter_mut() {
        if state.members.contains_key(number) {
            continue;
        }
        if let Some(life) = lives.last_mut().filter(|l| l.deleted.is_none()) {
            life.deleted = Some(commit);
        }
    }
}

fn update_reserved_numbers(
    entry: &mut ElementLedger,
    state: &State,
    commit: CommitIdx,
    was_present: bool,
) {
    let now = normalize(state.reserved.iter().map(|(s, e, _)| (*s, *e)).collect());
    let mut kept = Vec::new();
    for r in std::mem::take(&mut entry.reserved) {
        for (s, e) in intersect((r.start, r.end), &now) {
            kept.push(Reservation {
                start: s,
                end: e,
                ..r.clone()
            });
        }
        if was_present {
            for (s, e) in subtract((r.start, r.end), &now) {
                entry.dropped.push(Dropped {
                    what: Reserved::Numbers(s, e),
                    added: r.added,
                    dropped: commit,
                    at: r.at.clone(),
                });
            }
        }
    }
    let held: Vec<(i64, i64)> = kept.iter().map(|r| (r.start, r.end)).collect();
    for &(s, e) in &now {
        for (ns, ne) in subtract((s, e), &normalize(held.clone())) {
            let at = state
                .reserved
                .iter()
                .find(|(rs, re, _)| *rs <= ns && ns <= *re)
                .map(|(_, _, at)| at.clone())
                .unwrap_or_else(|| state.at.clone());
            kept.push(Reservation {
                start: ns,
                end: ne,
                added: commit,
                at,
            });
        }
    }
    kept.sort_by_key(|r| r.start);
    entry.reserved = kept;
    // Free numbers now covered: note the commit that reserved them.
    for r in &entry.reserved {
        for lives in entry.numbers.range_mut(r.start..=r.end).map(|(_, l)| l) {
            if let Some(life) = lives.last_mut() {
                if life.deleted.is_some() && life.reserved.is_none() {
                    life.reserved = Some(commit);
                }
            }
        }
    }
}

fn update_reserved_names(
    entry: &mut ElementLedger,
    state: &State,
    commit: CommitIdx,
    was_present: bool,
) {
    let old = std::mem::take(&mut entry.reserved_names);
    for (name, (added, at)) in &old {
        if !state.names.contains_key(name) && was_present {
            entry.dropped.push(Dropped {
                what: Reserved::Name(name.clone()),
                added: *added,
                dropped: commit,
                at: at.clone(),
            });
        }
    }
    for (name, at) in &state.names {
        let kept = old
            .get(name)
            .map_or((commit, at.clone()), |(added, _)| (*added, at.clone()));
        entry.reserved_names.insert(name.clone(), kept);
    }
}

/// Sorted, merged inclusive ranges (adjacent ones joined).
fn normalize(mut ranges: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    ranges.sort();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (s, e) in ranges {
        match out.last_mut() {
            Some(last) if s <= last.1.saturating_add(1) => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The parts of `range` inside the sorted disjoint `set`.
fn intersect(range: (i64, i64), set: &[(i64, i64)]) -> Vec<(i64, i64)> {
    set.iter()
        .filter_map(|&(s, e)| {
            let (a, b) = (s.max(range.0), e.min(range.1));
            (a <= b).then_some((a, b))
        })
        .collect()
}

/// The parts of `range` outside the sorted disjoint `set`.
fn subtract(range: (i64, i64), set: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let mut from = range.0;
    for &(s, e) in set {
        if e < from || s > range.1 {
            continue;
        }
        if s > from {
            out.push((from, s - 1));
        }
        from = e.saturating_add(1);
        if from > range.1 {
            return out;
        }
    }
    if from <= range.1 {
        out.push((from, range.1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_arithmetic() {
        assert_eq!(
            normalize(vec![(5, 6), (1, 2), (3, 4), (10, 12)]),
            [(1, 6), (10, 12)]
        );
        assert_eq!(subtract((1, 10), &[(2, 3), (8, 20)]), [(1, 1), (4, 7)]);
        assert_eq!(subtract((1, 3), &[(1, 3)]), []);
        assert_eq!(intersect((1, 10), &[(0, 2), (5, 5)]), [(1, 2), (5, 5)]);
        assert_eq!(subtract((5, 9), &[]), [(5, 9)]);
    }
}
