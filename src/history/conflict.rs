//! `FIELD_NUMBER_CONFLICT`: several audited ROOTs (each may lie in another repository) that
//! declare a message of the same full name (a copied or vendored schema) must agree on what
//! each field number means. By default the ROOTs are compared at their audited revisions;
//! with `all`, every name and type a number ever had in one is compared with every one it
//! ever had in the other, which also catches a number deleted in one copy and reused in
//! another.
//!
//! The copies are one schema, so their ledgers are read as one: a number deleted in one
//! copy and used later, with another name or type, by a copy that never had it is a reuse
//! (`FIELD_NUMBER_REUSED` and its enum and extension kin), found by [`reuses`] with the
//! commits of both repositories, ordered by author time.

use super::ledger::{ElementLedger, Life};
use super::rules::{
    cite, member_word, number_reuse_rule, place, shown_type, side_of, HistoryFinding, Subject,
};
use super::summary::{same_type, Kind};
use super::History;
use crate::rules::Severity;

pub const FIELD_NUMBER_CONFLICT: &str = "FIELD_NUMBER_CONFLICT";

/// A conflict found in ROOT `home` (its `at` and `current`) against ROOT `other` (its
/// `previous`; commit indices of each side are those of its own history).
pub struct Conflict {
    pub finding: HistoryFinding,
    pub home: usize,
    pub other: usize,
}

/// The conflicts between the ROOTs (`(label, history)`, in command-line order): each ROOT is
/// compared with the ones before it, and each number reported once, against the first ROOT
/// it disagrees with.
pub fn find(roots: &[(&str, &History)], all: bool) -> Vec<Conflict> {
    let mut out = Vec::new();
    for (home, (home_label, home_history)) in roots.iter().enumerate() {
        let mut names: Vec<&(String, Kind)> = home_history
            .ledger
            .elements
            .keys()
            .filter(|(_, kind)| *kind == Kind::Message)
            .collect();
        names.sort();
        for key in names {
            let entry = &home_history.ledger.elements[key];
            for (number, lives) in &entry.numbers {
                let found = roots[..home]
                    .iter()
                    .enumerate()
                    .find_map(|(other, (label, h))| {
                        let theirs = h.ledger.elements.get(key)?.numbers.get(number)?;
                        let (mine, their) = disagreement(entry, lives, theirs, all)?;
                        Some((other, *label, *h, mine, their))
                    });
                if let Some((other, other_label, other_history, mine, theirs)) = found {
                    let sides = (
                        (*home_label, *home_history, mine),
                        (other_label, other_history, theirs),
                    );
                    out.push(Conflict {
                        finding: conflict(&key.0, *number, sides),
                        home,
                        other,
                    });
                }
            }
        }
    }
    out
}

/// The two uses of one number that disagree: the current ones (both present), or with
/// `all` the first pair of any lives whose name or type differ.
fn disagreement<'a>(
    entry: &ElementLedger,
    mine: &'a [Life],
    theirs: &'a [Life],
    all: bool,
) -> Option<(&'a Life, &'a Life)> {
    let differ = |a: &Life, b: &Life| {
        let (x, y) = (a.last_version(), b.last_version());
        x.name != y.name || !same_type(&x.ty, &y.ty)
    };
    let live = |lives: &'a [Life]| lives.last().filter(|l| l.deleted.is_none());
    if let (true, Some(a), Some(b)) = (entry.present(), live(mine), live(theirs)) {
        if differ(a, b) {
            return Some((a, b));
        }
    }
    if !all {
        return None;
    }
    mine.iter()
        .rev()
        .find_map(|a| theirs.iter().rev().find(|b| differ(a, b)).map(|b| (a, b)))
}

type RootSide<'a> = (&'a str, &'a History, &'a Life);

