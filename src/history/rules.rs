//! The history rules, read off the finished ledger (category `HISTORY`, docs in
//! `rules/<ID>.md`). None of them runs in a two-revision `check`.

use std::collections::BTreeMap;

use super::ledger::{CommitIdx, ElementLedger, Ledger, Life, Occurrence, Reserved};
use super::summary::{same_type, Kind};
use super::walk::CommitInfo;
use crate::rules::Severity;

pub const FIELD_NUMBER_REUSED: &str = "FIELD_NUMBER_REUSED";
pub const ENUM_VALUE_NUMBER_REUSED: &str = "ENUM_VALUE_NUMBER_REUSED";
pub const EXTENSION_NUMBER_REUSED: &str = "EXTENSION_NUMBER_REUSED";
pub const FIELD_NAME_REUSED: &str = "FIELD_NAME_REUSED";
pub const ENUM_VALUE_NAME_REUSED: &str = "ENUM_VALUE_NAME_REUSED";
pub const FIELD_DELETED_NOT_RESERVED: &str = "FIELD_DELETED_NOT_RESERVED";
pub const ENUM_VALUE_DELETED_NOT_RESERVED: &str = "ENUM_VALUE_DELETED_NOT_RESERVED";
pub const RESERVED_DROPPED: &str = "RESERVED_DROPPED";

/// Every history rule id.
pub const HISTORY_RULES: &[&str] = &[
    ENUM_VALUE_DELETED_NOT_RESERVED,
    ENUM_VALUE_NAME_REUSED,
    ENUM_VALUE_NUMBER_REUSED,
    EXTENSION_NUMBER_REUSED,
    FIELD_DELETED_NOT_RESERVED,
    FIELD_NAME_REUSED,
    FIELD_NUMBER_REUSED,
    RESERVED_DROPPED,
];

/// One side of a history finding: a member as it was (or is).
#[derive(Debug, Clone)]
pub struct Side {
    pub name: String,
    pub ty: String,
    pub at: Occurrence,
    pub added_in: CommitIdx,
    pub deleted_in: Option<CommitIdx>,
}

/// What a finding is about inside its element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Number(i64),
    Name(String),
    Reservation(Reserved),
}

#[derive(Debug, Clone)]
pub struct HistoryFinding {
    pub rule: &'static str,
    pub severity: Severity,
    /// Full name of the message or enum (for an extension, the extendee).
    pub element: String,
    pub kind: Kind,
    pub subject: Subject,
    pub message: String,
    pub help: String,
    /// The earlier use (or the dropped reservation, or the deleted member).
    pub previous: Option<Side>,
    /// The later use, where there is one.
    pub current: Option<Side>,
    /// Where the finding is reported: the audited revision's location when the element
    /// still has one, else the commit that made the problem.
    pub at: Occurrence,
}

/// Runs every history rule over the ledger; findings sorted by place and rule.
pub fn run(ledger: &Ledger, commits: &[CommitInfo]) -> Vec<HistoryFinding> {
    run_on(ledger, commits, ledger.elements.keys())
}

/// Runs every history rule over the ledger entries of `keys` only (those a last snapshot
/// changed, for `check --history`); findings sorted by place and rule.
pub fn run_on<'a>(
    ledger: &'a Ledger,
    commits: &[CommitInfo],
    keys: impl Iterator<Item = &'a (String, Kind)>,
) -> Vec<HistoryFinding> {
    let cite = |c: CommitIdx| cite(&commits[c as usize]);
    let mut out = Vec::new();
    let sorted: BTreeMap<_, _> = keys
        .filter_map(|key| Some((key, ledger.elements.get(key)?)))
        .collect();
    for ((name, kind), entry) in sorted {
        // An extendee entry comes and goes with its extensions; whether the extended message
        // itself was gone is in the message's entry.
        let lifetime = match kind {
            Kind::Extendee => ledger.elements.get(&(name.clone(), Kind::Message)),
            _ => Some(entry),
        };
        number_reuse(name, *kind, entry, lifetime, &cite, &mut out);
        if *kind != Kind::Extendee {
            name_reuse(name, *kind, entry, &cite, &mut out);
        }
        if entry.present() && *kind != Kind::Extendee {
            deleted_not_reserved(name, *kind, entry, &cite, &mut out);
            reserved_dropped(name, *kind, entry, &cite, &mut out);
        }
    }
    out.sort_by(|a, b| {
        (&a.at.path, a.at.span.start, a.rule, &a.message).cmp(&(
            &b.at.path,
            b.at.span.start,
            b.rule,
            &b.message,
        ))
    });
    out
}

