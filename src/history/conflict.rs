//! `FIELD_NUMBER_CONFLICT`: several audited ROOTs (each may lie in another repository) that
//! declare a message of the same full name (a copied or vendored schema) must agree on what
//! each field number means. By default the ROOTs are compared at their audited revisions;
//! with `all`, every name and type a number ever had in one is compared with every one it
//! ever had in the other, which also catches a number deleted in one copy and reused in
//! another.

use super::ledger::{ElementLedger, Life};
use super::rules::{cite, shown_type, side_of, HistoryFinding, Subject};
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
