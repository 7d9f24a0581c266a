//! Doc comments as protoc attaches them: the comment lines right above an element (no blank
//! line between) and a comment after it on the same line.

use super::{File, Span};

/// The element's doc comment: leading comment lines, then a trailing one, each trimmed and
/// joined by newlines. Empty when it has none.
pub fn doc_comment(file: &File, span: Span) -> String {
    let mut parts = leading(file, span);
    parts.extend(trailing(file, span));
    parts.join("\n")
}

/// Comments ending right above `span` (at most one line break between each).
fn leading(file: &File, span: Span) -> Vec<String> {
    let text = &*file.text;
    let before = file.comments.partition_point(|c| c.span.end <= span.start);
    let mut out = Vec::new();
    let mut next_start = span.start;
    for comment in file.comments[..before].iter().rev() {
        let gap = &text[comment.span.end as usize..next_start as usize];
        if !is_blank(gap) || gap.matches('\n').count() > 1 || !starts_line(text, comment.span) {
            break;
        }
        out.push(clean(comment.body(text)));
        next_start = comment.span.start;
    }
    out.reverse();
    out
}

/// A comment after `span` on the same line.
fn trailing(file: &File, span: Span) -> Option<String> {
    let text = &*file.text;
    let after = file.comments.partition_point(|c| c.span.start < span.end);
    let comment = file.comments.get(after)?;
    let gap = &text[span.end as usize..comment.span.start as usize];
    (is_blank(gap) && !gap.contains('\n')).then(|| clean(comment.body(text)))
}

/// Whether only blanks precede the comment on its line (else it trails an earlier element).
fn starts_line(text: &str, span: Span) -> bool {
    let line_start = text[..span.start as usize].rfind('\n').map_or(0, |i| i + 1);
    is_blank(&text[line_start..span.start as usize])
}

fn is_blank(text: &str) -> bool {
    text.chars().all(char::is_whitespace)
}

/// A comment's text without the markers' padding: each line trimmed, a block comment's
/// leading `*` dropped.
fn clean(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = line.trim();
            line.strip_prefix('*').map_or(line, str::trim_start)
        })
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}
