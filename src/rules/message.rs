//! Rules about messages: deletion, oneofs, reserved and extension ranges, required fields,
//! JSON format and the descriptor accessor option.

use std::collections::{BTreeSet, HashSet};

use super::util::{
    collapse_ranges, message_max, messages_by_nested_name, missing_ranges, quote, range_string,
    report_deleted_from_file, report_deleted_reserved_names, reserved_numbers_literal, NumRange,
};
use crate::compare::{Ctx, InFile, Pair, Sink};
use crate::model::{Features, File, JsonFormat, Label, Message, ReservedRange, Span, Syntax};

/// MESSAGE_NO_DELETE: a message (top-level or nested) is missing from a file that still
/// exists. Points at the closest surviving parent message, else at the file.
pub fn message_no_delete(ctx: &Ctx, out: &mut Sink) {
    report_deleted_from_file(ctx, out, "message", messages_by_nested_name, |m| m.span);
}

/// ONEOF_NO_DELETE: a (real) oneof of a message is gone. Synthetic oneofs of proto3
/// `optional` fields are not oneofs for this rule.
pub fn oneof_no_delete(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.message_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let kept: HashSet<&str> = new.oneofs.iter().map(|o| o.name.as_str()).collect();
        for oneof in old.oneofs.iter().filter(|o| !o.synthetic) {
            if kept.contains(oneof.name.as_str()) {
                continue;
            }
            out.add(
                ctx.new_loc(pair.new.file, Some(new.span)),
                ctx.old_loc(pair.old.file, Some(oneof.span)),
                format!(
                    "Previously present oneof {} on message {} was deleted.",
                    quote(&oneof.name),
                    quote(&new.name)
                ),
            )
            .help = Some(format!(
                "restore `oneof {} {{ ... }}` with its fields in message {}",
                oneof.name, new.name
            ));
        }
    }
}

/// MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR: `no_standard_descriptor_accessor` went
/// from false (or unset) to true.
pub fn message_no_remove_standard_descriptor_accessor(ctx: &Ctx, out: &mut Sink) {
    const OPTION: &str = "no_standard_descriptor_accessor";
    for pair in ctx.message_pairs() {
        let (new, old) = (pair.new.item, pair.old.item);
        let was = old.options.bool(OPTION).unwrap_or(false);
        let is = new.options.bool(OPTION).unwrap_or(false);
        if was || !is {
            continue;
        }
        out.add(
            ctx.new_loc(pair.new.file, new.options.span(OPTION)),
            ctx.old_loc(pair.old.file, old.options.span(OPTION).or(Some(old.span))),
            format!(
                "Message option {} changed from {} to {}.",
                quote(OPTION),
                quote("false"),
                quote("true")
            ),
        )
        .help = Some(format!(
            "remove `option {OPTION} = true;` from message {}: generated code relies on the \
             descriptor accessor",
            new.name
        ));
    }
}

/// MESSAGE_SAME_JSON_FORMAT: the effective `json_format` feature went from ALLOW to
/// something else.
pub fn message_same_json_format(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.message_pairs() {
        report_json_format_loss(ctx, out, pair, ("Message", "message"), |m| {
            (&m.features, m.span, &m.name)
        });
    }
}

/// MESSAGE_SAME_JSON_FORMAT and ENUM_SAME_JSON_FORMAT: reports `pair` if its effective
/// `json_format` feature went from ALLOW to something else. `kind` is the element's kind as
/// a message starts it and as help uses it; `parts` gives its features, span and name.
pub(super) fn report_json_format_loss<T>(
    ctx: &Ctx,
    out: &mut Sink,
    pair: &Pair<T>,
    (title, kind): (&str, &str),
    parts: fn(&T) -> (&Features, Span, &String),
) {
    let (new_features, new_span, name) = parts(pair.new.item);
    let (old_features, old_span, _) = parts(pair.old.item);
    let was = old_features.json_format;
    let is = new_features.json_format;
    if was.value != JsonFormat::Allow || is.value == JsonFormat::Allow {
        return;
    }
    out.add(
        ctx.new_loc(pair.new.file, is.span.or(Some(new_span))),
        ctx.old_loc(pair.old.file, was.span.or(Some(old_span))),
        format!(
            "{title} {} JSON format support changed from {} to {}.",
            quote(name),
            json_format_name(was.value),
            json_format_name(is.value)
        ),
    )
    .help = Some(format!(
        "keep JSON support for {kind} {name}: set `option features.json_format = ALLOW;` \
         on it (or on the file)"
    ));
}

