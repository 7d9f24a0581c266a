//! A file's text as the reports show it, for miette snippets. miette finds a span's lines by counting newlines from the
//! top of the file on every diagnostic: fine for one error, quadratic for 50,000 findings in
//! one large file. [`SourceText`] indexes the line starts once and hands miette only the
//! lines around the span, so each snippet costs a binary search.

use std::sync::{Arc, OnceLock};

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// One file's text as the report shows it, with its line starts indexed on first use.
#[derive(Debug, Clone)]
pub struct SourceText {
    text: Arc<str>,
    line_starts: OnceLock<Arc<[usize]>>,
}

impl SourceText {
    pub fn new(text: Arc<str>) -> Self {
        SourceText {
            text,
            line_starts: OnceLock::new(),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// A cheap handle miette can own (`NamedSource` needs `'static`).
    pub fn indexed(&self) -> IndexedText {
        let line_starts = self
            .line_starts
            .get_or_init(|| line_starts(self.text.as_bytes()).into());
        IndexedText {
            text: Arc::clone(&self.text),
            line_starts: Arc::clone(line_starts),
        }
    }
}

/// Offsets where lines start, with miette's idea of a line break: `\n`, `\r\n` or a lone `\r`.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                i += 2;
                starts.push(i);
            }
            b'\r' | b'\n' => {
                i += 1;
                starts.push(i);
            }
            _ => i += 1,
        }
    }
    starts
}

#[derive(Debug, Clone)]
pub struct IndexedText {
    text: Arc<str>,
    line_starts: Arc<[usize]>,
}

impl IndexedText {
    /// The 0-based line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len())
    }
}

impl SourceCode for IndexedText {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let bytes = self.text.as_bytes();
        if span.offset() > bytes.len() {
            return Err(MietteError::OutOfBounds);
        }
        // A window of whole lines around the span, a line wider than miette reads on each
        // side, so that miette's own scan inside it sees exactly what it would see in the
        // whole file.
        let first_line = self
            .line_of(span.offset())
            .saturating_sub(context_lines_before + 1);
        let last = (span.offset() + span.len()).saturating_sub(1);
        let end_line = self.line_of(last) + context_lines_after + 2;
        let (start, end) = (self.line_start(first_line), self.line_start(end_line));
        let window = &bytes[start..end.max(start)];
        let inner_span = SourceSpan::new((span.offset() - start).into(), span.len());
        let inner = window.read_span(&inner_span, context_lines_before, context_lines_after)?;
        let data_start = start + inner.span().offset();
        Ok(Box::new(MietteSpanContents::new(
            &bytes[data_start..data_start + inner.data().len()],
            SourceSpan::new(data_start.into(), inner.data().len()),
            inner.line() + first_line,
            inner.column(),
            // miette counts the line breaks from the top of its input to the window's end.
            inner.line_count() + first_line,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every span of a text with mixed line endings reads the same through the window as
    /// through miette's whole-file scan.
    #[test]
    fn windows_read_what_the_whole_text_reads() {
        let text = "a\nbb\r\nccc\rdddd\n\neeeee\r\n\r\nf\ng";
        let indexed = SourceText::new(text.into()).indexed();
        for start in 0..=text.len() {
            for end in start..=text.len() {
                for (before, after) in [(0, 0), (1, 1), (2, 3)] {
                    let span = SourceSpan::new(start.into(), end - start);
                    let ours = indexed.read_span(&span, before, after);
                    let theirs = text.read_span(&span, before, after);
                    match (ours, theirs) {
                        (Ok(a), Ok(b)) => {
                            let what = format!("{start}..{end} ({before}, {after})");
                            assert_eq!(a.data(), b.data(), "{what}");
                            assert_eq!(a.span(), b.span(), "{what}");
                            assert_eq!(a.line(), b.line(), "{what}");
                            assert_eq!(a.column(), b.column(), "{what}");
                            assert_eq!(a.line_count(), b.line_count(), "{what}");
                        }
                        (a, b) => assert_eq!(a.is_err(), b.is_err(), "{start}..{end}"),
                    }
                }
            }
        }
    }
}