/// `1a2b3c4d5e (2024-03-01)`.
pub fn cite(c: &CommitInfo) -> String {
    if c.oid.is_zero() {
        // Not a commit: the new side of `check --history`.
        return c.subject.clone();
    }
    format!("{} ({})", c.short(), c.date())
}

pub(super) fn shown_type(ty: &str) -> String {
    if ty.is_empty() {
        String::new()
    } else {
        format!(" ({ty})")
    }
}

pub(super) fn member_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Message => "Field",
        Kind::Enum => "Enum value",
        Kind::Extendee => "Extension",
    }
}

pub(super) fn side_of(life: &Life, last: bool) -> Side {
    let version = if last {
        life.last_version()
    } else {
        life.first_version()
    };
    Side {
        name: version.name.clone(),
        ty: version.ty.clone(),
        at: if last {
            life.last.clone()
        } else {
            life.first.clone()
        },
        added_in: life.added(),
        deleted_in: life.deleted,
    }
}

/// The later life's place: where it is at the audited revision, or where it was added.
pub(super) fn place(life: &Life) -> Occurrence {
    if life.deleted.is_none() {
        life.last.clone()
    } else {
        life.first.clone()
    }
}

/// "is used again by" while the later use lasts, "was used again by" once it is gone too
/// (renumbered again, often to repair the reuse): it still mattered while it lasted.
fn used_again(ended: Option<CommitIdx>) -> &'static str {
    match ended {
        None => "is used again by",
        Some(_) => "was used again by",
    }
}

/// "since A", or "from A until B" for a later use that is gone.
fn stretch(start: CommitIdx, end: Option<CommitIdx>, cite: &dyn Fn(CommitIdx) -> String) -> String {
    match end {
        None => format!("since {}", cite(start)),
        Some(end) => format!("from {} until {}", cite(start), cite(end)),
    }
}

/// The rule for a number of `kind` used again.
pub(super) fn number_reuse_rule(kind: Kind) -> &'static str {
    match kind {
        Kind::Message => FIELD_NUMBER_REUSED,
        Kind::Enum => ENUM_VALUE_NUMBER_REUSED,
        Kind::Extendee => EXTENSION_NUMBER_REUSED,
    }
}

