//! The integer encodings of the protobuf wire format, to compute what a reader of one type
//! decodes from bytes a writer of another type wrote (https://protobuf.dev/programming-guides/encoding/).
//!
//! Values are `i128`, wide enough for every int32 … uint64 value. Examples in findings come
//! from here, never from canned text: encode with the writer's type, decode with the reader's.

use crate::model::FieldType;

/// How an integer kind puts its value on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Plain varint (wire type 0): int32, int64, uint32, uint64, bool, enum.
    Varint,
    /// Zigzag varint (wire type 0): sint32, sint64.
    Zigzag,
    /// Four little-endian bytes (wire type 5): fixed32, sfixed32.
    Fixed32,
    /// Eight little-endian bytes (wire type 1): fixed64, sfixed64.
    Fixed64,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Varint => "varint",
            Encoding::Zigzag => "zigzag varint",
            Encoding::Fixed32 => "fixed 4 bytes",
            Encoding::Fixed64 => "fixed 8 bytes",
        }
    }

    fn wire_type(self) -> u8 {
        match self {
            Encoding::Varint | Encoding::Zigzag => 0,
            Encoding::Fixed64 => 1,
            Encoding::Fixed32 => 5,
        }
    }
}

/// An integer-valued kind: its encoding and the range of values it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntKind {
    pub kind: FieldType,
    pub encoding: Encoding,
    pub min: i128,
    pub max: i128,
    /// Bits a reader keeps of the wire value (32 for the 32-bit kinds, 1 for bool = non-zero).
    bits: u32,
    signed: bool,
}

impl IntKind {
    /// The integer view of a kind; None for floats, strings, bytes and messages. An enum is an
    /// int32 on the wire.
    pub fn of(kind: FieldType) -> Option<IntKind> {
        use FieldType::*;
        let (encoding, bits, signed) = match kind {
            Int32 | Enum => (Encoding::Varint, 32, true),
            Int64 => (Encoding::Varint, 64, true),
            Uint32 => (Encoding::Varint, 32, false),
            Uint64 => (Encoding::Varint, 64, false),
            Bool => (Encoding::Varint, 1, false),
            Sint32 => (Encoding::Zigzag, 32, true),
            Sint64 => (Encoding::Zigzag, 64, true),
            Fixed32 => (Encoding::Fixed32, 32, false),
            Sfixed32 => (Encoding::Fixed32, 32, true),
            Fixed64 => (Encoding::Fixed64, 64, false),
            Sfixed64 => (Encoding::Fixed64, 64, true),
            _ => return None,
        };
        let (min, max) = match (bits, signed) {
            (1, _) => (0, 1),
            (b, true) => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
            (b, false) => (0, (1i128 << b) - 1),
        };
        Some(IntKind {
            kind,
            encoding,
            min,
            max,
            bits,
            signed,
        })
    }

    pub fn holds(&self, v: i128) -> bool {
        (self.min..=self.max).contains(&v)
    }

    /// The wire type and the raw 64 bits a writer of this kind puts on the wire for `v`.
    fn encode(&self, v: i128) -> (u8, u64) {
        let raw = match self.encoding {
            // Negative int32 values are sign-extended to 10-byte varints.
            Encoding::Varint | Encoding::Fixed64 => v as i64 as u64,
            Encoding::Fixed32 => v as i32 as u32 as u64,
            Encoding::Zigzag if self.bits == 32 => {
                let n = v as i32;
                ((n << 1) ^ (n >> 31)) as u32 as u64
            }
            Encoding::Zigzag => {
                let n = v as i64;
                ((n << 1) ^ (n >> 63)) as u64
            }
        };
        (self.encoding.wire_type(), raw)
    }

    /// What a reader of this kind makes of a wire value: None when the wire type is not its
    /// own (the record goes to unknown fields and the field reads as its default).
    fn decode(&self, (wire_type, raw): (u8, u64)) -> Option<i128> {
        if wire_type != self.encoding.wire_type() {
            return None;
        }
        if self.bits == 1 {
            return Some(i128::from(raw != 0));
        }
        let raw = match self.encoding {
            Encoding::Zigzag if self.bits == 32 => {
                let n = raw as u32;
                return Some(i128::from(((n >> 1) as i32) ^ -((n & 1) as i32)));
            }
            Encoding::Zigzag => {
                return Some(i128::from(((raw >> 1) as i64) ^ -((raw & 1) as i64)));
            }
            _ => raw,
        };
        Some(match (self.bits, self.signed) {
            (32, true) => i128::from(raw as u32 as i32),
            (32, false) => i128::from(raw as u32),
            (_, true) => i128::from(raw as i64),
            _ => i128::from(raw),
        })
    }
}

