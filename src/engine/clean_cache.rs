//! What the narrowed build (`super::narrow`) keeps across runs, in
//! `<git dir>/protocompat/narrow.bin`: each blob's [`Header`] (package and imports), and the
//! keys of the files that were built without error ([`super::narrow`] says what a key
//! covers).
//!
//! As the audit's cache (`history::cache`): versioned (format and tool version in the
//! header) and checksummed (SHA-256 of the body), so a file that does not match in every
//! respect is ignored and rebuilt, never trusted; written to a temporary file renamed into
//! place, so a concurrent run reads the old or the new file, never half of one. Two runs
//! writing at once keep the last one's entries: a lost entry only means a file is built
//! again, never that one is skipped.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::header::Header;
use crate::source::BlobId;

/// Bump when [`Header`], what a clean key hashes, or the encoding changes.
const FORMAT: u32 = 1;
const MAGIC: &[u8; 16] = b"protocompat-narw";

/// Past this many clean keys, a save keeps only the ones this run used or added (the keys
/// of older revisions are the ones that go).
const MAX_CLEAN: usize = 400_000;
/// The same for headers.
const MAX_HEADERS: usize = 200_000;

/// A file's key: its path, blob, role and import closure, hashed ([`super::narrow`]).
pub type Key = [u8; 32];

/// The cache of one git directory, shared by the threads of a run.
#[derive(Default)]
pub struct CleanCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    headers: HashMap<BlobId, Header>,
    clean: HashSet<Key>,
    /// Entries read or added by this run: what a save keeps when the cache is too large.
    used_headers: HashSet<BlobId>,
    used_clean: HashSet<Key>,
    changed: bool,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    headers: Vec<(Vec<u8>, Header)>,
    clean: Vec<Key>,
}

fn file(git_dir: &Path) -> PathBuf {
    git_dir.join("protocompat").join("narrow.bin")
}

impl CleanCache {
    /// The cache under `git_dir`, or an empty one when it is missing or not valid.
    pub fn load(git_dir: &Path) -> CleanCache {
        let inner = std::fs::read(file(git_dir))
            .ok()
            .and_then(|bytes| decode(&bytes))
            .unwrap_or_default();
        CleanCache {
            inner: Mutex::new(inner),
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A poisoned lock only means a reader panicked; the maps are whole.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn header(&self, blob: &BlobId) -> Option<Header> {
        let mut inner = self.inner();
        let found = inner.headers.get(blob).cloned();
        if found.is_some() {
            inner.used_headers.insert(*blob);
        }
        found
    }

    pub fn add_header(&self, blob: BlobId, header: Header) {
        let mut inner = self.inner();
        inner.used_headers.insert(blob);
        if inner.headers.insert(blob, header).is_none() {
            inner.changed = true;
        }
    }

    pub fn is_clean(&self, key: &Key) -> bool {
        let mut inner = self.inner();
        let found = inner.clean.contains(key);
        if found {
            inner.used_clean.insert(*key);
        }
        found
    }

    pub fn add_clean(&self, keys: impl IntoIterator<Item = Key>) {
        let mut inner = self.inner();
        for key in keys {
            inner.used_clean.insert(key);
            if inner.clean.insert(key) {
                inner.changed = true;
            }
        }
    }

    /// Writes the cache atomically when something was added.
    pub fn save(&self, git_dir: &Path) -> std::io::Result<()> {
        let bytes = {
            let mut inner = self.inner();
            if !inner.changed {
                return Ok(());
            }
            inner.trim();
            inner.changed = false;
            encode(&inner)?
        };
        super::cache_file::write_atomically(&file(git_dir), "narrow", &bytes)
    }

    /// How many keys are recorded clean (for tests).
    pub fn clean_len(&self) -> usize {
        self.inner().clean.len()
    }
}

impl Inner {
    fn trim(&mut self) {
        if self.clean.len() > MAX_CLEAN {
            let used = std::mem::take(&mut self.used_clean);
            self.clean.retain(|k| used.contains(k));
            self.used_clean = used;
        }
        if self.headers.len() > MAX_HEADERS {
            let used = std::mem::take(&mut self.used_headers);
            self.headers.retain(|b, _| used.contains(b));
            self.used_headers = used;
        }
    }
}

fn encode(inner: &Inner) -> std::io::Result<Vec<u8>> {
    let mut headers: Vec<(Vec<u8>, Header)> = inner
        .headers
        .iter()
        .map(|(blob, h)| (blob.as_bytes().to_vec(), h.clone()))
        .collect();
    headers.sort_by(|a, b| a.0.cmp(&b.0));
    let mut clean: Vec<Key> = inner.clean.iter().copied().collect();
    clean.sort_unstable();
    let body = postcard::to_stdvec(&Stored { headers, clean }).map_err(std::io::Error::other)?;
    Ok(super::cache_file::seal(MAGIC, FORMAT, &body))
}

fn decode(bytes: &[u8]) -> Option<Inner> {
    let body = super::cache_file::open(MAGIC, FORMAT, bytes)?;
    let stored: Stored = postcard::from_bytes(body).ok()?;
    let mut headers = HashMap::with_capacity(stored.headers.len());
    for (blob, header) in stored.headers {
        headers.insert(BlobId::from_bytes(&blob).ok()?, header);
    }
    Some(Inner {
        headers,
        clean: stored.clean.into_iter().collect(),
        ..Inner::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_a_damaged_file() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CleanCache::default();
        let blob = BlobId::from_str("0123456789abcdef0123456789abcdef01234567").unwrap();
        let header = Header {
            package: "a.b".into(),
            imports: vec!["x.proto".into()],
            directives: false,
        };
        cache.add_header(blob, header.clone());
        cache.add_clean([[7; 32]]);
        cache.save(dir.path()).unwrap();
        let loaded = CleanCache::load(dir.path());
        assert_eq!(loaded.header(&blob), Some(header));
        assert!(loaded.is_clean(&[7; 32]));
        assert!(!loaded.is_clean(&[8; 32]));

        let path = file(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(CleanCache::load(dir.path()).clean_len(), 0);
        std::fs::write(&path, &bytes[..10]).unwrap();
        assert_eq!(CleanCache::load(dir.path()).clean_len(), 0);
    }
}