fn conflict(element: &str, number: i64, (mine, theirs): (RootSide, RootSide)) -> HistoryFinding {
    let describe = |(label, history, life): RootSide| {
        let v = life.last_version();
        let when = match life.deleted {
            None => "now".to_string(),
            Some(d) => format!("until {}", cite(history.commit(d))),
        };
        format!("\"{}\"{} in {label} ({when})", v.name, shown_type(&v.ty))
    };
    HistoryFinding {
        rule: FIELD_NUMBER_CONFLICT,
        severity: Severity::Error,
        element: element.to_string(),
        kind: Kind::Message,
        subject: Subject::Number(number),
        message: format!(
            "Field number {number} of message \"{element}\" is {} but {}; data written by one \
             is read as the other's field.",
            describe(mine),
            describe(theirs),
        ),
        help: format!(
            "make the copies of \"{element}\" agree: one name and type for {number} everywhere, \
             and a new number (reserved in every copy) for the other field"
        ),
        previous: Some(side_of(theirs.2, true)),
        current: Some(side_of(mine.2, true)),
        at: mine.2.last.clone(),
    }
}

/// Numbers deleted in one ROOT and used later by another ROOT's copy of the same element with
/// another name or type. Only a number's first use in a ROOT is judged so (later ones are
/// that ROOT's own history), against the use that came last before it in each other ROOT:
/// when that use was still live, the copies conflict instead (reported above).
pub fn reuses(roots: &[(&str, &History)]) -> Vec<Conflict> {
    let mut out = Vec::new();
    for (home, (home_label, home_history)) in roots.iter().enumerate() {
        let mut keys: Vec<&(String, Kind)> = home_history.ledger.elements.keys().collect();
        keys.sort();
        for key in keys {
            let entry = &home_history.ledger.elements[key];
            for (number, lives) in &entry.numbers {
                let Some(new) = lives.first() else { continue };
                let added = home_history.commit(new.added()).time;
                let found = roots.iter().enumerate().find_map(|(other, (label, h))| {
                    let theirs = (other != home)
                        .then(|| h.ledger.elements.get(key)?.numbers.get(number))
                        .flatten()?;
                    let old = theirs
                        .iter()
                        .filter(|l| h.commit(l.added()).time <= added)
                        .max_by_key(|l| h.commit(l.added()).time)?;
                    let deleted = h.commit(old.deleted?).time;
                    let (was, now) = (old.last_version(), new.first_version());
                    let differs = was.name != now.name || !same_type(&was.ty, &now.ty);
                    (deleted <= added && differs).then_some((other, *label, *h, old))
                });
                if let Some((other, other_label, other_history, old)) = found {
                    let sides = (
                        (*home_label, *home_history, new),
                        (other_label, other_history, old),
                    );
                    out.push(Conflict {
                        finding: reuse(&key.0, key.1, *number, sides),
                        home,
                        other,
                    });
                }
            }
        }
    }
    out
}

fn reuse(
    element: &str,
    kind: Kind,
    number: i64,
    ((label, history, new), (old_label, old_history, old)): (RootSide, RootSide),
) -> HistoryFinding {
    let (was, now) = (old.last_version(), new.first_version());
    let deleted = old.deleted.expect("a deleted use");
    HistoryFinding {
        rule: number_reuse_rule(kind),
        severity: Severity::Error,
        element: element.to_string(),
        kind,
        subject: Subject::Number(number),
        message: format!(
            "{} number {number} of {} \"{element}\" was \"{}\"{} in {old_label} until {} and is \
             used again by \"{}\"{} in {label} since {}; the copies are one schema, so data \
             written with the old one is read as the new {}.",
            member_word(kind),
            kind.name(),
            was.name,
            shown_type(&was.ty),
            cite(old_history.commit(deleted)),
            now.name,
            shown_type(&now.ty),
            cite(history.commit(new.added())),
            kind.member(),
        ),
        help: format!(
            "if \"{}\" has not shipped, give it a number no copy of \"{element}\" ever used, and \
             reserve {number} and \"{}\" in every copy; otherwise make sure no data written \
             with \"{}\" is still read",
            now.name, was.name, was.name
        ),
        previous: Some(side_of(old, true)),
        current: Some(side_of(new, false)),
        at: place(new),
    }
}
