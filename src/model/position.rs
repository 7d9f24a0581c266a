//! Byte offsets to buf's line/column convention.
//!
//! Measured with buf 1.75.0 (a file with tabs, `é`, `€` and `😀` before fields, pointed at
//! by FIELD_SAME_TYPE): columns count UTF-16 code units (`😀` counts 2, `é` and `€` count
//! 1), and a tab moves to the next multiple of 4 (0-based), i.e. tab stops at columns 1, 5,
//! 9, ... Lines are split on `\n` only.

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
    for chunk in line_prefix.utf8_chunks() {
        for c in chunk.valid().chars() {
            col = if c == '\t' {
                (col / TAB_WIDTH + 1) * TAB_WIDTH
            } else {
                col + c.len_utf16() as u32
            };
        }
        // A cut multi-byte character (offset inside it) counts as one column.
        if !chunk.invalid().is_empty() {
            col += 1;
        }
    }
    col + 1
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

    #[test]
    fn line_index_agrees() {
        let index = LineIndex::new(MEASURED);
        for offset in 0..=MEASURED.len() as u32 + 3 {
            assert_eq!(index.line_col(MEASURED, offset), line_col(MEASURED, offset));
        }
    }
}
