//! Blob summaries by git blob id, in memory and in `<git dir>/protocompat/`.
//!
//! The file is versioned (format and tool version in the header) and checksummed (SHA-256 of
//! the body): a file that does not match in every respect is ignored and rebuilt, never
//! trusted. It is written to a temporary file and renamed into place, so a concurrent run
//! reads either the old or the new file, never half of one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::cache_file;
use git2::Oid;

use super::summary::FileSummary;

/// Bump when `FileSummary` or what `summarize` puts in it changes.
pub(super) const FORMAT: u32 = 2;
const MAGIC: &[u8; 16] = b"protocompat-audc";

#[derive(Default)]
pub struct Cache {
    map: HashMap<Oid, Arc<FileSummary>>,
    /// Entries added since loading (nothing to write when none).
    added: usize,
}

fn file(git_dir: &Path) -> PathBuf {
    git_dir.join("protocompat").join("summaries.bin")
}

impl Cache {
    /// The cache under `git_dir`, or an empty one when it is missing or not valid.
    pub fn load(git_dir: &Path) -> Cache {
        std::fs::read(file(git_dir))
            .ok()
            .and_then(|bytes| decode(&bytes))
            .unwrap_or_default()
    }

    pub fn contains(&self, oid: &Oid) -> bool {
        self.map.contains_key(oid)
    }

    pub fn get(&self, oid: &Oid) -> Option<Arc<FileSummary>> {
        self.map.get(oid).cloned()
    }

    pub fn insert(&mut self, oid: Oid, summary: FileSummary) {
        self.map.insert(oid, Arc::new(summary));
        self.added += 1;
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Writes the cache atomically when something was added.
    pub fn save(&self, git_dir: &Path) -> std::io::Result<()> {
        if self.added == 0 {
            return Ok(());
        }
        write_atomically(&file(git_dir), "summaries", &self.encode()?)
    }

    fn encode(&self) -> std::io::Result<Vec<u8>> {
        let mut entries: Vec<(&[u8], &FileSummary)> = self
            .map
            .iter()
            .map(|(oid, s)| (oid.as_bytes(), s.as_ref()))
            .collect();
        entries.sort_by_key(|(oid, _)| *oid);
        let body = postcard::to_stdvec(&entries).map_err(std::io::Error::other)?;
        Ok(cache_file::seal(MAGIC, FORMAT, &body))
    }
}

fn decode(bytes: &[u8]) -> Option<Cache> {
    let body = cache_file::open(MAGIC, FORMAT, bytes)?;
    let entries: Vec<(Vec<u8>, FileSummary)> = postcard::from_bytes(body).ok()?;
    let mut map = HashMap::with_capacity(entries.len());
    for (oid, summary) in entries {
        map.insert(Oid::from_bytes(&oid).ok()?, Arc::new(summary));
    }
    Some(Cache { map, added: 0 })
}

pub(super) use crate::engine::cache_file::write_atomically;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_a_damaged_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = Cache::default();
        let oid = Oid::from_str("0123456789abcdef0123456789abcdef01234567").unwrap();
        let summary = super::super::summary::summarize(
            "a.proto",
            "syntax = \"proto3\";\nmessage M { int32 a = 1; }\n",
        );
        cache.insert(oid, summary.clone());
        cache.save(dir.path()).unwrap();
        let loaded = Cache::load(dir.path());
        assert_eq!(loaded.get(&oid).as_deref(), Some(&summary));

        let path = file(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(Cache::load(dir.path()).is_empty());
        std::fs::write(&path, &bytes[..10]).unwrap();
        assert!(Cache::load(dir.path()).is_empty());
    }
}