/// What a reader makes of one written value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Value(i128),
    /// The record is not of the reader's wire type (or names no value of a closed enum): it
    /// lands in unknown fields and the field reads as its default.
    Dropped,
    /// A number an open enum does not declare: kept, but no generated constant matches it.
    Unrecognized(i128),
}

/// One written value that a reader decodes differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Misread {
    pub written: i128,
    pub read: Read,
}

impl Misread {
    /// Whether the reader ends up with another value than the writer meant (a dropped 0
    /// reads as the default 0 of a number field).
    fn is_wrong(&self) -> bool {
        match self.read {
            Read::Value(v) => v != self.written,
            Read::Dropped => self.written != 0,
            Read::Unrecognized(_) => true,
        }
    }
}

/// Values worth trying, in the order a reader meets them: small first, then each boundary
/// of the 32- and 64-bit ranges, so the first failure found is the smallest that fails.
pub fn candidates() -> Vec<i128> {
    let mut v: Vec<i128> = vec![0, 1, -1, 2, -2, 3, -3, 5, -5, 10, 100, 127, 128, 255, 256];
    for b in [31u32, 32, 63, 64] {
        let p = 1i128 << b;
        v.extend([p - 1, -(p - 1), p, -p, p + 1, -(p + 1)]);
    }
    v.sort_by_key(|x| (x.abs(), *x < 0));
    v.dedup();
    v
}

/// Values of `writer`'s range that a `reader` decodes differently, smallest first.
#[cfg(test)]
fn misreads(writer: IntKind, reader: IntKind) -> Vec<Misread> {
    misreads_of(
        candidates().into_iter().filter(|v| writer.holds(*v)),
        |v| match reader.decode(writer.encode(v)) {
            Some(read) => Read::Value(read),
            None => Read::Dropped,
        },
    )
}

/// The values a writer may send (small first) that `read` gets wrong.
pub fn misreads_of(
    written: impl IntoIterator<Item = i128>,
    read: impl Fn(i128) -> Read,
) -> Vec<Misread> {
    written
        .into_iter()
        .map(|written| Misread {
            written,
            read: read(written),
        })
        .filter(Misread::is_wrong)
        .collect()
}

/// Whether a reader of kind `reader` decodes `v` written by a `writer` as a plain number.
pub fn transcode(writer: IntKind, reader: IntKind, v: i128) -> Option<i128> {
    reader.decode(writer.encode(v))
}

/// `candidates()` sorted as a reader meets them, for writers whose values are listed
/// (an enum's numbers).
pub fn smallest_first(mut values: Vec<i128>) -> Vec<i128> {
    values.sort_by_key(|x| (x.abs(), *x < 0));
    values.dedup();
    values
}

/// The examples a finding shows: the first value that goes wrong and then, of the everyday
/// values 5, -1, -3, 2, those that go wrong too (at most `limit` in all).
#[cfg(test)]
fn examples(writer: IntKind, reader: IntKind, limit: usize) -> Vec<Misread> {
    pick(&misreads(writer, reader), limit)
}

/// Of misreads (smallest first): the first, then those of the everyday values 5, -1, -3, 2.
pub fn pick(wrong: &[Misread], limit: usize) -> Vec<Misread> {
    let mut out: Vec<Misread> = wrong.first().copied().into_iter().collect();
    for everyday in [5, -1, -3, 2] {
        if let Some(m) = wrong.iter().find(|m| m.written == everyday) {
            if !out.contains(m) {
                out.push(*m);
            }
        }
    }
    out.truncate(limit);
    out
}

