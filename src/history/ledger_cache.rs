//! The finished walk of one audited revision (its commits, the ledger, the unreadable
//! blobs), in `<git dir>/protocompat/ledger.bin`: a warm run of the same revision with the
//! same options reads it instead of walking and applying the history again, and needs
//! neither the blob summaries nor the trees; a run of a descendant (the stored tip is on
//! its first-parent history) walks only the commits after the stored tip and applies them
//! to the stored ledger. One entry, overwritten by the next walk. Like the summaries it is
//! versioned and checksummed and written atomically; its key covers everything that chooses
//! the files and the formats of both caches, and the entry names the tip it was walked to.
//!
//! The layout lets `check --history` read only what a new snapshot touches: a header (the
//! commits, every path once, every (path, blob) place once, the files at the tip and an
//! index of the elements) and then one record per file summary and per element, each with
//! its own checksum. An element's record names its places by index, so a path is stored
//! once, not once per occurrence.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use git2::Oid;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ledger::{
    changed_elements, CommitIdx, Dropped, ElementLedger, FileVersion, Ledger, Life, Occurrence,
    Overwritten, Reservation, Reserved, Version,
};
use super::summary::{FileSummary, Kind, Span};
use super::walk::{CommitInfo, WalkOptions};
use super::Unreadable;

/// Bump when any stored type changes.
const FORMAT: u32 = 4;
const MAGIC: &[u8; 16] = b"protocompat-ledg";

/// A walk, applied.
pub struct Stored {
    /// The commit the walk ended at.
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

/// Where a record lies after the header, and its checksum (SHA-256, first 16 bytes).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Extent {
    offset: u64,
    len: u32,
    sum: [u8; 16],
}

/// An element in the index: its key, the files that declare it at the tip, its record.
#[derive(Serialize, Deserialize)]
struct IndexEntry {
    name: String,
    kind: Kind,
    defs: Vec<u32>,
    record: Option<Extent>,
}

/// Everything but the records.
#[derive(Serialize, Deserialize)]
struct Header {
    tip: [u8; 20],
    commits: Vec<CommitInfo>,
    unreadable: Vec<Unreadable>,
    walked: usize,
    changed: usize,
    blobs: usize,
    /// Every path, once.
    paths: Vec<Arc<str>>,
    /// Every (path, blob) an occurrence names, once.
    places: Vec<(u32, [u8; 20])>,
    /// The files at the tip: path, blob, summary record.
    files: Vec<(u32, [u8; 20], Extent)>,
    elements: Vec<IndexEntry>,
}

/// An occurrence in a record: the commit, the place's index, the span.
#[derive(Serialize, Deserialize)]
struct Place {
    commit: CommitIdx,
    place: u32,
    span: Span,
}

#[derive(Serialize, Deserialize)]
struct StoredLife {
    versions: Vec<Version>,
    deleted: Option<CommitIdx>,
    reserved: Option<CommitIdx>,
    first: Place,
    last: Place,
    since: Vec<Place>,
}

#[derive(Serialize, Deserialize)]
struct StoredReservation {
    start: i64,
    end: i64,
    added: CommitIdx,
    at: Place,
}

#[derive(Serialize, Deserialize)]
struct StoredDropped {
    what: Reserved,
    added: CommitIdx,
    dropped: CommitIdx,
    at: Place,
}

/// What `Ledger::finish` overwrote in this element.
#[derive(Serialize, Deserialize)]
struct StoredOverwritten {
    at: Option<Place>,
    lasts: Vec<(i64, Place)>,
}

/// One element's ledger entry.
#[derive(Serialize, Deserialize)]
struct StoredElement {
    kind: Kind,
    presence: Vec<(CommitIdx, Option<CommitIdx>)>,
    numbers: Vec<(i64, Vec<StoredLife>)>,
    reserved: Vec<StoredReservation>,
    reserved_names: Vec<(String, CommitIdx, Place)>,
    dropped: Vec<StoredDropped>,
    at: Option<Place>,
    finished: Option<StoredOverwritten>,
}

