//! Byte offsets to buf's line/column convention.
//!
//! buf 1.75.0 counts columns in terminal cells (protocompile measures the text before a
//! position with a monospace width per grapheme cluster): wide East Asian characters and
//! emoji count 2, a flag or an emoji ZWJ sequence 2 in all, combining marks, control and
//! format characters (`\r`, `\f`, U+200B, soft hyphen) 0, everything else 1; a tab moves to
//! the next multiple of 4 (0-based), i.e. tab stops at columns 1, 5, 9, ... Lines are split
//! on `\n` only. Each case was measured with FIELD_SAME_TYPE spans (see the tests).

/// Tab stops every this many columns (buf / protocompile).
const TAB_WIDTH: u32 = 4;

/// 1-based (line, column) of a byte offset, as buf prints them. Offsets past the end clamp
/// to the end; an offset inside a multi-byte character counts the character as passed.
pub fn line_col(text: &str, offset: u32) -> (u32, u32) {
    let offset = (offset as usize).min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, column(&text.as_bytes()[line_start..offset]))
}

/// 1-based column after the given bytes of a line.
fn column(line_prefix: &[u8]) -> u32 {
    let mut col = 0u32;
    let mut cells = Cells::default();
    for chunk in line_prefix.utf8_chunks() {
        for c in chunk.valid().chars() {
            col = if c == '\t' {
                cells = Cells::default();
                (col / TAB_WIDTH + 1) * TAB_WIDTH
            } else {
                col.saturating_add_signed(cells.width(c))
            };
        }
        // A cut multi-byte character (offset inside it) counts as one column.
        if !chunk.invalid().is_empty() {
            col += 1;
        }
    }
    col + 1
}

/// Terminal cells per character, with the state that grapheme clusters need: the second
/// regional indicator of a flag, an emoji joined by ZWJ, and variation selectors add nothing
/// of their own (or adjust the emoji before them).
#[derive(Default)]
struct Cells {
    /// The previous character was a pictograph (emoji), and its width.
    pictograph: Option<i32>,
    /// A ZWJ follows a pictograph: the next pictograph joins the same cluster.
    joining: bool,
    /// An odd number of regional indicators precede: the next one completes a flag.
    half_flag: bool,
}

impl Cells {
    fn width(&mut self, c: char) -> i32 {
        let previous = self.pictograph.take();
        let joining = std::mem::take(&mut self.joining);
        let half_flag = std::mem::take(&mut self.half_flag);
        match c {
            '\u{200D}' => {
                self.joining = previous.is_some();
                self.pictograph = previous;
                0
            }
            // VS16 asks for emoji presentation (2 cells), VS15 for text presentation (1).
            '\u{FE0F}' => previous.map_or(0, |w| {
                self.pictograph = Some(2);
                2 - w
            }),
            '\u{FE0E}' => previous.map_or(0, |w| {
                self.pictograph = Some(1);
                1 - w
            }),
            '\u{1F3FB}'..='\u{1F3FF}' if previous.is_some() => {
                self.pictograph = previous;
                0
            }
            '\u{1F1E6}'..='\u{1F1FF}' => {
                self.half_flag = !half_flag;
                if half_flag {
                    0
                } else {
                    2
                }
            }
            '\u{2E3A}' => 3,
            '\u{2E3B}' => 4,
            c if is_zero_width_format(c) || c.is_control() => 0,
            c => {
                let width = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) as i32;
                if is_pictograph(c) {
                    self.pictograph = Some(width);
                    if joining {
                        return 0;
                    }
                } else if width == 0 {
                    // A combining mark keeps the cluster (and its emoji) open.
                    self.pictograph = previous;
                    self.joining = joining;
                }
                width
            }
        }
    }
}

/// Format characters (general category Cf) and line/paragraph separators, which take no
/// cell: protocompile counts them as control characters.
fn is_zero_width_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// Extended pictographs (emoji), approximated by their blocks.
fn is_pictograph(c: char) -> bool {
    matches!(c,
        '\u{00A9}' | '\u{00AE}' | '\u{203C}' | '\u{2049}' | '\u{2122}' | '\u{2139}'
        | '\u{2194}'..='\u{21AA}' | '\u{2300}'..='\u{23FF}' | '\u{25AA}'..='\u{25FE}'
        | '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}' | '\u{3030}' | '\u{303D}'
        | '\u{3297}' | '\u{3299}' | '\u{1F000}'..='\u{1FAFF}')
}

/// Precomputed line starts of one file, for many conversions on a large file.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// Same result as [`line_col`].
    pub fn line_col(&self, text: &str, offset: u32) -> (u32, u32) {
        let offset = (offset as usize).min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        (line as u32, column(&text.as_bytes()[start..offset]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file measured against buf (see the module doc); expected values are buf's.
    const MEASURED: &str = "syntax = \"proto3\";\nmessage M {\n\tint32 a = 1;\n  /*é€😀*/ int32 b = 2;\n\t \tint32 c = 3;\n /*é€😀*/\tint32 d = 4;\n}\n";

    fn position_of(needle: &str) -> (u32, u32) {
        let offset = MEASURED.find(needle).unwrap() as u32;
        line_col(MEASURED, offset)
    }

    #[test]
    fn matches_buf_columns() {
        assert_eq!(position_of("int32 a"), (3, 5));
        assert_eq!(position_of("int32 b"), (4, 12));
        assert_eq!(position_of("int32 c"), (5, 9));
        assert_eq!(position_of("int32 d"), (6, 13));
        assert_eq!(line_col(MEASURED, 0), (1, 1));
    }

    /// Text before a field on one line -> buf's start column of the field's type (each
    /// measured with buf 1.75.0 on `message M { /*TEXT*/ string x = 1; }`).
    #[test]
    fn matches_buf_columns_of_wide_and_invisible_characters() {
        let cases = [
            ("", 18),
            ("中文", 22),
            ("e\u{301}", 19),
            ("🇫🇷", 20),
            ("👨\u{200D}👩\u{200D}👧", 20),
            ("\u{1}\u{2}", 18),
            ("\u{200B}", 18),
            ("\u{AD}", 18),
            ("😀", 20),
            ("\u{A0}", 19),
            ("ab\tc", 25),
            ("\r\r", 18),
        ];
        for (text, expected) in cases {
            let line = format!("message M {{ /*{text}*/ string x = 1; }}");
            let offset = line.find("string").unwrap() as u32;
            assert_eq!(line_col(&line, offset), (1, expected), "{text:?}");
        }
    }

    #[test]
    fn line_index_agrees() {
        let index = LineIndex::new(MEASURED);
        for offset in 0..=MEASURED.len() as u32 + 3 {
            assert_eq!(index.line_col(MEASURED, offset), line_col(MEASURED, offset));
        }
    }
}