/// `5 arrives as 10, -1 arrives as 1` for a sentence, each value shown by `show`
/// (`true` for a bool, a name for an enum number). Dropped values, and numbers an enum does
/// not declare, are said once for all of them.
pub fn sentence(misreads: &[Misread], show: impl Fn(i128, bool) -> String) -> String {
    let (mut dropped, mut unrecognized) = (Vec::new(), Vec::new());
    let mut parts: Vec<Option<String>> = Vec::new();
    for m in misreads {
        let written = show(m.written, true);
        match m.read {
            Read::Value(v) => parts.push(Some(format!("{written} arrives as {}", show(v, false)))),
            Read::Dropped => {
                if dropped.is_empty() {
                    parts.push(None);
                }
                dropped.push(written);
            }
            Read::Unrecognized(_) => {
                if unrecognized.is_empty() {
                    parts.push(None);
                }
                unrecognized.push(written);
            }
        }
    }
    // Each `None` stands for the group that first appeared there.
    let mut groups = Vec::new();
    if !dropped.is_empty() {
        groups.push((
            misreads.iter().position(|m| m.read == Read::Dropped),
            format!(
                "{} {} dropped into unknown fields (the field reads as its default)",
                list(&dropped),
                if dropped.len() == 1 { "is" } else { "are" }
            ),
        ));
    }
    if !unrecognized.is_empty() {
        groups.push((
            misreads
                .iter()
                .position(|m| matches!(m.read, Read::Unrecognized(_))),
            format!(
                "{} {} as {} no value of the enum has",
                list(&unrecognized),
                if unrecognized.len() == 1 {
                    "arrives"
                } else {
                    "arrive"
                },
                if unrecognized.len() == 1 {
                    "a number"
                } else {
                    "numbers"
                }
            ),
        ));
    }
    groups.sort_by_key(|(at, _)| *at);
    let mut groups = groups.into_iter().map(|(_, text)| text);
    parts
        .into_iter()
        .filter_map(|p| p.or_else(|| groups.next()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `1, 5 and -1`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Shows numbers as they are.
#[cfg(test)]
fn plain(v: i128, _written: bool) -> String {
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use FieldType::*;

    fn k(kind: FieldType) -> IntKind {
        IntKind::of(kind).unwrap()
    }

    fn reads(writer: FieldType, reader: FieldType, v: i128) -> Option<i128> {
        transcode(k(writer), k(reader), v)
    }

    #[test]
    fn old_int64_readers_of_sint64_data_read_zigzag_as_plain() {
        assert_eq!(reads(Sint64, Int64, 5), Some(10));
        assert_eq!(reads(Sint64, Int64, -1), Some(1));
        assert_eq!(reads(Sint64, Int64, -3), Some(5));
        assert_eq!(reads(Int64, Sint64, 5), Some(-3));
        assert_eq!(reads(Int64, Sint64, -1), Some(i128::from(i64::MIN)));
        let ex = examples(k(Sint64), k(Int64), 4);
        assert_eq!(
            sentence(&ex, plain),
            "1 arrives as 2, 5 arrives as 10, -1 arrives as 1, -3 arrives as 5"
        );
    }

    #[test]
    fn each_kind_reads_its_own_bytes_back() {
        for kind in [
            Int32, Int64, Uint32, Uint64, Bool, Sint32, Sint64, Fixed32, Sfixed32, Fixed64,
            Sfixed64, Enum,
        ] {
            assert_eq!(misreads(k(kind), k(kind)), [], "{kind:?}");
        }
    }

    #[test]
    fn narrowing_truncates_from_two_to_the_31() {
        let first = misreads(k(Int64), k(Int32))[0];
        assert_eq!(first.written, 2147483648);
        assert_eq!(first.read, Read::Value(-2147483648));
        // int32 values are sign-extended on the wire, so int64 readers get them right.
        assert_eq!(misreads(k(Int32), k(Int64)), []);
    }

    #[test]
    fn signed_and_unsigned_reinterpret_the_sign_bit() {
        assert_eq!(reads(Int32, Uint32, -1), Some(4294967295));
        assert_eq!(misreads(k(Int32), k(Uint32))[0].written, -1);
        assert_eq!(reads(Uint32, Int32, 2147483648), Some(-2147483648));
        assert_eq!(reads(Fixed32, Sfixed32, 4294967295), Some(-1));
    }

    #[test]
    fn bool_keeps_only_zero_or_not() {
        assert_eq!(reads(Int32, Bool, 2), Some(1));
        assert_eq!(misreads(k(Int32), k(Bool))[0].written, -1);
        assert_eq!(misreads(k(Bool), k(Int32)), []);
    }

    #[test]
    fn a_wire_type_change_drops_the_value() {
        assert_eq!(reads(Int32, Sfixed32, 5), None);
        assert_eq!(
            sentence(&misreads(k(Int32), k(Sfixed32))[..1], plain),
            "1 is dropped into unknown fields (the field reads as its default)"
        );
    }
}
