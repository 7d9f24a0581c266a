//! What edition 2024 removed: options replaced by features.

use crate::model::Syntax;
use crate::syntax::ast::OptionDecl;
use crate::syntax::Span;

/// protoc: `ctype option is not allowed under edition 2024 and beyond. Use the feature
/// string_type = VIEW|CORD|STRING|... instead.` and `google.protobuf.FileOptions.
/// java_multiple_files has been removed in edition 2024: ...`.
pub(super) fn no_removed_option(syntax: &Syntax, option: &OptionDecl) -> Option<(Span, String)> {
    let Syntax::Editions(edition) = syntax else {
        return None;
    };
    // Edition names of one length compare as numbers.
    if edition.as_str() < "2024" || option.name.len() != 1 || option.name[0].is_extension {
        return None;
    }
    let instead = match option.name[0].name.as_str() {
        "ctype" => "the feature `features.(pb.cpp).string_type`",
        "java_multiple_files" => "the feature `features.(pb.java).nest_in_file_class`",
        _ => return None,
    };
    Some((
        option.name[0].span,
        format!(
            "option `{}` was removed in edition 2024: use {instead}",
            option.name[0].name
        ),
    ))
}
