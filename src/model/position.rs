//! Byte offsets to buf's line/column convention.

/// 1-based (line, column) of a byte offset. TODO(front-end): match buf's column convention
/// for tabs and multi-byte characters.
pub fn line_col(text: &str, offset: u32) -> (u32, u32) {
    let offset = (offset as usize).min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = text[line_start..offset].chars().count() as u32 + 1;
    (line, col)
}
