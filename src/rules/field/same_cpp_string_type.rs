//! FIELD_SAME_CPP_STRING_TYPE: string and bytes fields keep their C++ string type, from the
//! `ctype` option or the `(pb.cpp).string_type` feature. STRING_PIECE -> STRING is allowed.

use super::side::FieldSide;
use super::{changed, field_feature_span, report};
use crate::finding::Sink;
use crate::model::{CppStringType, FieldType, File, OptionValue, Span, Syntax};
use crate::rules::pairs::FieldSides;

pub(in crate::rules) fn check(sides: &FieldSides, out: &mut Sink) {
    let (new, old) = (sides.new, sides.old);
    // Map entries cannot configure a string type.
    if new.in_map_entry() && old.in_map_entry() {
        return;
    }
    let is_text = |s: &FieldSide| matches!(s.kind(), FieldType::String | FieldType::Bytes);
    if !is_text(&old) || !is_text(&new) {
        return;
    }
    let (was, now) = (cpp_string_type(&old), cpp_string_type(&new));
    let piece_to_string = was.piece && now.ty == CppStringType::String && !now.piece;
    if was == now || piece_to_string {
        return;
    }
    let message = changed(&new, "C++ string type", was.name(), now.name());
    let help = format!(
        "restore the C++ string type {} (generated C++ accessors change type otherwise)",
        was.name()
    );
    report(
        out,
        (&new, cpp_string_type_span(&new)),
        (&old, cpp_string_type_span(&old)),
        message,
        help,
    );
}

#[derive(PartialEq, Eq)]
struct CppString {
    ty: CppStringType,
    /// `ctype = STRING_PIECE`, which has no feature equivalent.
    piece: bool,
}

impl CppString {
    fn name(&self) -> &'static str {
        if self.piece {
            return "STRING_PIECE";
        }
        match self.ty {
            CppStringType::String => "STRING",
            CppStringType::Cord => "CORD",
            CppStringType::View => "VIEW",
        }
    }
}

/// Before edition 2024 an explicit `ctype` wins; otherwise the resolved feature.
fn cpp_string_type(side: &FieldSide) -> CppString {
    if edition_before_2024(side.file()) {
        let ctype = side.field().options.value("ctype");
        let from_ctype = match ctype {
            Some(OptionValue::Ident(v)) => Some(v.as_str()),
            Some(OptionValue::Int(0)) => Some("STRING"),
            Some(OptionValue::Int(1)) => Some("CORD"),
            Some(OptionValue::Int(2)) => Some("STRING_PIECE"),
            _ => None,
        };
        match from_ctype {
            Some("CORD") => {
                return CppString {
                    ty: CppStringType::Cord,
                    piece: false,
                }
            }
            Some("STRING_PIECE") => {
                return CppString {
                    ty: CppStringType::String,
                    piece: true,
                }
            }
            Some("STRING") => {
                return CppString {
                    ty: CppStringType::String,
                    piece: false,
                }
            }
            _ => {}
        }
    }
    CppString {
        ty: side.field().features.cpp_string_type.value,
        piece: false,
    }
}

fn edition_before_2024(file: &File) -> bool {
    match &file.syntax {
        Syntax::Editions(e) => e.parse::<u32>().is_ok_and(|year| year < 2024),
        _ => true,
    }
}

/// The `ctype` option, else the `(pb.cpp).string_type` feature on the field, else the field.
fn cpp_string_type_span(side: &FieldSide) -> Span {
    side.option_span("ctype")
        .or_else(|| field_feature_span(side, side.field().features.cpp_string_type.span))
        .unwrap_or(side.span())
}
