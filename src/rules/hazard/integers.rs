//! FIELD_VARINT_ENCODING_CHANGED and FIELD_INTEGER_REINTERPRETED: an integer field kept its
//! number but changed kind, so readers of one side decode the other side's bytes into other
//! numbers. Every example is computed by encoding with the writer's kind and decoding with the
//! reader's ([`encoding`](super::encoding)).

use super::encoding::{self, IntKind, Misread, Read};
use crate::finding::Sink;
use crate::model::{Enum, EnumType, FieldType};
use crate::rules::field::FieldSide;
use crate::rules::pairs::FieldSides;
use crate::rules::Direction;

/// FIELD_VARINT_ENCODING_CHANGED: plain varint, zigzag and fixed width swapped.
pub(in crate::rules) fn varint_encoding(sides: &FieldSides, out: &mut Sink) {
    let Some((old, new)) = int_kinds(sides) else {
        return;
    };
    if old.encoding == new.encoding {
        return;
    }
    let what = format!(
        "changed encoding from {} ({}) to {} ({})",
        old.encoding.name(),
        old.kind.name(),
        new.encoding.name(),
        new.kind.name()
    );
    report(sides, out, old, new, &what);
}

/// FIELD_INTEGER_REINTERPRETED: same encoding, other integer kind (narrowed, sign changed,
/// bool, enum), which buf's WIRE category accepts.
pub(in crate::rules) fn reinterpreted(sides: &FieldSides, out: &mut Sink) {
    let Some((old, new)) = int_kinds(sides) else {
        return;
    };
    if old.encoding != new.encoding || old.kind == new.kind {
        return;
    }
    let what = format!(
        "changed type from {} to {}, which keeps the encoding ({})",
        old.kind.name(),
        new.kind.name(),
        old.encoding.name()
    );
    report(sides, out, old, new, &what);
}

/// Both sides' integer kinds, for singular and repeated integer fields (not enum ↔ enum,
/// which the type rules judge by name).
fn int_kinds(sides: &FieldSides) -> Option<(IntKind, IntKind)> {
    let (old, new) = (sides.old.kind(), sides.new.kind());
    if old == FieldType::Enum && new == FieldType::Enum {
        return None;
    }
    if sides.old.is_map() || sides.new.is_map() {
        return None;
    }
    Some((IntKind::of(old)?, IntKind::of(new)?))
}

/// One side of the field as a reader or writer of values.
struct Side<'s, 'c, 'a> {
    field: &'s FieldSide<'c, 'a>,
    kind: IntKind,
}

impl Side<'_, '_, '_> {
    fn enum_type(&self) -> Option<&Enum> {
        (self.kind.kind == FieldType::Enum)
            .then(|| self.field.enum_type())
            .flatten()
    }

    /// What this side writes: an enum's declared numbers, else values across its range.
    fn writes(&self) -> Vec<i128> {
        match self.enum_type() {
            Some(e) => {
                encoding::smallest_first(e.values.iter().map(|v| i128::from(v.number)).collect())
            }
            None => encoding::candidates()
                .into_iter()
                .filter(|v| self.kind.holds(*v))
                .collect(),
        }
    }

    /// What this side reads from bytes `writer` wrote for `v`.
    fn reads(&self, writer: IntKind, v: i128) -> Read {
        let Some(n) = encoding::transcode(writer, self.kind, v) else {
            return Read::Dropped;
        };
        match self.enum_type() {
            Some(e) if !e.values.iter().any(|x| i128::from(x.number) == n) => {
                match e.features.enum_type.value {
                    EnumType::Closed => Read::Dropped,
                    EnumType::Open => Read::Unrecognized(n),
                }
            }
            _ => Read::Value(n),
        }
    }

    /// `true` for a bool, `NAME` for an enum number, else the number.
    fn show(&self, v: i128) -> String {
        if self.kind.kind == FieldType::Bool {
            return (v != 0).to_string();
        }
        if let Some(value) = self
            .enum_type()
            .and_then(|e| e.values.iter().find(|x| i128::from(x.number) == v))
        {
            return format!("{} ({v})", value.name);
        }
        v.to_string()
    }
}

/// The values `reader` gets wrong from `writer`'s data.
fn wrong(writer: &Side, reader: &Side) -> Vec<Misread> {
    encoding::misreads_of(writer.writes(), |v| reader.reads(writer.kind, v))
}

fn say(misreads: &[Misread], writer: &Side, reader: &Side) -> String {
    let show = |v: i128, written: bool| {
        if written {
            writer.show(v)
        } else {
            reader.show(v)
        }
    };
    encoding::sentence(misreads, show)
}

fn report(sides: &FieldSides, out: &mut Sink, old_kind: IntKind, new_kind: IntKind, what: &str) {
    let old = Side {
        field: &sides.old,
        kind: old_kind,
    };
    let new = Side {
        field: &sides.new,
        kind: new_kind,
    };
    // Forward: old readers of new data; backward: new readers of old data.
    let forward = wrong(&new, &old);
    let backward = wrong(&old, &new);
    if forward.is_empty() && backward.is_empty() {
        return;
    }
    let (who, first) = if forward.is_empty() {
        (
            "new readers of old data",
            say(&encoding::pick(&backward, 4), &old, &new),
        )
    } else {
        (
            "old readers of new data",
            say(&encoding::pick(&forward, 4), &new, &old),
        )
    };
    let message = format!(
        "{} {what}: {who} misread its values without an error ({first}).",
        sides.new.description()
    );
    let mut help = Vec::new();
    for (label, list, writer, reader) in [
        ("Old readers of new data", &forward, &new, &old),
        ("New readers of old data", &backward, &old, &new),
    ] {
        match list.first() {
            Some(first) => help.push(format!(
                "{label}: the first value that goes wrong is {}; {}",
                writer.show(first.written),
                say(&encoding::pick(list, 4), writer, reader)
            )),
            None => help.push(format!("{label} decode every value right")),
        }
    }
    help.push(format!(
        "To change the type safely, add a new {} field under a new number, write both while \
         readers upgrade, then reserve {}",
        new_kind.kind.name(),
        sides.old.field().number
    ));
    let finding = out.add(
        Some(sides.new.loc(sides.new.type_span())),
        Some(sides.old.loc(sides.old.type_span())),
        message,
    );
    finding.help = Some(help.join(". "));
    finding.direction = Direction::of(!backward.is_empty(), !forward.is_empty());
}
