//! FILE_SAME_SYNTAX: `syntax`/`edition` changed kind (proto2, proto3, editions). A missing
//! syntax statement means proto2.

use crate::finding::{Location, Sink};
use crate::model::Syntax;
use crate::rules::pairs::FilePair;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(FilePair { new, old }: FilePair, out: &mut Sink) {
    if new.syntax.name() == old.syntax.name() {
        return;
    }
    out.add(
        Some(Location::in_file(new, new.syntax_span)),
        Some(Location::in_file(old, old.syntax_span)),
        format!(
            "File syntax changed from {} to {}.",
            quote(old.syntax.name()),
            quote(new.syntax.name())
        ),
    )
    .help = Some(format!("restore `{}`", syntax_statement(&old.syntax)));
}

fn syntax_statement(syntax: &Syntax) -> String {
    match syntax {
        Syntax::Editions(edition) => format!("edition = {};", quote(edition)),
        other => format!("syntax = {};", quote(other.name())),
    }
}
