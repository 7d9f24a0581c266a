//! Text edits that add `reserved` numbers and names to one message or enum body, keeping the
//! file's formatting: merged into the first existing statement of the same kind (at the
//! sorted position when that statement is sorted, else at its end), or a new statement at the
//! top of the body with the body's indentation and the file's line endings.

use super::{Body, Wanted};
use crate::finding::Edit;
use crate::model::{Comment, File, Span, Syntax};

/// The edits that make `body` reserve everything in `wanted`.
pub(crate) fn edits(file: &File, body: &Body, wanted: &Wanted) -> Vec<Edit> {
    if wanted.is_empty() {
        return Vec::new();
    }
    let text: &str = &file.text;
    let number_items: Vec<(Span, i64)> = body.ranges.iter().map(|r| (r.span, r.start)).collect();
    let name_items: Vec<(Span, String)> = body
        .names
        .iter()
        .map(|n| (n.span, n.name.clone()))
        .collect();
    let number_stmt = first_statement(text, &file.comments, number_items);
    let name_stmt = first_statement(text, &file.comments, name_items);
    let mut edits = Vec::new();
    // (statement, before the existing statement of the other kind / after it)
    let mut new_statement: Vec<(Vec<String>, Placement)> = Vec::new();

    let numbers: Vec<(i64, String)> = consecutive_runs(&wanted.numbers)
        .into_iter()
        .map(|(a, b)| (a, range_text(a, b)))
        .collect();
    if !numbers.is_empty() {
        match &number_stmt {
            Some(stmt) => edits.extend(merge_into(&file.path, stmt, numbers)),
            // Numbers go before names, as protoc's own output orders them.
            None => new_statement.push((statements(numbers), Placement::BeforeOther)),
        }
    }

    if !wanted.names.is_empty() {
        let quote = name_stmt
            .as_ref()
            .and_then(|s| s.first())
            .and_then(|(span, _)| text[span.range()].chars().next())
            .filter(|c| *c == '\'' || *c == '"')
            .unwrap_or('"');
        let names: Vec<(String, String)> = wanted
            .names
            .iter()
            .map(|n| (n.clone(), name_text(&file.syntax, n, quote)))
            .collect();
        match &name_stmt {
            Some(stmt) => edits.extend(merge_into(&file.path, stmt, names)),
            None => new_statement.push((statements(names), Placement::AfterOther)),
        }
    }

    match new_statement.as_slice() {
        [] => {}
        // One kind is new and the other kind exists: keep the `reserved` lines together.
        [(stmts, placement)] => {
            let beside = match placement {
                Placement::BeforeOther => name_stmt
                    .as_ref()
                    .and_then(|s| s.first())
                    .and_then(|(span, _)| line_before(text, span.start as usize)),
                Placement::AfterOther => number_stmt.as_ref().and_then(|s| {
                    let (first, last) = (s.first()?.0.start, s.last()?.0.end);
                    line_after(text, first as usize, last as usize)
                }),
            };
            let edit = match beside {
                Some((offset, indent)) => Some(Edit {
                    path: file.path.clone(),
                    span: Span::new(offset, offset),
                    replacement: stmts
                        .iter()
                        .map(|s| format!("{indent}{s}{}", eol(text)))
                        .collect(),
                }),
                None => insert_at_top(file, body, stmts),
            };
            edits.extend(edit);
        }
        several => {
            let stmts: Vec<String> = several.iter().flat_map(|(s, _)| s.clone()).collect();
            edits.extend(insert_at_top(file, body, &stmts));
        }
    }
    edits
}

/// Where a new statement goes when the element has a statement of the other kind.
enum Placement {
    BeforeOther,
    AfterOther,
}

