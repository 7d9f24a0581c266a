//! FIELD_STRING_BYTES_CHANGED: `string` ↔ `bytes` share the wire encoding, but only valid
//! UTF-8 is a string: readers of the `string` side reject or mangle other bytes.

use crate::finding::Sink;
use crate::model::{FieldType, JavaUtf8Validation, Utf8Validation};
use crate::rules::pairs::FieldSides;
use crate::rules::Direction;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (&sides.new, &sides.old);
    let (was, now) = (old.kind(), new.kind());
    // Bytes were written by the old side (backward) or will be by the new side (forward).
    let (string_side, direction, readers) = match (was, now) {
        (FieldType::Bytes, FieldType::String) => (new, Direction::Backward, "new readers"),
        (FieldType::String, FieldType::Bytes) => (old, Direction::Forward, "old readers"),
        _ => return,
    };
    let features = &string_side.field().features;
    let java_verifies = features.java_utf8_validation.value == JavaUtf8Validation::Verify;
    let what = match (features.utf8_validation.value, java_verifies) {
        (Utf8Validation::Verify, _) => format!(
            "{readers} (`string`, UTF-8 validated) fail to parse the whole message when the \
             bytes are not valid UTF-8: C++, Java, Go and Python report a parse error"
        ),
        (Utf8Validation::None, false) => format!(
            "{readers} (`string`, utf8_validation NONE) accept non-UTF-8 bytes but may mangle \
             them: C++ and Go keep the raw bytes in a string that other code assumes is text; \
             Java keeps them (getXBytes()) but decodes them to U+FFFD in the string getter, \
             and Java Lite replaces them with U+FFFD as it parses"
        ),
        (Utf8Validation::None, true) => format!(
            "{readers} (`string`, utf8_validation NONE, but validated in Java) split: Java \
             fails to parse the whole message when the bytes are not valid UTF-8, while C++ \
             and Go keep the raw bytes in a string that other code assumes is text"
        ),
    };
    let finding = out.add(
        Some(new.loc(new.type_span())),
        Some(old.loc(old.type_span())),
        format!(
            "{} changed type from {} to {}: the bytes on the wire are the same, but {what}.",
            new.description(),
            was.name(),
            now.name()
        ),
    );
    finding.help = Some(format!(
        "keep the type {} unless every value ever written is valid UTF-8; in JSON a `bytes` \
         value is base64 and a `string` is text, so JSON readers on both sides misread every \
         value. Add a new field under a new number instead",
        was.name()
    ));
    finding.direction = direction;
}
