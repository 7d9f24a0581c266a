//! MESSAGE_SAME_REQUIRED_FIELDS: a required field was removed (or made non-required), or a
//! required field appeared.

use std::collections::BTreeSet;

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{File, Label, Message, Syntax};
use crate::rules::quote::quote;

pub(in crate::rules) fn check(pair: &Pair<Message>, out: &mut Sink) {
    let (new, old) = (pair.new.item, pair.old.item);
    let (was, is) = (
        required_numbers(pair.old.file, old),
        required_numbers(pair.new.file, new),
    );
    // The old field with that number, else the old message.
    let previous_span = |number: &i64| {
        old.fields
            .iter()
            .find(|f| f.number == *number)
            .map_or(old.span, |f| f.span)
    };
    for number in was.difference(&is) {
        out.add(
            Some(Location::in_file(pair.new.file, Some(new.span))),
            Some(Location::in_file(
                pair.old.file,
                Some(previous_span(number)),
            )),
            format!(
                "Message {} had required field \"{number}\" deleted. {}",
                quote(&old.name),
                REQUIRED_WHY
            ),
        )
        .help = Some(format!(
            "restore field {number} as `required` in message {}",
            new.name
        ));
    }
    for number in is.difference(&was) {
        let Some(field) = new.fields.iter().find(|f| f.number == *number) else {
            continue;
        };
        out.add(
            Some(Location::in_file(pair.new.file, Some(field.span))),
            Some(Location::in_file(
                pair.old.file,
                Some(previous_span(number)),
            )),
            format!(
                "Message {} had required field \"{number}\" added. {}",
                quote(&new.name),
                REQUIRED_WHY
            ),
        )
        .help = Some(format!(
            "make field {} optional: old writers never send it, so new readers would \
             reject their messages",
            field.name
        ));
    }
}

/// Numbers of the fields buf counts as required: those labelled `required`. In editions the
/// descriptor label stays optional (LEGACY_REQUIRED is a feature), so buf counts none there.
fn required_numbers(file: &File, message: &Message) -> BTreeSet<i64> {
    if matches!(file.syntax, Syntax::Editions(_)) {
        return BTreeSet::new();
    }
    message
        .fields
        .iter()
        .filter(|f| f.label == Label::Required)
        .map(|f| f.number)
        .collect()
}

const REQUIRED_WHY: &str = "Required fields must always be sent, so if one side does not know \
                            about the required field, this will result in a breakage.";
