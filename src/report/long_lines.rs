//! Diagnostics whose label sits far into a very long line.
//!
//! miette's graphical handler pads the underline with `{:width$}`, and Rust format widths stop at
//! 65,535: a label that far into a line panics ("Formatting argument out of range", exit 101).
//! Such a diagnostic is shown without its snippet, with its location written in the message
//! instead; a snippet of a line that long could not be read anyway.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, ReportHandler, SourceCode, SourceSpan};

/// The furthest byte column shown in a snippet. miette draws a tab four columns wide, so a
/// byte column below 65,535 / 4 can never need a wider padding than Rust can format.
const MAX_SNIPPET_COLUMN: usize = 16_000;

/// A report handler that hands `inner` only diagnostics it can draw.
pub struct SafeHandler<H>(pub H);

impl<H: ReportHandler> ReportHandler for SafeHandler<H> {
    fn debug(&self, diagnostic: &dyn Diagnostic, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if fits_in_snippet(diagnostic, None) {
            self.0.debug(diagnostic, f)
        } else {
            self.0.debug(&Unsnipped::new(diagnostic, None), f)
        }
    }
}

/// Renders with miette's graphical handler, dropping snippets it could not draw.
pub fn render(
    handler: &miette::GraphicalReportHandler,
    out: &mut impl fmt::Write,
    diagnostic: &dyn Diagnostic,
) -> fmt::Result {
    if fits_in_snippet(diagnostic, None) {
        handler.render_report(out, diagnostic)
    } else {
        handler.render_report(out, &Unsnipped::new(diagnostic, None))
    }
}

/// Whether every label of `diagnostic` and of its related diagnostics starts and ends within
/// [`MAX_SNIPPET_COLUMN`] of its line's start.
fn fits_in_snippet(diagnostic: &dyn Diagnostic, inherited: Option<&dyn SourceCode>) -> bool {
    let source = diagnostic.source_code().or(inherited);
    let labels_fit = match (source, diagnostic.labels()) {
        (Some(source), Some(mut labels)) => labels.all(|label| {
            let span = *label.inner();
            let end = SourceSpan::new((span.offset() + span.len()).into(), 0);
            [SourceSpan::new(span.offset().into(), 0), end]
                .iter()
                .all(|point| column(source, point).is_none_or(|c| c <= MAX_SNIPPET_COLUMN))
        }),
        _ => true,
    };
    labels_fit
        && diagnostic
            .related()
            .is_none_or(|mut related| related.all(|r| fits_in_snippet(r, source)))
}

/// The 0-based byte column of an empty span `point` (with no context lines, miette's
/// column is the span's own).
fn column(source: &dyn SourceCode, point: &SourceSpan) -> Option<usize> {
    Some(source.read_span(point, 0, 0).ok()?.column())
}

/// `name:line:column` (1-based) of a label, as the snippet header would show it.
fn location(source: &dyn SourceCode, label: &LabeledSpan) -> Option<String> {
    let contents = source.read_span(label.inner(), 0, 0).ok()?;
    let line = contents.line() + 1;
    let column = contents.column() + 1;
    Some(match contents.name() {
        Some(name) => format!("{name}:{line}:{column}"),
        None => format!("{line}:{column}"),
    })
}

/// A diagnostic as it was, minus its snippet: the labels' locations join the message.
struct Unsnipped<'a> {
    inner: &'a dyn Diagnostic,
    message: String,
    related: Vec<Unsnipped<'a>>,
}

impl<'a> Unsnipped<'a> {
    fn new(inner: &'a dyn Diagnostic, inherited: Option<&'a dyn SourceCode>) -> Self {
        let source = inner.source_code().or(inherited);
        let locations: Vec<String> = match (source, inner.labels()) {
            (Some(source), Some(labels)) => labels.filter_map(|l| location(source, &l)).collect(),
            _ => Vec::new(),
        };
        let message = if locations.is_empty() {
            inner.to_string()
        } else {
            format!(
                "{inner} (at {}; the line is too long to show)",
                locations.join(", ")
            )
        };
        let related = inner
            .related()
            .map(|related| related.map(|r| Unsnipped::new(r, source)).collect())
            .unwrap_or_default();
        Unsnipped {
            inner,
            message,
            related,
        }
    }
}

impl fmt::Debug for Unsnipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Unsnipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Unsnipped<'_> {}

impl Diagnostic for Unsnipped<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.help()
    }
    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.inner.url()
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::{GraphicalReportHandler, GraphicalTheme, NamedSource};

    #[derive(Debug)]
    struct AtColumn {
        src: NamedSource<String>,
        span: SourceSpan,
    }

    impl fmt::Display for AtColumn {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("expected field number")
        }
    }

    impl std::error::Error for AtColumn {}

    impl Diagnostic for AtColumn {
        fn source_code(&self) -> Option<&dyn SourceCode> {
            Some(&self.src)
        }
        fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
            Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
                Some("here".into()),
                self.span,
            ))))
        }
    }

    fn at_column(column: usize) -> AtColumn {
        let text = format!("syntax = \"proto3\";\n{};\n", "a".repeat(column));
        AtColumn {
            src: NamedSource::new("a.proto", text),
            span: SourceSpan::new((19 + column).into(), 1),
        }
    }

    fn rendered(diagnostic: &dyn Diagnostic) -> String {
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor());
        let mut out = String::new();
        render(&handler, &mut out, diagnostic).unwrap();
        out
    }

    /// Column 70,000 used to panic inside miette; now the location is in the message.
    #[test]
    fn a_label_past_column_65535_is_located_in_the_message() {
        let out = rendered(&at_column(70_000));
        assert!(
            out.contains(
                "expected field number (at a.proto:2:70001; the line is too long to show)"
            ),
            "{out}"
        );
        assert!(!out.contains("aaaa"), "{out}");
    }

    #[test]
    fn a_label_on_an_ordinary_line_keeps_its_snippet() {
        let out = rendered(&at_column(10));
        assert!(out.contains("[a.proto:2:11]"), "{out}");
        assert!(out.contains("aaaaaaaaaa;"), "{out}");
    }
}
