//! The envelope of protocompat's cache files under `<git dir>/protocompat/` (the narrowed
//! build's `narrow.bin`, the audit's `summaries.bin` and `ledger.bin`): a stamp naming the
//! file kind, its format and the tool version, a SHA-256 of the body, then the body. A file
//! that does not match in every respect is not read (the caller rebuilds it), and files are
//! written through a temporary file renamed into place, so a concurrent run or one killed
//! half-way never leaves half a file for the next to read.

use std::io::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

/// Identifies the writer: a file from another kind, format or tool version is not read.
fn stamp(magic: &[u8; 16], format: u32) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend(format.to_le_bytes());
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    out.push(version.len() as u8);
    out.extend(version);
    out
}

/// The bytes to write for `body`: stamp, checksum, body.
pub fn seal(magic: &[u8; 16], format: u32, body: &[u8]) -> Vec<u8> {
    let mut out = stamp(magic, format);
    out.extend(Sha256::digest(body));
    out.extend(body);
    out
}

/// The body of a sealed file, when its stamp and checksum match.
pub fn open<'a>(magic: &[u8; 16], format: u32, bytes: &'a [u8]) -> Option<&'a [u8]> {
    let rest = bytes.strip_prefix(stamp(magic, format).as_slice())?;
    let (sum, body) = rest.split_at_checked(32)?;
    (Sha256::digest(body).as_slice() == sum).then_some(body)
}

/// Writes `bytes` to `path` through a temporary file (named after `what`) renamed into
/// place, so a reader (or a run killed half-way) never sees a partial cache file.
pub fn write_atomically(path: &Path, what: &str, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("the cache file has a directory");
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(".{what}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