fn number_reuse(
    element: &str,
    kind: Kind,
    entry: &ElementLedger,
    lifetime: Option<&ElementLedger>,
    cite: &dyn Fn(CommitIdx) -> String,
    out: &mut Vec<HistoryFinding>,
) {
    let rule = number_reuse_rule(kind);
    for (number, lives) in &entry.numbers {
        for pair in lives.windows(2) {
            let (old, new) = (&pair[0], &pair[1]);
            let (was, now) = (old.last_version(), new.first_version());
            let Some(deleted) = old.deleted else { continue };
            if was.name == now.name && same_type(&was.ty, &now.ty) {
                continue;
            }
            let gone = lifetime.is_some_and(|e| e.absent_between(deleted, new.added()));
            let what = format!("{} number {number}", member_word(kind));
            let mut message = format!(
                "{what} of {} \"{element}\" was \"{}\"{} until {} and {} \"{}\"{} {}; data \
                 written with the old schema is read as the new {}.",
                kind.name(),
                was.name,
                shown_type(&was.ty),
                cite(deleted),
                used_again(new.deleted),
                now.name,
                shown_type(&now.ty),
                stretch(new.added(), new.deleted, cite),
                kind.member(),
            );
            if gone {
                message.push_str(&format!(
                    " The {} itself was gone in between, so only data from before it was \
                     deleted is affected.",
                    kind.name()
                ));
            }
            let help = match (kind, new.deleted) {
                // Repaired already: what is left is the data written while it lasted.
                (_, Some(end)) => format!(
                    "\"{}\" left number {number} at {}: make sure no data written with it from \
                     {} until then is still read by readers of \"{}\", nor the other way round",
                    now.name,
                    cite(end),
                    cite(new.added()),
                    was.name
                ),
                (Kind::Extendee, None) => format!(
                    "if \"{}\" has not shipped, give it a number no extension of \"{element}\" \
                     ever used; otherwise make sure no data written with \"{}\" is still read",
                    now.name, was.name
                ),
                (_, None) => format!(
                    "if \"{}\" has not shipped, give it a number \"{element}\" never used and \
                     reserve {number} and \"{}\"; otherwise make sure no data written with \
                     \"{}\" is still read",
                    now.name, was.name, was.name
                ),
            };
            out.push(HistoryFinding {
                rule,
                severity: if gone {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                element: element.to_string(),
                kind,
                subject: Subject::Number(*number),
                message,
                help,
                previous: Some(side_of(old, true)),
                current: Some(side_of(new, false)),
                at: place(new),
            });
        }
    }
}

/// One stretch of time a name was held by a number: version `version` of `life`, from
/// `start` to `end`.
struct Hold<'a> {
    number: i64,
    life: &'a Life,
    version: usize,
    start: CommitIdx,
    end: Option<CommitIdx>,
}

impl Hold<'_> {
    /// The name as this hold had it: its type and commits, and where it was. A name that
    /// came or went by a rename in place is not the first or last name of its life, so the
    /// life's own places would show another field.
    fn side(&self, earlier: bool) -> Side {
        let v = &self.life.versions[self.version];
        let last = self.version + 1 == self.life.versions.len();
        // The earlier use as last seen, the later one where it is now: both known only
        // for the life's last version; otherwise where the name was first seen there.
        let at = if last && (earlier || self.life.deleted.is_none()) {
            self.life.last.clone()
        } else {
            self.life.version_at(self.version).clone()
        };
        Side {
            name: v.name.clone(),
            ty: v.ty.clone(),
            at,
            added_in: self.start,
            deleted_in: self.end,
        }
    }
}

