//! The `json_format` feature check shared by MESSAGE_SAME_JSON_FORMAT and
//! ENUM_SAME_JSON_FORMAT.

use crate::diff::Pair;
use crate::finding::{Location, Sink};
use crate::model::{Features, JsonFormat, Span};
use crate::rules::quote::quote;

/// Reports `pair` if its effective `json_format` feature went from ALLOW to something else.
/// `kind` is the element's kind as a message starts it and as help uses it; `parts` gives its
/// features, span and name.
pub(super) fn report_json_format_loss<T>(
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
        Some(Location::in_file(pair.new.file, is.span.or(Some(new_span)))),
        Some(Location::in_file(
            pair.old.file,
            was.span.or(Some(old_span)),
        )),
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
fn json_format_name(format: JsonFormat) -> &'static str {
    match format {
        JsonFormat::Allow => "ALLOW",
        JsonFormat::LegacyBestEffort => "LEGACY_BEST_EFFORT",
    }
}
