//! The finished walk of one audited revision (its commits, the ledger, the unreadable
//! blobs), in `<git dir>/protocompat/ledger.bin`: a warm run of the same revision with the
//! same options reads it instead of walking and applying the history again, and needs
//! neither the blob summaries nor the trees; a run of a descendant (the stored tip is on
//! its first-parent history) walks only the commits after the stored tip and applies them
//! to the stored ledger. One entry, overwritten by the next walk. Like the summaries it is
//! versioned and checksummed and written atomically; its key covers everything that chooses
//! the files and the formats of both caches, and the entry names the tip it was walked to.

use std::path::{Path, PathBuf};

use git2::Oid;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ledger::Ledger;
use super::walk::{CommitInfo, WalkOptions};
use super::Unreadable;

/// Bump when any stored type changes.
const FORMAT: u32 = 2;
const MAGIC: &[u8; 16] = b"protocompat-ledg";

/// A walk, applied.
#[derive(Serialize, Deserialize)]
pub struct Stored {
    /// The commit the walk ended at.
    #[serde(with = "super::oid_bytes")]
    pub tip: Oid,
    pub commits: Vec<CommitInfo>,
    pub ledger: Ledger,
    pub unreadable: Vec<Unreadable>,
    /// Commits walked, and those that changed the schema.
    pub walked: usize,
    pub changed: usize,
    /// Distinct blobs the walk named.
    pub blobs: usize,
}

impl Default for Stored {
    fn default() -> Self {
        Stored {
            tip: Oid::zero(),
            commits: Vec::new(),
            ledger: Ledger::default(),
            unreadable: Vec::new(),
            walked: 0,
            changed: 0,
            blobs: 0,
        }
    }
}

fn file(git_dir: &Path) -> PathBuf {
    git_dir.join("protocompat").join("ledger.bin")
}

/// What the stored walk must have been made from (the tip aside: a walk of an ancestor
/// can be extended).
pub fn key(opts: &WalkOptions) -> Vec<u8> {
    let choice = format!(
        "{:?}|{:?}|{:?}|{:?}|{}|{:?}|{}|{}",
        opts.root,
        opts.paths,
        opts.exclude_paths,
        opts.modules,
        opts.all_parents,
        opts.since,
        super::cache::FORMAT,
        env!("CARGO_PKG_VERSION"),
    );
    let mut out = MAGIC.to_vec();
    out.extend(FORMAT.to_le_bytes());
    out.extend(Sha256::digest(choice.as_bytes()));
    out
}

/// The stored walk for `key`, or `None` (missing, another key, damaged).
pub fn load(git_dir: &Path, key: &[u8]) -> Option<Stored> {
    let bytes = std::fs::read(file(git_dir)).ok()?;
    let rest = bytes.strip_prefix(key)?;
    let (sum, body) = rest.split_at_checked(32)?;
    if Sha256::digest(body).as_slice() != sum {
        return None;
    }
    postcard::from_bytes(body).ok()
}

/// Writes the walk for `key` atomically.
pub fn save(git_dir: &Path, key: &[u8], stored: &Stored) -> std::io::Result<()> {
    let body = postcard::to_stdvec(stored).map_err(std::io::Error::other)?;
    let mut bytes = key.to_vec();
    bytes.extend(Sha256::digest(&body));
    bytes.extend(body);
    super::cache::write_atomically(&file(git_dir), "ledger", &bytes)
}
