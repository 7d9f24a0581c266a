//! Text as buf prints it: Go-quoted strings and quoted lists.

use std::fmt::Write as _;

/// A string quoted like Go's `%q` (`strconv.Quote`): backslash escapes for quotes, backslashes
/// and control characters; printable Unicode kept as is.
pub fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// [`quote`] of a Go string holding any bytes: bytes that are not UTF-8 print as `\xff`, as
/// `strconv.Quote` prints them.
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        chunk.valid().chars().for_each(|c| push_quoted(&mut out, c));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.push('"');
    out
}

fn push_quoted(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if c.is_control() => {
            if (c as u32) <= 0xffff {
                let _ = write!(out, "\\u{:04x}", c as u32);
            } else {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
        c => out.push(c),
    }
}

/// `"a", "b", "c"`: each quoted, comma-separated (buf's list style).
pub fn quote_list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| quote(s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_like_go() {
        assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quote("é"), "\"é\"");
        // strconv.Quote's letter escapes, then \x for other C0 controls and DEL, \u for C1.
        assert_eq!(
            quote("\u{7}\u{8}\u{c}\u{b}\t\r\u{1}\u{7f}\u{85}"),
            r#""\a\b\f\v\t\r\x01\x7f\u0085""#
        );
        assert_eq!(quote_bytes(b"a\xff\xc3\xa9"), r#""a\xffé""#);
    }
}