/// The FeatureSet.JsonFormat value name.
pub(super) fn json_format_name(format: JsonFormat) -> &'static str {
    match format {
        JsonFormat::Allow => "ALLOW",
        JsonFormat::LegacyBestEffort => "LEGACY_BEST_EFFORT",
    }
}

/// MESSAGE_SAME_REQUIRED_FIELDS: a required field was removed (or made non-required), or a
/// required field appeared.
pub fn message_same_required_fields(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.message_pairs() {
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
                ctx.new_loc(pair.new.file, Some(new.span)),
                ctx.old_loc(pair.old.file, Some(previous_span(number))),
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
                ctx.new_loc(pair.new.file, Some(field.span)),
                ctx.old_loc(pair.old.file, Some(previous_span(number))),
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

/// RESERVED_MESSAGE_NO_DELETE: a reserved number range lost numbers, or a reserved name is
/// gone.
pub fn reserved_message_no_delete(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.message_pairs() {
        check_ranges(
            ctx,
            out,
            pair,
            "reserved",
            &pair.old.item.reserved_ranges,
            &pair.new.item.reserved_ranges,
        );
        report_deleted_reserved_names(ctx, out, pair, "message", |m| {
            (&m.reserved_names, &m.name, m.span)
        });
    }
}

/// EXTENSION_MESSAGE_NO_DELETE: an extension range lost numbers.
pub fn extension_message_no_delete(ctx: &Ctx, out: &mut Sink) {
    for pair in ctx.message_pairs() {
        check_ranges(
            ctx,
            out,
            pair,
            "extension",
            &pair.old.item.extension_ranges,
            &pair.new.item.extension_ranges,
        );
    }
}

/// Flags every old range (reserved or extension) that the new ranges no longer cover fully,
/// naming the numbers that are no longer covered.
fn check_ranges(
    ctx: &Ctx,
    out: &mut Sink,
    pair: &Pair<Message>,
    kind: &str,
    old_ranges: &[ReservedRange],
    new_ranges: &[ReservedRange],
) {
    let (new, old): (&Message, &Message) = (pair.new.item, pair.old.item);
    let InFile { file: new_file, .. } = pair.new;
    let collapsed = collapse_ranges(new_ranges.iter().map(|r| (r.start, r.end)));
    let max = message_max(new);
    for range in old_ranges {
        let missing: Vec<NumRange> = missing_ranges(range.start, range.end, &collapsed);
        if missing.is_empty() {
            continue;
        }
        let removed = missing
            .iter()
            .map(|&r| range_string(r, max))
            .collect::<Vec<_>>()
            .join(", ");
        out.add(
            ctx.new_loc(new_file, Some(new.span)),
            ctx.old_loc(pair.old.file, Some(range.span)),
            format!(
                "Previously present {kind} range {} on message {} is missing values: {removed} \
                 were removed.",
                quote(&range_string((range.start, range.end), message_max(old))),
                quote(&new.name)
            ),
        )
        .help = Some(match kind {
            "reserved" => format!(
                "restore `reserved {};` in message {}",
                reserved_numbers_literal(&missing, max),
                new.name
            ),
            _ => format!(
                "restore `extensions {};` in message {}",
                reserved_numbers_literal(&missing, max),
                new.name
            ),
        });
    }
}
