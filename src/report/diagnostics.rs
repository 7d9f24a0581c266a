//! Front-end errors as the commands print them: each file's text indexed once, and at most
//! [`SHOWN_PER_FILE`] per file and [`SHOWN_IN_ALL`] in all, then one line saying how many more
//! there are and in which files.
//!
//! miette reads a snippet from a plain text by scanning it from its first byte, so each
//! diagnostic of a large file cost a scan of the file: thousands of duplicate definitions in
//! a few megabytes took minutes. [`indexed`] gives every diagnostic of one file one shared
//! line index instead.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, Report, Severity, SourceCode, SourceSpan};

use crate::source::{IndexedText, SourceText};

/// Diagnostics printed per file: past the first ones, errors mostly repeat or follow from
/// them.
pub const SHOWN_PER_FILE: usize = 20;
/// Diagnostics printed in all.
pub const SHOWN_IN_ALL: usize = 100;

/// Files named in the line about the diagnostics not shown.
const FILES_NAMED: usize = 5;

/// The diagnostics, each with its source replaced by its file's text with a line index
/// built once per file (the text is copied once per file, not per diagnostic). Messages,
/// labels, help and positions are unchanged.
pub fn indexed(diagnostics: Vec<Report>) -> Vec<Report> {
    let mut files: HashMap<(String, usize), Arc<NamedSource<IndexedText>>> = HashMap::new();
    diagnostics
        .into_iter()
        .map(|diagnostic| {
            let Some((key, text)) = whole_text(&diagnostic, &files) else {
                return diagnostic;
            };
            let source = match text {
                None => Arc::clone(&files[&key]),
                Some(text) => {
                    let source = Arc::new(NamedSource::new(
                        &key.0,
                        SourceText::new(text.into()).indexed(),
                    ));
                    files.insert(key, Arc::clone(&source));
                    source
                }
            };
            Report::new(Reindexed {
                inner: diagnostic,
                source,
            })
        })
        .collect()
}

/// The file a diagnostic's source is, as (name, address of its text), and the whole text
/// when `known` does not have it yet (`None` for a diagnostic without a named source).
fn whole_text(
    diagnostic: &Report,
    known: &HashMap<(String, usize), Arc<NamedSource<IndexedText>>>,
) -> Option<((String, usize), Option<String>)> {
    let source = diagnostic.source_code()?;
    // A span at the top with no context reads one line: cheap, and enough to name the file.
    let top = source.read_span(&SourceSpan::new(0.into(), 0), 0, 0).ok()?;
    let key = (top.name()?.to_string(), top.data().as_ptr() as usize);
    if known.contains_key(&key) {
        return Some((key, None));
    }
    let all = source
        .read_span(&SourceSpan::new(0.into(), 0), 0, usize::MAX)
        .ok()?;
    let text = std::str::from_utf8(all.data()).ok()?.to_string();
    Some((key, Some(text)))
}

/// A diagnostic read from an indexed copy of its file.
struct Reindexed {
    inner: Report,
    source: Arc<NamedSource<IndexedText>>,
}

impl fmt::Debug for Reindexed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

impl fmt::Display for Reindexed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl std::error::Error for Reindexed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner.source()
    }
}

impl Diagnostic for Reindexed {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<Severity> {
        self.inner.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help()
    }
    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.url()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&*self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.inner.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.inner.related()
    }
    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.inner.diagnostic_source()
    }
}

/// The diagnostics to print, in order: the first [`SHOWN_PER_FILE`] of each file, at most
/// [`SHOWN_IN_ALL`] in all; and, when some are left out, the line that says how many and
/// where.
pub fn capped(diagnostics: &[Report]) -> (Vec<&Report>, Option<String>) {
    let mut per_file: HashMap<Option<String>, usize> = HashMap::new();
    let mut shown = Vec::new();
    // Files with diagnostics not shown, in order of first appearance, with their counts.
    let mut left: Vec<(Option<String>, usize)> = Vec::new();
    for diagnostic in diagnostics {
        let file = file_name(diagnostic);
        let count = per_file.entry(file.clone()).or_default();
        *count += 1;
        if *count <= SHOWN_PER_FILE && shown.len() < SHOWN_IN_ALL {
            shown.push(diagnostic);
            continue;
        }
        match left.iter_mut().find(|(f, _)| *f == file) {
            Some((_, n)) => *n += 1,
            None => left.push((file, 1)),
        }
    }
    if left.is_empty() {
        return (shown, None);
    }
    let not_shown: usize = left.iter().map(|(_, n)| n).sum();
    let mut places: Vec<String> = left
        .iter()
        .take(FILES_NAMED)
        .map(|(file, n)| format!("{} ({n})", file.as_deref().unwrap_or("no file")))
        .collect();
    if left.len() > FILES_NAMED {
        let others = left.len() - FILES_NAMED;
        places.push(format!(
            "and {others} more file{}",
            if others == 1 { "" } else { "s" }
        ));
    }
    let note = format!(
        "error: {not_shown} more error{} not shown ({} in all; at most {SHOWN_PER_FILE} per \
         file and {SHOWN_IN_ALL} in all are shown), in {}",
        if not_shown == 1 { "" } else { "s" },
        diagnostics.len(),
        places.join(", ")
    );
    (shown, Some(note))
}