/// Writes the walk for `key` atomically.
pub fn save(git_dir: &Path, key: &[u8], stored: &Stored) -> std::io::Result<()> {
    let bytes = encode(key, stored).map_err(std::io::Error::other)?;
    super::cache::write_atomically(&file(git_dir), "ledger", &bytes)
}

fn encode(key: &[u8], stored: &Stored) -> Result<Vec<u8>, postcard::Error> {
    let ledger = &stored.ledger;
    let mut interner = Interner::default();
    let mut body = Vec::new();
    let mut record = |bytes: Vec<u8>| {
        let extent = Extent {
            offset: body.len() as u64,
            len: bytes.len() as u32,
            sum: checksum(&bytes),
        };
        body.extend(bytes);
        extent
    };
    let mut files = Vec::new();
    for (path, (blob, summary)) in &ledger.files {
        let extent = record(postcard::to_stdvec(summary.as_ref())?);
        files.push((interner.path(path), oid_array(*blob), extent));
    }
    let finished: HashMap<&(String, Kind), &Overwritten> =
        ledger.finished.iter().map(|o| (&o.key, o)).collect();
    let mut keys: BTreeSet<&(String, Kind)> = ledger.elements.keys().collect();
    keys.extend(ledger.defs.keys());
    let mut elements = Vec::new();
    for key in keys {
        let record = match ledger.elements.get(key) {
            Some(entry) => {
                let stored = interner.element(entry, finished.get(key).copied());
                Some(record(postcard::to_stdvec(&stored)?))
            }
            None => None,
        };
        let defs = ledger
            .defs
            .get(key)
            .map(|paths| paths.iter().map(|p| interner.path(p)).collect())
            .unwrap_or_default();
        elements.push(IndexEntry {
            name: key.0.clone(),
            kind: key.1,
            defs,
            record,
        });
    }
    let header = Header {
        tip: oid_array(stored.tip),
        commits: stored.commits.clone(),
        unreadable: stored.unreadable.clone(),
        walked: stored.walked,
        changed: stored.changed,
        blobs: stored.blobs,
        paths: interner.paths,
        places: interner.places,
        files,
        elements,
    };
    let header = postcard::to_stdvec(&header)?;
    let mut out = key.to_vec();
    out.extend((header.len() as u64).to_le_bytes());
    out.extend(Sha256::digest(&header));
    out.extend(header);
    out.extend(body);
    Ok(out)
}

fn checksum(bytes: &[u8]) -> [u8; 16] {
    let digest = Sha256::digest(bytes);
    let mut out = [0; 16];
    out.copy_from_slice(&digest[..16]);
    out
}

fn oid_array(oid: Oid) -> [u8; 20] {
    let mut out = [0; 20];
    out.copy_from_slice(oid.as_bytes());
    out
}

/// Paths and places numbered as they are first met, while saving.
#[derive(Default)]
struct Interner {
    paths: Vec<Arc<str>>,
    path_ids: HashMap<Arc<str>, u32>,
    places: Vec<(u32, [u8; 20])>,
    place_ids: HashMap<(u32, Oid), u32>,
}

impl Interner {
    fn path(&mut self, path: &Arc<str>) -> u32 {
        if let Some(&id) = self.path_ids.get(path) {
            return id;
        }
        let id = self.paths.len() as u32;
        self.paths.push(path.clone());
        self.path_ids.insert(path.clone(), id);
        id
    }

    fn place(&mut self, o: &Occurrence) -> Place {
        let path = self.path(&o.path);
        let next = self.places.len() as u32;
        let place = *self.place_ids.entry((path, o.blob)).or_insert(next);
        if place == next {
            self.places.push((path, oid_array(o.blob)));
        }
        Place {
            commit: o.commit,
            place,
            span: o.span,
        }
    }

    fn life(&mut self, life: &Life) -> StoredLife {
        StoredLife {
            versions: life.versions.clone(),
            deleted: life.deleted,
            reserved: life.reserved,
            first: self.place(&life.first),
            last: self.place(&life.last),
            since: life.since.iter().map(|o| self.place(o)).collect(),
        }
    }