fn eol(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// The start of the line of a statement whose first item is at `item` and its indentation,
/// when the statement starts its line (`<indent>reserved <item>`).
fn line_before(text: &str, item: usize) -> Option<(usize, &str)> {
    let start = text[..item].rfind('\n').map_or(0, |i| i + 1);
    let head = &text[start..item];
    let indent = &head[..head.len() - head.trim_start_matches([' ', '\t']).len()];
    (head.trim() == "reserved").then_some((start, indent))
}

/// The start of the line after a statement (first item at `first`, last item ending at
/// `last`) and the statement's indentation, when at most a `//` comment follows its `;`.
fn line_after(text: &str, first: usize, last: usize) -> Option<(usize, &str)> {
    let semicolon = last + text[last..].find(';')?;
    if !text[last..semicolon].trim().is_empty() {
        return None;
    }
    let line_end = text[semicolon..]
        .find('\n')
        .map_or(text.len(), |i| semicolon + i);
    let rest = text[semicolon + 1..line_end].trim();
    if !(rest.is_empty() || rest.starts_with("//")) || line_end >= text.len() {
        return None;
    }
    line_before(text, first).map(|(_, indent)| (line_end + 1, indent))
}

/// Sorted numbers grouped into runs of consecutive values: 2,3,4,7 -> (2,4),(7,7).
fn consecutive_runs(numbers: &std::collections::BTreeSet<i64>) -> Vec<(i64, i64)> {
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    runs
}

fn range_text(start: i64, end: i64) -> String {
    if start == end {
        start.to_string()
    } else {
        format!("{start} to {end}")
    }
}

/// Editions reserve names as identifiers; proto2 and proto3 as string literals.
fn name_text(syntax: &Syntax, name: &str, quote: char) -> String {
    match syntax {
        Syntax::Editions(_) => name.to_string(),
        _ => format!("{quote}{name}{quote}"),
    }
}

/// Columns a new `reserved` statement may take (indentation not counted) before the rest of
/// its items go to another statement: deleting thousands of fields must not write one line
/// of half a megabyte.
const STATEMENT_WIDTH: usize = 96;

/// `reserved a, b, c;`, as several statements when one would be wider than
/// [`STATEMENT_WIDTH`].
fn statements<K>(items: Vec<(K, String)>) -> Vec<String> {
    const OPEN: &str = "reserved ";
    let mut out = Vec::new();
    let mut list = String::new();
    for (_, item) in items {
        let width = OPEN.len() + list.len() + ", ".len() + item.len() + ";".len();
        if !list.is_empty() && width > STATEMENT_WIDTH {
            out.push(format!("{OPEN}{list};"));
            list.clear();
        }
        if !list.is_empty() {
            list.push_str(", ");
        }
        list.push_str(&item);
    }
    if !list.is_empty() {
        out.push(format!("{OPEN}{list};"));
    }
    out
}

/// The items of the first `reserved` statement among `items` (source order): consecutive
/// items belong to one statement when only a comma (and comments or whitespace) separates
/// them.
fn first_statement<K>(
    text: &str,
    comments: &[Comment],
    mut items: Vec<(Span, K)>,
) -> Option<Vec<(Span, K)>> {
    items.sort_by_key(|(span, _)| span.start);
    let mut iter = items.into_iter();
    let mut stmt = vec![iter.next()?];
    for item in iter {
        let prev_end = stmt.last().map_or(0, |(s, _)| s.end);
        if only_a_comma(text, comments, prev_end, item.0.start) {
            stmt.push(item);
        } else {
            break;
        }
    }
    Some(stmt)
}

fn only_a_comma(text: &str, comments: &[Comment], from: u32, to: u32) -> bool {
    if to < from {
        return false;
    }
    let mut rest = String::new();
    let mut pos = from;
    // Comments are in source order: start at the first one after `from`, not at the top of
    // the file (a statement of thousands of items asks this once per item).
    let first = comments.partition_point(|c| c.span.start < from);
    for c in comments[first..].iter().take_while(|c| c.span.end <= to) {
        rest.push_str(text.get(pos as usize..c.span.start as usize).unwrap_or(""));
        pos = c.span.end;
    }
    rest.push_str(text.get(pos as usize..to as usize).unwrap_or(""));
    rest.trim() == ","
}

/// Insertions that put each new item into `stmt`: before the first existing item that sorts
/// after it when the statement is sorted, else after the last item.
fn merge_into<K: Ord>(path: &str, stmt: &[(Span, K)], new: Vec<(K, String)>) -> Vec<Edit> {
    let sorted = stmt.windows(2).all(|w| w[0].1 <= w[1].1);
    // Index of the existing item to insert before; None = after the last.
    let mut at: std::collections::BTreeMap<Option<usize>, Vec<String>> = Default::default();
    for (key, text) in new {
        // A binary search: a statement may hold thousands of items.
        let before = match stmt.partition_point(|(_, k)| *k <= key) {
            i if sorted && i < stmt.len() => Some(i),
            _ => None,
        };
        at.entry(before).or_default().push(text);
    }
    let mut edits = Vec::new();
    for (before, texts) in at {
        let list = texts.join(", ");
        let (offset, replacement) = match before {
            Some(i) => (stmt[i].0.start, format!("{list}, ")),
            None => (stmt.last().map_or(0, |(s, _)| s.end), format!(", {list}")),
        };
        edits.push(Edit {
            path: path.to_string(),
            span: Span {
                start: offset,
                end: offset,
            },
            replacement,
        });
    }
    edits
}

/// A new statement (or several) at the top of the body: on its own line after the `{` with
/// the indentation of the body's first line, or inline for a one-line body.
fn insert_at_top(file: &File, body: &Body, statements: &[String]) -> Option<Edit> {
    let text: &str = &file.text;
    let brace = open_brace(text, &file.comments, body.after_name, body.span.end)?;
    let eol = eol(text);
    let line_end = text[brace..].find('\n').map_or(text.len(), |i| brace + i);
    let rest = text[brace + 1..line_end].trim_end_matches('\r');
    let brace_indent = indent_at(text, brace);
    let edit = |start: usize, end: usize, replacement: String| Edit {
        path: file.path.clone(),
        span: Span::new(start, end),
        replacement,
    };

    let rest_trimmed = rest.trim_start();
    if rest_trimmed.is_empty() || rest_trimmed.starts_with("//") {
        // The body starts on the next line.
        let insert = (line_end + 1).min(text.len());
        let indent = body_indent(text, insert, brace_indent);
        let lines: String = statements
            .iter()
            .map(|s| format!("{indent}{s}{eol}"))
            .collect();
        return Some(edit(insert, insert, lines));
    }
    if rest_trimmed.starts_with('}') {
        // An empty one-line body `{}`: open it up.
        let close = brace + 1 + (rest.len() - rest_trimmed.len());
        let indent = format!("{brace_indent}{}", indent_unit(text));
        let lines: String = statements
            .iter()
            .map(|s| format!("{eol}{indent}{s}"))
            .collect();
        return Some(edit(
            brace + 1,
            close,
            format!("{lines}{eol}{brace_indent}"),
        ));
    }
    // A one-line body with content: stay on the line.
    let joined = statements.join(" ");
    let replacement = if rest.starts_with(char::is_whitespace) {
        format!(" {joined}")
    } else {
        format!(" {joined} ")
    };
    Some(edit(brace + 1, brace + 1, replacement))
}

/// The `{` opening the body: the first one after the name outside comments, strings and
/// `[...]` options.
fn open_brace(text: &str, comments: &[Comment], from: u32, to: u32) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut pos, end) = (from as usize, (to as usize).min(bytes.len()));
    let mut depth = 0usize;
    while pos < end {
        if let Some(c) = comments.iter().find(|c| c.span.start as usize == pos) {
            pos = c.span.end as usize;
            continue;
        }
        match bytes[pos] {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            q @ (b'"' | b'\'') => {
                pos += 1;
                while pos < end && bytes[pos] != q {
                    pos += if bytes[pos] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' if depth == 0 => return Some(pos),
            _ => {}
        }
        pos += 1;
    }
    None
}

/// The leading whitespace of the line holding `offset`.
fn indent_at(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The indentation of the body's first non-blank line; one level deeper than the `{` line
/// when that first line is the closing `}`.
fn body_indent(text: &str, from: usize, brace_indent: &str) -> String {
    for line in text[from..].split('\n') {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let width = line.len() - line.trim_start_matches([' ', '\t']).len();
        if trimmed.starts_with('}') {
            return format!("{}{}", &line[..width], indent_unit(text));
        }
        return line[..width].to_string();
    }
    format!("{brace_indent}{}", indent_unit(text))
}

/// One level of indentation as the file writes it: what a line after a `{` line adds to that
/// line's indentation; two spaces when the file shows none.
fn indent_unit(text: &str) -> String {
    let mut previous: Option<&str> = None;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        if let Some(prev) = previous {
            let prev_indent = &prev[..prev.len() - prev.trim_start_matches([' ', '\t']).len()];
            if prev.trim_end().ends_with('{')
                && indent.len() > prev_indent.len()
                && indent.starts_with(prev_indent)
            {
                return indent[prev_indent.len()..].to_string();
            }
        }
        previous = Some(line);
    }
    "  ".to_string()
}