/// The file a diagnostic is in (its source's name, `path @ revision`), if it has one.
fn file_name(diagnostic: &Report) -> Option<String> {
    let source = diagnostic.source_code()?;
    let top = source.read_span(&SourceSpan::new(0.into(), 0), 0, 0).ok()?;
    Some(top.name()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_at(name: &str, text: &Arc<str>, offset: usize) -> Report {
        Report::new(crate::parse::diagnostic(
            name,
            text,
            crate::syntax::Span {
                start: offset as u32,
                end: offset as u32 + 1,
            },
            format!("error at {offset}"),
            "here",
        ))
    }

    /// A diagnostic reads the same snippet through the shared index as from its own text.
    #[test]
    fn indexed_diagnostics_render_as_the_originals() {
        let text: Arc<str> =
            "message A {\n  int32 a = 1;\n}\nmessage B {\n  int32 b = 2;\n}\n".into();
        let offsets = [0, 14, 30, 44];
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        let render = |d: &Report| {
            let mut out = String::new();
            handler.render_report(&mut out, d.as_ref()).unwrap();
            out
        };
        let originals: Vec<Report> = offsets
            .iter()
            .map(|&o| error_at("a.proto", &text, o))
            .collect();
        let expected: Vec<String> = originals.iter().map(render).collect();
        let again: Vec<Report> = offsets
            .iter()
            .map(|&o| error_at("a.proto", &text, o))
            .collect();
        let got: Vec<String> = indexed(again).iter().map(render).collect();
        assert_eq!(got, expected);
    }

    /// 25 errors in one file and 3 in another: 20 of the first, all of the second, and a
    /// line naming what was left out.
    #[test]
    fn at_most_twenty_per_file_are_shown() {
        let a: Arc<str> = "x\n".repeat(30).into();
        let b: Arc<str> = "y\n".repeat(5).into();
        let mut all: Vec<Report> = (0..25).map(|i| error_at("a.proto", &a, i * 2)).collect();
        all.extend((0..3).map(|i| error_at("b.proto", &b, i * 2)));
        let (shown, note) = capped(&all);
        let messages: Vec<String> = shown.iter().map(|d| d.to_string()).collect();
        let mut expected: Vec<String> = (0..20).map(|i| format!("error at {}", i * 2)).collect();
        expected.extend((0..3).map(|i| format!("error at {}", i * 2)));
        assert_eq!(messages, expected);
        assert_eq!(
            note.as_deref(),
            Some(
                "error: 5 more errors not shown (28 in all; at most 20 per file and 100 in all \
                 are shown), in a.proto (5)"
            )
        );
    }

    /// 12 files of 10 errors: the first 100 are shown, then one line naming five files and
    /// how many others.
    #[test]
    fn at_most_a_hundred_are_shown_in_all() {
        let text: Arc<str> = "z\n".repeat(10).into();
        let all: Vec<Report> = (0..12)
            .flat_map(|f| {
                let text = Arc::clone(&text);
                (0..10).map(move |i| error_at(&format!("f{f:02}.proto"), &text, i * 2))
            })
            .collect();
        let (shown, note) = capped(&all);
        assert_eq!(shown.len(), 100);
        assert_eq!(
            note.as_deref(),
            Some(
                "error: 20 more errors not shown (120 in all; at most 20 per file and 100 in \
                 all are shown), in f10.proto (10), f11.proto (10)"
            )
        );
    }
}