    fn element(&mut self, e: &ElementLedger, finished: Option<&Overwritten>) -> StoredElement {
        StoredElement {
            kind: e.kind,
            presence: e.presence.clone(),
            numbers: e
                .numbers
                .iter()
                .map(|(n, lives)| (*n, lives.iter().map(|l| self.life(l)).collect()))
                .collect(),
            reserved: e
                .reserved
                .iter()
                .map(|r| StoredReservation {
                    start: r.start,
                    end: r.end,
                    added: r.added,
                    at: self.place(&r.at),
                })
                .collect(),
            reserved_names: e
                .reserved_names
                .iter()
                .map(|(name, (added, at))| (name.clone(), *added, self.place(at)))
                .collect(),
            dropped: e
                .dropped
                .iter()
                .map(|d| StoredDropped {
                    what: d.what.clone(),
                    added: d.added,
                    dropped: d.dropped,
                    at: self.place(&d.at),
                })
                .collect(),
            at: e.at.as_ref().map(|o| self.place(o)),
            finished: finished.map(|o| StoredOverwritten {
                at: o.at.as_ref().map(|a| self.place(a)),
                lasts: o.lasts.iter().map(|(n, a)| (*n, self.place(a))).collect(),
            }),
        }
    }
}

/// The stored walk for `key`, opened: its header read and checked, its records read on
/// demand. `None` when missing, of another key, or damaged.
pub struct Opened {
    header: Header,
    file: File,
    /// Where the records start in the file.
    body: u64,
}

/// Opens the stored walk for `key` (`None`: missing, another key, damaged header).
pub fn open(git_dir: &Path, key: &[u8]) -> Option<Opened> {
    let mut file = File::open(file(git_dir)).ok()?;
    let mut start = vec![0; key.len() + 8 + 32];
    file.read_exact(&mut start).ok()?;
    let rest = start.strip_prefix(key)?;
    let (len, sum) = rest.split_at(8);
    let len = u64::from_le_bytes(len.try_into().ok()?);
    let mut header = vec![0; usize::try_from(len).ok()?];
    file.read_exact(&mut header).ok()?;
    if Sha256::digest(&header).as_slice() != sum {
        return None;
    }
    let body = start.len() as u64 + len;
    Some(Opened {
        header: postcard::from_bytes(&header).ok()?,
        file,
        body,
    })
}

/// The stored walk for `key`, whole (`None`: missing, another key, damaged).
#[cfg(test)]
fn load(git_dir: &Path, key: &[u8]) -> Option<Stored> {
    open(git_dir, key)?.all()
}

impl Opened {
    /// The commit the walk ended at.
    pub fn tip(&self) -> Oid {
        Oid::from_bytes(&self.header.tip).unwrap_or_else(|_| Oid::zero())
    }

