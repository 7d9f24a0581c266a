//! Wire and wire+JSON compatibility of field kinds and cardinalities, as buf groups them
//! (https://protobuf.dev/programming-guides/proto3/#updating and #json).

use crate::model::FieldType;

use super::side::Cardinality;

/// Kinds in one group are wire compatible. string and bytes sit in separate groups: buf allows
/// string -> bytes as a special case, but not bytes -> string (bytes need not be UTF-8).
pub fn wire_group(kind: FieldType) -> u8 {
    use FieldType::*;
    match kind {
        Int32 | Int64 | Uint32 | Uint64 | Bool => 1,
        Sint32 | Sint64 => 2,
        String => 3,
        Bytes => 4,
        Fixed32 | Sfixed32 => 5,
        Fixed64 | Sfixed64 => 6,
        Double => 7,
        Float => 8,
        Group => 9,
        Message => 10,
        Enum => 11,
    }
}

/// Kinds in one group are compatible both on the wire and in JSON (the intersection).
pub fn wire_json_group(kind: FieldType) -> u8 {
    use FieldType::*;
    match kind {
        Int32 | Uint32 => 1,
        Int64 | Uint64 => 2,
        Fixed32 | Sfixed32 => 3,
        Fixed64 | Sfixed64 => 4,
        Bool => 5,
        Sint32 => 6,
        Sint64 => 7,
        String => 8,
        Bytes => 9,
        Double => 10,
        Float => 11,
        Group => 12,
        Message => 13,
        Enum => 14,
    }
}

/// Optional (either presence) fields are wire compatible with each other; repeated and map
/// fields share an encoding; required stands alone (readers reject messages without it).
pub fn cardinality_wire_group(c: Cardinality) -> u8 {
    match c {
        Cardinality::OptionalExplicit | Cardinality::OptionalImplicit => 1,
        Cardinality::Required => 2,
        Cardinality::Repeated | Cardinality::Map => 3,
    }
}

/// As [`cardinality_wire_group`], but maps and repeated fields differ in JSON.
pub fn cardinality_wire_json_group(c: Cardinality) -> u8 {
    match c {
        Cardinality::OptionalExplicit | Cardinality::OptionalImplicit => 1,
        Cardinality::Required => 2,
        Cardinality::Repeated => 3,
        Cardinality::Map => 4,
    }
}

const ALL_KINDS: [FieldType; 18] = {
    use FieldType::*;
    [
        Double, Float, Int64, Uint64, Int32, Fixed64, Fixed32, Bool, String, Group, Message, Bytes,
        Uint32, Enum, Sfixed32, Sfixed64, Sint32, Sint64,
    ]
};

/// The scalar kinds other than `kind` in the same group under `group`, for help texts.
pub fn compatible_alternatives(kind: FieldType, group: fn(FieldType) -> u8) -> Vec<&'static str> {
    if kind.is_named() {
        return Vec::new();
    }
    ALL_KINDS
        .iter()
        .filter(|k| **k != kind && !k.is_named() && group(**k) == group(kind))
        .map(|k| k.name())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use FieldType::*;

    #[test]
    fn varint_kinds_are_wire_compatible() {
        for k in [Int32, Int64, Uint32, Uint64, Bool] {
            assert_eq!(wire_group(k), wire_group(Int32));
        }
        assert_ne!(wire_group(Int64), wire_group(Sint64));
        assert_ne!(wire_group(Sint32), wire_group(Int32));
        assert_eq!(wire_group(Sint32), wire_group(Sint64));
        assert_eq!(wire_group(Fixed32), wire_group(Sfixed32));
        assert_ne!(wire_group(Fixed32), wire_group(Fixed64));
        assert_ne!(wire_group(String), wire_group(Bytes));
        assert_ne!(wire_group(Enum), wire_group(Int32));
        assert_ne!(wire_group(Message), wire_group(Group));
        assert_ne!(wire_group(Float), wire_group(Double));
    }

    #[test]
    fn json_splits_32_and_64_bit_and_bool() {
        assert_eq!(wire_json_group(Int32), wire_json_group(Uint32));
        assert_ne!(wire_json_group(Int32), wire_json_group(Int64));
        assert_eq!(wire_json_group(Int64), wire_json_group(Uint64));
        assert_ne!(wire_json_group(Bool), wire_json_group(Int32));
        assert_ne!(wire_json_group(Sint32), wire_json_group(Sint64));
    }

    #[test]
    fn alternatives_name_the_group() {
        assert_eq!(
            compatible_alternatives(Int32, wire_group),
            vec!["int64", "uint64", "bool", "uint32"]
        );
        assert_eq!(
            compatible_alternatives(Int32, wire_json_group),
            vec!["uint32"]
        );
        assert!(compatible_alternatives(Enum, wire_group).is_empty());
    }

    #[test]
    fn cardinality_groups() {
        use Cardinality::*;
        assert_eq!(
            cardinality_wire_group(OptionalExplicit),
            cardinality_wire_group(OptionalImplicit)
        );
        assert_eq!(
            cardinality_wire_group(Repeated),
            cardinality_wire_group(Map)
        );
        assert_ne!(
            cardinality_wire_json_group(Repeated),
            cardinality_wire_json_group(Map)
        );
        assert_ne!(
            cardinality_wire_group(Required),
            cardinality_wire_group(OptionalExplicit)
        );
    }
}
