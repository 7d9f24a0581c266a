//! Parsed files kept by git blob id, so that loading many revisions of one repository in a
//! process (`audit`, `check --history`) reads and parses each distinct file once.
//!
//! Equal blob ids mean equal bytes, and a file's text and syntax tree depend on its bytes
//! alone (paths and revision labels are attached per load, outside the cache), so a cached
//! entry is exactly what reading and parsing again would give. Files whose id is unknown
//! (a directory on disk) are read and parsed every time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use miette::Report;

use crate::parse::{self, ParsedFile};
use crate::source::BlobId;

/// A file's text and syntax tree, shared by every load that sees its blob.
#[derive(Clone)]
pub(super) struct Parsed {
    pub text: Arc<str>,
    pub tree: Arc<ParsedFile>,
}

struct Entry {
    parsed: Parsed,
    /// The load that last used the entry (see [`ParseCache::finish_load`]).
    used: u64,
}

/// Counts of what the cache did, for tests and for reporting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Files served from the cache: neither read nor parsed.
    pub hits: u64,
    /// Files read and parsed, then kept.
    pub misses: u64,
    /// Entries held now.
    pub entries: usize,
}

/// Blob id -> text and syntax tree. Memory is bounded by forgetting entries that the last
/// `keep` loads did not use: consecutive revisions share most files, so the cache holds
/// about one revision's trees, not the whole history's.
pub(super) struct ParseCache {
    entries: Mutex<HashMap<BlobId, Entry, ahash::RandomState>>,
    /// Number of the load in progress (the latest started).
    load: AtomicU64,
    keep: u64,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl ParseCache {
    pub fn new(keep: u64) -> ParseCache {
        ParseCache {
            entries: Mutex::default(),
            load: AtomicU64::new(0),
            keep: keep.max(1),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<BlobId, Entry, ahash::RandomState>> {
        // A poisoned lock only means a reader panicked; the entries themselves are whole.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a load: entries it uses are stamped with its number.
    pub fn start_load(&self) {
        self.load.fetch_add(1, Ordering::Relaxed);
    }

    /// Ends a load: forgets the entries none of the last `keep` loads used.
    pub fn finish_load(&self) {
        let now = self.load.load(Ordering::Relaxed);
        self.entries().retain(|_, e| e.used + self.keep > now);
    }

    /// The text and tree of blob `id`; on a miss, `read` gives the text (`Ok(None)`: no
    /// such file), which is parsed and kept. The lock is not held while reading or
    /// parsing, so both cores fill the cache; two threads missing on one blob both parse
    /// it, and the results are equal.
    pub fn get_or_read(
        &self,
        id: BlobId,
        read: impl FnOnce() -> Result<Option<Arc<str>>, Report>,
    ) -> Result<Option<Parsed>, Report> {
        let now = self.load.load(Ordering::Relaxed);
        if let Some(entry) = self.entries().get_mut(&id) {
            entry.used = now;
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Some(entry.parsed.clone()));
        }
        let Some(text) = read()? else {
            return Ok(None);
        };
        let tree = Arc::new(parse::parse(&text));
        let parsed = Parsed { text, tree };
        self.misses.fetch_add(1, Ordering::Relaxed);
        self.entries().insert(
            id,
            Entry {
                parsed: parsed.clone(),
                used: now,
            },
        );
        Ok(Some(parsed))
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            entries: self.entries().len(),
        }
    }
}