    /// The files under ROOT at the tip, with their blobs.
    pub fn files(&self) -> impl Iterator<Item = (Arc<str>, Oid)> + '_ {
        self.header.files.iter().filter_map(|(path, blob, _)| {
            Some((
                self.header.paths.get(*path as usize)?.clone(),
                Oid::from_bytes(blob).ok()?,
            ))
        })
    }

    /// The whole walk: every file and every element.
    pub fn all(self) -> Option<Stored> {
        let files: Vec<usize> = (0..self.header.files.len()).collect();
        let elements: Vec<usize> = (0..self.header.elements.len()).collect();
        self.part(&files, &elements)
    }

    /// The walk with only what a new snapshot with `changes` (path, new version or `None`
    /// for a deleted file) touches: the elements whose content the changed files alter,
    /// every file that declares them and the old versions of the changed files. Applying
    /// `changes` to its ledger gives those elements' entries as the whole ledger would.
    pub fn touched_by(self, changes: &[(Arc<str>, Option<FileVersion>)]) -> Option<Stored> {
        let file_of: HashMap<&str, usize> = self
            .header
            .files
            .iter()
            .enumerate()
            .filter_map(|(i, (path, _, _))| Some((&**self.header.paths.get(*path as usize)?, i)))
            .collect();
        let mut files: BTreeSet<usize> = BTreeSet::new();
        let mut affected: BTreeSet<(String, Kind)> = BTreeSet::new();
        for (path, new) in changes {
            let old = match file_of.get(&**path) {
                Some(&i) => {
                    files.insert(i);
                    Some(self.summary(i)?)
                }
                None => None,
            };
            let new = new.as_ref().map(|(_, s)| s.as_ref());
            changed_elements(old.as_deref(), new, &mut affected);
        }
        // The rules read an extendee's lifetime off its message's entry.
        let extended: Vec<(String, Kind)> = affected
            .iter()
            .filter(|(_, kind)| *kind == Kind::Extendee)
            .map(|(name, _)| (name.clone(), Kind::Message))
            .collect();
        affected.extend(extended);
        let mut elements = Vec::new();
        for (i, entry) in self.header.elements.iter().enumerate() {
            if !affected.contains(&(entry.name.clone(), entry.kind)) {
                continue;
            }
            elements.push(i);
            for path in &entry.defs {
                let path = self.header.paths.get(*path as usize)?;
                files.insert(*file_of.get(&**path)?);
            }
        }
        let files: Vec<usize> = files.into_iter().collect();
        self.part(&files, &elements)
    }

    /// The walk with the files and elements at these indexes of the header.
    fn part(&self, files: &[usize], elements: &[usize]) -> Option<Stored> {
        let mut ledger = Ledger::default();
        for &i in files {
            let summary = self.summary(i)?;
            let (path, blob, _) = self.header.files.get(i)?;
            let path = self.header.paths.get(*path as usize)?.clone();
            ledger
                .files
                .insert(path, (Oid::from_bytes(blob).ok()?, summary));
        }
        for &i in elements {
            let entry = self.header.elements.get(i)?;
            let key = (entry.name.clone(), entry.kind);
            let defs: BTreeSet<Arc<str>> = entry
                .defs
                .iter()
                .map(|p| self.header.paths.get(*p as usize).cloned())
                .collect::<Option<_>>()?;
            if !defs.is_empty() {
                ledger.defs.insert(key.clone(), defs);
            }
            let Some(extent) = entry.record else {
                continue;
            };
            let stored: StoredElement = postcard::from_bytes(&self.record(extent)?).ok()?;
            let (element, finished) = self.element(stored)?;
            if let Some((at, lasts)) = finished {
                ledger.finished.push(Overwritten {
                    key: key.clone(),
                    at,
                    lasts,
                });
            }
            ledger.elements.insert(key, element);
        }
        let header = &self.header;
        Some(Stored {
            tip: Oid::from_bytes(&header.tip).ok()?,
            commits: header.commits.clone(),
            ledger,
            unreadable: header.unreadable.clone(),
            walked: header.walked,
            changed: header.changed,
            blobs: header.blobs,
        })
    }

    /// The summary of the header's file `i`.
    fn summary(&self, i: usize) -> Option<Arc<FileSummary>> {
        let extent = self.header.files.get(i)?.2;
        let bytes = self.record(extent)?;
        Some(Arc::new(postcard::from_bytes(&bytes).ok()?))
    }

    /// A record's bytes, checked against its checksum.
    fn record(&self, extent: Extent) -> Option<Vec<u8>> {
        // `&File` reads and seeks: records are read through a shared handle.
        let mut file = &self.file;
        file.seek(SeekFrom::Start(self.body + extent.offset)).ok()?;
        let mut bytes = vec![0; extent.len as usize];
        file.read_exact(&mut bytes).ok()?;
        (checksum(&bytes) == extent.sum).then_some(bytes)
    }

    fn occurrence(&self, p: &Place) -> Option<Occurrence> {
        let (path, blob) = self.header.places.get(p.place as usize)?;
        Some(Occurrence {
            commit: p.commit,
            path: self.header.paths.get(*path as usize)?.clone(),
            blob: Oid::from_bytes(blob).ok()?,
            span: p.span,
        })
    }

    #[allow(clippy::type_complexity)]
    fn element(
        &self,
        e: StoredElement,
    ) -> Option<(
        ElementLedger,
        Option<(Option<Occurrence>, Vec<(i64, Occurrence)>)>,
    )> {
        let at = |p: &Place| self.occurrence(p);
        let mut numbers = BTreeMap::new();
        for (n, lives) in e.numbers {
            let lives = lives
                .into_iter()
                .map(|l| {
                    Some(Life {
                        versions: l.versions,
                        deleted: l.deleted,
                        reserved: l.reserved,
                        first: at(&l.first)?,
                        last: at(&l.last)?,
                        since: l.since.iter().map(at).collect::<Option<_>>()?,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            numbers.insert(n, lives);
        }
        let reserved = e
            .reserved
            .iter()
            .map(|r| {
                Some(Reservation {
                    start: r.start,
                    end: r.end,
                    added: r.added,
                    at: at(&r.at)?,
                })
            })
            .collect::<Option<_>>()?;
        let reserved_names = e
            .reserved_names
            .into_iter()
            .map(|(name, added, p)| Some((name, (added, at(&p)?))))
            .collect::<Option<_>>()?;
        let dropped = e
            .dropped
            .into_iter()
            .map(|d| {
                Some(Dropped {
                    what: d.what,
                    added: d.added,
                    dropped: d.dropped,
                    at: at(&d.at)?,
                })
            })
            .collect::<Option<_>>()?;
        let element_at = match &e.at {
            Some(p) => Some(at(p)?),
            None => None,
        };
        let finished = match e.finished {
            Some(o) => {
                let old_at = match &o.at {
                    Some(p) => Some(at(p)?),
                    None => None,
                };
                let lasts = o
                    .lasts
                    .iter()
                    .map(|(n, p)| Some((*n, at(p)?)))
                    .collect::<Option<_>>()?;
                Some((old_at, lasts))
            }
            None => None,
        };
        Some((
            ElementLedger {
                kind: e.kind,
                presence: e.presence,
                numbers,
                reserved,
                reserved_names,
                dropped,
                at: element_at,
            },
            finished,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(blob: u8, text: &str) -> FileVersion {
        (
            Oid::from_bytes(&[blob; 20]).unwrap(),
            Arc::new(super::super::summary::summarize("a.proto", text)),
        )
    }

    /// A ledger of two files, stored: the header names each path once however many
    /// occurrences name it, and a change to one file loads that file's elements only.
    #[test]
    fn a_change_loads_only_the_elements_it_touches() {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = Ledger::default();
        let a: Arc<str> = "a.proto".into();
        let b: Arc<str> = "b.proto".into();
        ledger.apply(
            0,
            vec![
                (
                    a.clone(),
                    Some(version(
                        1,
                        "syntax = \"proto3\";\nmessage A { int32 x = 1; int32 y = 2; }\n",
                    )),
                ),
                (
                    b.clone(),
                    Some(version(
                        2,
                        "syntax = \"proto3\";\nmessage B { int32 z = 1; }\n",
                    )),
                ),
            ],
        );
        ledger.apply(
            1,
            vec![(
                a.clone(),
                Some(version(
                    3,
                    "syntax = \"proto3\";\nmessage A { int32 x = 1; }\n",
                )),
            )],
        );
        ledger.finish(1);
        let stored = Stored {
            tip: Oid::from_bytes(&[9; 20]).unwrap(),
            ledger,
            ..Stored::default()
        };
        let key = b"k".to_vec();
        save(dir.path(), &key, &stored).unwrap();

        let all = load(dir.path(), &key).expect("stored");
        let mut names: Vec<&str> = all.ledger.elements.keys().map(|k| k.0.as_str()).collect();
        names.sort();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(
            all.ledger.elements[&("A".to_string(), Kind::Message)].numbers[&2][0].deleted,
            Some(1)
        );

        let opened = open(dir.path(), &key).expect("stored");
        assert_eq!(opened.header.paths.len(), 2);
        let change = vec![(
            b.clone(),
            Some(version(
                4,
                "syntax = \"proto3\";\nmessage B { int32 z = 1; int32 w = 2; }\n",
            )),
        )];
        let part = opened.touched_by(&change).expect("stored");
        let names: Vec<&str> = part.ledger.elements.keys().map(|k| k.0.as_str()).collect();
        assert_eq!(names, ["B"]);
        assert_eq!(
            part.ledger
                .files()
                .map(|(p, _)| p.to_string())
                .collect::<Vec<_>>(),
            ["b.proto"]
        );

        // A damaged record is not trusted.
        let path = file(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(load(dir.path(), &key).is_none());
    }
}