fn name_reuse(
    element: &str,
    kind: Kind,
    entry: &ElementLedger,
    cite: &dyn Fn(CommitIdx) -> String,
    out: &mut Vec<HistoryFinding>,
) {
    let rule = match kind {
        Kind::Enum => ENUM_VALUE_NAME_REUSED,
        _ => FIELD_NAME_REUSED,
    };
    let mut holds: BTreeMap<&str, Vec<Hold>> = BTreeMap::new();
    for (number, lives) in &entry.numbers {
        for life in lives {
            for (i, v) in life.versions.iter().enumerate() {
                let end = life.versions.get(i + 1).map(|n| n.at).or(life.deleted);
                holds.entry(&v.name).or_default().push(Hold {
                    number: *number,
                    life,
                    version: i,
                    start: v.at,
                    end,
                });
            }
        }
    }
    for (name, mut list) in holds {
        list.sort_by_key(|h| (h.start, h.number));
        for pair in list.windows(2) {
            let (old, new) = (&pair[0], &pair[1]);
            // Renumbered in one commit: `check` reports that, it is not a reuse.
            let Some(end) = old.end.filter(|&e| e < new.start) else {
                continue;
            };
            if old.number == new.number {
                continue;
            }
            let gone = entry.absent_between(end, new.start);
            let mut message = format!(
                "{} name \"{name}\" of {} \"{element}\" was number {} until {} and {} number {} \
                 {}; JSON and text-format data written with the old schema is read into the new \
                 {}.",
                member_word(kind),
                kind.name(),
                old.number,
                cite(end),
                used_again(new.end),
                new.number,
                stretch(new.start, new.end, cite),
                kind.member(),
            );
            if gone {
                message.push_str(&format!(" The {} itself was gone in between.", kind.name()));
            }
            let current = new.side(false);
            out.push(HistoryFinding {
                rule,
                severity: if gone {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                element: element.to_string(),
                kind,
                subject: Subject::Name(name.to_string()),
                message,
                help: format!(
                    "if number {} has not shipped under this name, rename it and reserve \
                     \"{name}\"; otherwise make sure no JSON written with number {} is still read",
                    new.number, old.number
                ),
                previous: Some(old.side(true)),
                at: current.at.clone(),
                current: Some(current),
            });
        }
    }
}

fn deleted_not_reserved(
    element: &str,
    kind: Kind,
    entry: &ElementLedger,
    cite: &dyn Fn(CommitIdx) -> String,
    out: &mut Vec<HistoryFinding>,
) {
    let rule = match kind {
        Kind::Enum => ENUM_VALUE_DELETED_NOT_RESERVED,
        _ => FIELD_DELETED_NOT_RESERVED,
    };
    let Some(at) = &entry.at else { return };
    for (number, lives) in &entry.numbers {
        let Some(life) = lives.last() else { continue };
        let Some(deleted) = life.deleted else {
            continue;
        };
        let name = &life.last_version().name;
        let number_open = !entry.number_reserved(*number);
        let name_open = !entry.reserved_names.contains_key(name) && !entry.name_in_use(name);
        let missing = match (number_open, name_open) {
            (true, true) => "neither its number nor its name is reserved",
            (true, false) => "its number is not reserved",
            (false, true) => "its name is not reserved",
            (false, false) => continue,
        };
        let statements = [
            number_open.then(|| format!("`reserved {number};`")),
            name_open.then(|| format!("`reserved \"{name}\";`")),
        ];
        let statements: Vec<String> = statements.into_iter().flatten().collect();
        out.push(HistoryFinding {
            rule,
            severity: Severity::Warning,
            element: element.to_string(),
            kind,
            subject: Subject::Number(*number),
            message: format!(
                "{} \"{name}\" ({number}) of {} \"{element}\" was deleted in {} and {missing}, \
                 so a later edit can reuse it.",
                member_word(kind),
                kind.name(),
                cite(deleted),
            ),
            help: format!(
                "add {} to {} \"{element}\"",
                statements.join(" and "),
                kind.name()
            ),
            previous: Some(side_of(life, true)),
            current: None,
            at: at.clone(),
        });
    }
}

fn reserved_dropped(
    element: &str,
    kind: Kind,
    entry: &ElementLedger,
    cite: &dyn Fn(CommitIdx) -> String,
    out: &mut Vec<HistoryFinding>,
) {
    let Some(at) = &entry.at else { return };
    for dropped in &entry.dropped {
        let (what, restored) = match &dropped.what {
            Reserved::Numbers(s, e) => {
                let restored = entry.range_reserved(*s, *e);
                let what = if s == e {
                    format!("number {s}")
                } else {
                    format!("numbers {s} to {e}")
                };
                (what, restored)
            }
            Reserved::Name(name) => (
                format!("name \"{name}\""),
                entry.reserved_names.contains_key(name),
            ),
        };
        if restored {
            continue;
        }
        out.push(HistoryFinding {
            rule: RESERVED_DROPPED,
            severity: Severity::Error,
            element: element.to_string(),
            kind,
            subject: Subject::Reservation(dropped.what.clone()),
            message: format!(
                "The reservation of {what} in {} \"{element}\", added in {}, was removed in {}; \
                 nothing now stops a new {} from reusing it.",
                kind.name(),
                cite(dropped.added),
                cite(dropped.dropped),
                kind.member(),
            ),
            help: format!("restore the reservation of {what}"),
            previous: Some(Side {
                name: what,
                ty: String::new(),
                at: dropped.at.clone(),
                added_in: dropped.added,
                deleted_in: Some(dropped.dropped),
            }),
            current: None,
            at: at.clone(),
        });
    }
}
