//! The narrowed build: of two revisions of a large schema that differ in a few files, build
//! only the files that can give a finding or an error, with the output of a full build.
//!
//! Each side is first *listed*: its compared files with their git blob ids, and every
//! import followed through the [`Header`]s (package and imports) of the files, most of them
//! from the cache by blob id, so that few files are read. The import graph of a side holds
//! every file its full build would load (its *units*: compared files and what they import,
//! `-I` roots and bundled well-known types included), each keyed by the path the build
//! gives it. Then:
//!
//! - A unit is *changed* when it is a unit of one side only, or its blob or its role
//!   (compared or only imported) differs between the sides.
//! - Its *key* hashes its path, blob, role, the path and blob of every unit of a package
//!   related to its own (below: the files it could clash with), and, for each import in
//!   order, the import's path and key (or that it is missing): it names the file, its whole
//!   import closure and its package neighbours. A key is recorded *clean* once a build that
//!   held the unit succeeded.
//! - The *seeds* are the changed units, the units with a missing import, those whose key is
//!   not recorded clean on a side, and any unit of package `google.protobuf` that is not a
//!   bundled well-known type (a file of the build declaring the names of descriptor.proto
//!   types the built-in options of every file, imported or not: `link::build`).
//! - A unit is *required* when it is a seed, imports a seed (directly or not), has a package
//!   related to a seed's (below), or holds an ignore directive (`protocompat:`).
//! - The compared files built are the smallest set holding the required compared files,
//!   closed under imports, and such that both sides hold the same units: a unit built on one
//!   side, or required, that the other side has is built there too (through a compared file
//!   that imports it, when it is only imported).
//!
//! Why the findings and errors are those of the full build:
//! - *Errors.* A unit's own errors (syntax, lowering, validation, missing imports, import
//!   cycles) depend only on its text and import closure (`link::reuse` proves it for the
//!   model and its errors), which its key names: a unit not built is recorded clean under
//!   its key, so its full build gives none. The only errors across files are names
//!   declared twice (a symbol, or a package and a symbol): every symbol of a file starts
//!   with its package, so two clashing files have related packages (one package is the
//!   other or a prefix of it at a dot), and each is in the other's key. A key is recorded
//!   clean for the first time by a build in which its unit was a seed (not yet recorded),
//!   and that build held every unit of the related packages, the other file of any clash
//!   included (it is in the key): the build failed, and recorded nothing. So a file with a
//!   clash is never known clean, is a seed on every check, and the clash is reported.
//! - *Pair rules* find nothing in a file unchanged with all it imports
//!   (`diff::unchanged_files`). A judged pair lies in a changed file, or a file importing
//!   one: required. Each built file is built with its whole import closure, so its model,
//!   and every type its references resolve to, is what the full build gives.
//! - *Rules across files* read the packages: the per-package tables of PACKAGE_* rules and
//!   the other version packages of FIELD_NUMBER_TAG_SIZE (`parent.v2` for `parent.v1`).
//!   A package related to a seed's is built whole on both sides; any other package has no
//!   changed file, and both sides build the same units of it, so its tables are equal on
//!   both sides and give nothing, as in the full build. Deleted and added files and
//!   packages are changed units.
//! - *Passes*: ignore directives warn about every directive of the new side, so files
//!   holding one are built; the other passes read the findings and the diff's changes, all
//!   in built files.
//!
//! So a check may skip a file only when a check before it built the file, with the same
//! closure, without error. The first check of a repository (nothing recorded) builds
//! everything and records every unit; a directory on disk without blob ids, or a cache
//! too cold to be worth reading, gives the full build too.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// The plan's maps are keyed by paths and packages it made itself: no need for SipHash's
/// resistance to chosen keys, and it was most of the plan's time on googleapis.
type Map<K, V> = HashMap<K, V, ahash::RandomState>;
type Set<T> = HashSet<T, ahash::RandomState>;

use sha2::{Digest, Sha256};

use super::clean_cache::{CleanCache, Key};
use super::header::{self, Header};
use super::load::Listing;
use crate::source::{join, BlobId};

/// What a unit's bytes are: a git blob, or a well-known type bundled in the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Id {
    Blob(BlobId),
    Bundled,
}

struct Node {
    /// The path the build gives the unit (relative to its root, or the import path).
    path: String,
    id: Id,
    compared: bool,
    header: Header,
    /// The unit each import of the header resolves to; `None`: missing.
    imports: Vec<Option<usize>>,
}

/// One side's units and their imports.
struct Graph {
    nodes: Vec<Node>,
    by_path: Map<String, usize>,
    /// The units importing each unit.
    importers: Vec<Vec<usize>>,
    /// The units of each package.
    packages: BTreeMap<String, Vec<usize>>,
}

/// Why a check builds everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// A file's blob id is not known without reading it (a directory on disk).
    NoBlobId,
    /// Too many headers are not cached: reading them costs more than building.
    Cold,
    /// A unit neither built nor known clean (a safety net: such a unit is a seed).
    NotClean,
}

impl Full {
    pub fn describe(self) -> &'static str {
        match self {
            Full::NoBlobId => "a file has no git blob id",
            Full::Cold => "the cache is cold",
            Full::NotClean => "a file is not known clean",
        }
    }
}

/// What a narrowed check builds: per side, the compared files (by path relative to their
/// root), and the keys it records clean if both builds succeed.
pub struct Narrowed {
    pub old: HashSet<String>,
    pub new: HashSet<String>,
    /// Compared files listed per side (old, new).
    pub listed: [usize; 2],
    keys: Vec<Key>,
}

impl Narrowed {
    /// The keys of every unit built, both sides.
    pub(super) fn built_keys(&self) -> &[Key] {
        &self.keys
    }
}

/// At most this many headers are read (the others come from the cache) before a check
/// gives up narrowing, plus one per 20 compared files.
const HEADER_READS: usize = 256;

/// What to build of two listed sides.
pub fn plan(old: &Listing, new: &Listing, cache: &CleanCache) -> Result<Narrowed, Full> {
    let files = old.chosen.len() + new.chosen.len();
    let mut budget = HEADER_READS + files / 20;
    // The new side first: a working tree has no blob ids, which ends the plan at once.
    let new_graph = graph(new, cache, Some(&mut budget))?;
    let old_graph = graph(old, cache, Some(&mut budget))?;
    let sides = [&old_graph, &new_graph];
    let (old_keys, new_keys) = rayon::join(|| keys(&old_graph), || keys(&new_graph));
    let keys = [old_keys, new_keys];
    let paths = Paths::of(sides);
    let required = required(sides, &paths, &keys, cache);
    let built = closed_build(sides, &paths, &required);
    let mut narrowed = Narrowed {
        old: HashSet::new(),
        new: HashSet::new(),
        listed: [old.chosen.len(), new.chosen.len()],
        keys: Vec::new(),
    };
    for (side, graph) in sides.iter().enumerate() {
        for (index, node) in graph.nodes.iter().enumerate() {
            let key = keys[side][index];
            if built[side][index] {
                narrowed.keys.extend(key);
                if node.compared {
                    let paths = if side == 0 {
                        &mut narrowed.old
                    } else {
                        &mut narrowed.new
                    };
                    paths.insert(node.path.clone());
                }
            } else if !key.is_some_and(|k| cache.is_clean(&k)) {
                // Cannot happen (such a unit is a seed); never skip a file not known clean.
                return Err(Full::NotClean);
            }
        }
    }
    Ok(narrowed)
}

/// Every unit of both sides, after a full build that succeeded: all of them are clean.
/// Headers missing from the cache are read (the caller stored the compared files' ones).
pub fn all_keys(old: &Listing, new: &Listing, cache: &CleanCache) -> Result<Vec<Key>, Full> {
    let mut out = Vec::new();
    for listing in [old, new] {
        let graph = graph(listing, cache, None)?;
        out.extend(keys(&graph).into_iter().flatten());
    }
    Ok(out)
}

/// One side's import graph, from the headers (cached, else read while `budget` lasts).
fn graph(listing: &Listing, cache: &CleanCache, budget: Option<&mut usize>) -> Result<Graph, Full> {
    let mut budget = budget;
    let mut graph = Graph {
        nodes: Vec::new(),
        by_path: Map::default(),
        importers: Vec::new(),
        packages: BTreeMap::new(),
    };
    let mut queue = VecDeque::new();
    // Headers of compared files first, so that a cold cache is found before reading much.
    let mut missing = 0;
    let mut found = Vec::with_capacity(listing.chosen.len());
    for (rel, ext, blob) in &listing.chosen {
        let blob = blob.ok_or(Full::NoBlobId)?;
        let header = cache.header(&blob);
        missing += usize::from(header.is_none());
        found.push((rel, ext, blob, header));
    }
    if let Some(budget) = budget.as_deref_mut() {
        if missing > *budget {
            return Err(Full::Cold);
        }
    }
    for (rel, ext, blob, header) in found {
        let header = match header {
            Some(header) => header,
            None => read_header(listing.tree.as_ref(), ext, blob, cache, &mut budget)?,
        };
        let index = graph.nodes.len();
        graph.nodes.push(Node {
            path: rel.clone(),
            id: Id::Blob(blob),
            compared: true,
            header,
            imports: Vec::new(),
        });
        graph.by_path.insert(rel.clone(), index);
        queue.push_back(index);
    }
    while let Some(index) = queue.pop_front() {
        // Taken out while the graph grows, and put back.
        let imports = std::mem::take(&mut graph.nodes[index].header.imports);
        let mut resolved = Vec::with_capacity(imports.len());
        for import in &imports {
            if let Some(&at) = graph.by_path.get(import) {
                resolved.push(Some(at));
                continue;
            }
            let Some((id, header)) = resolve(listing, import, cache, &mut budget)? else {
                resolved.push(None);
                continue;
            };
            let at = graph.nodes.len();
            graph.nodes.push(Node {
                path: import.clone(),
                id,
                compared: false,
                header,
                imports: Vec::new(),
            });
            graph.by_path.insert(import.clone(), at);
            queue.push_back(at);
            resolved.push(Some(at));
        }
        let node = &mut graph.nodes[index];
        node.header.imports = imports;
        node.imports = resolved;
    }
    graph.importers = vec![Vec::new(); graph.nodes.len()];
    for (i, node) in graph.nodes.iter().enumerate() {
        for &j in node.imports.iter().flatten() {
            graph.importers[j].push(i);
        }
        let package = node.header.package.clone();
        graph.packages.entry(package).or_default().push(i);
    }
    Ok(graph)
}

/// An import found as the build finds it: the first root holding the path, then the
/// bundled well-known types. `None`: missing.
fn resolve(
    listing: &Listing,
    import: &str,
    cache: &CleanCache,
    budget: &mut Option<&mut usize>,
) -> Result<Option<(Id, Header)>, Full> {
    for root in &listing.roots {
        let path = join(&root.dir, import);
        match root.tree.blob_id(&path) {
            Some(blob) => {
                let header = match cache.header(&blob) {
                    Some(header) => header,
                    None => read_header(root.tree.as_ref(), &path, blob, cache, budget)?,
                };
                return Ok(Some((Id::Blob(blob), header)));
            }
            // No id: not there, or a tree without ids (a directory on disk).
            None => {
                if root.tree.read(&path).ok().flatten().is_some() {
                    return Err(Full::NoBlobId);
                }
            }
        }
    }
    Ok(crate::link::bundled_well_known_type(import).map(|text| (Id::Bundled, header::scan(text))))
}

fn read_header(
    tree: &dyn crate::source::Tree,
    path: &str,
    blob: BlobId,
    cache: &CleanCache,
    budget: &mut Option<&mut usize>,
) -> Result<Header, Full> {
    if let Some(budget) = budget {
        if **budget == 0 {
            return Err(Full::Cold);
        }
        **budget -= 1;
    }
    // A file that cannot be read is left to the build, which reports it.
    let text = tree.read(path).ok().flatten().ok_or(Full::Cold)?;
    let header = header::scan(&text);
    cache.add_header(blob, header.clone());
    Ok(header)
}

/// Each unit's key; `None` for a unit in an import cycle or importing one (never clean:
/// the build refuses cycles). Depth first without recursion, imports before importers.
fn keys(graph: &Graph) -> Vec<Option<Key>> {
    let neighbourhoods = neighbourhoods(graph);
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let count = graph.nodes.len();
    let mut state = vec![State::New; count];
    let mut keys: Vec<Option<Key>> = vec![None; count];
    for root in 0..count {
        if state[root] != State::New {
            continue;
        }
        // (unit, index of the next import to look at)
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = State::Open;
        while let Some(&mut (i, ref mut next)) = stack.last_mut() {
            match graph.nodes[i].imports.get(*next) {
                Some(&Some(j)) => {
                    *next += 1;
                    if state[j] == State::New {
                        state[j] = State::Open;
                        stack.push((j, 0));
                    }
                }
                Some(None) => *next += 1,
                None => {
                    // Every import is done, or open: on the stack, so a cycle.
                    let imports_done = graph.nodes[i]
                        .imports
                        .iter()
                        .flatten()
                        .all(|&j| state[j] == State::Done);
                    keys[i] = if imports_done {
                        let package = graph.nodes[i].header.package.as_str();
                        key_of(graph, i, &keys, &neighbourhoods[package])
                    } else {
                        None
                    };
                    state[i] = State::Done;
                    stack.pop();
                }
            }
        }
    }
    keys
}

/// The key of unit `i`, whose imports' keys are known (`None` if one has none), in the
/// `neighbourhood` of its package.
fn key_of(graph: &Graph, i: usize, keys: &[Option<Key>], neighbourhood: &Key) -> Option<Key> {
    let node = &graph.nodes[i];
    let mut hash = Sha256::new();
    hash.update(b"protocompat-clean-1\0");
    hash.update(node.path.as_bytes());
    hash.update([0]);
    match node.id {
        Id::Blob(blob) => hash.update(blob.as_bytes()),
        Id::Bundled => hash.update(b"bundled"),
    }
    hash.update([u8::from(node.compared)]);
    hash.update(neighbourhood);
    for (path, import) in node.header.imports.iter().zip(&node.imports) {
        hash.update(path.as_bytes());
        hash.update([0]);
        match import {
            Some(j) => hash.update(keys[*j]?),
            None => hash.update(b"missing"),
        }
    }
    Some(hash.finalize().into())
}

/// Per package, a hash of every unit (path and blob) of the packages related to it: part
/// of each unit's key, so that a file is known clean only beside the very files it could
/// clash with (a clash lies between related packages; see the module documentation).
fn neighbourhoods(graph: &Graph) -> HashMap<&str, Key> {
    let digests: BTreeMap<&str, Key> = graph
        .packages
        .iter()
        .map(|(package, units)| {
            let mut members: Vec<(&str, Id)> = units
                .iter()
                .map(|&i| (graph.nodes[i].path.as_str(), graph.nodes[i].id))
                .collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            let mut hash = Sha256::new();
            for (path, id) in members {
                hash.update(path.as_bytes());
                hash.update([0]);
                match id {
                    Id::Blob(blob) => hash.update(blob.as_bytes()),
                    Id::Bundled => hash.update(b"bundled"),
                }
            }
            (package.as_str(), hash.finalize().into())
        })
        .collect();
    graph
        .packages
        .keys()
        .map(|package| {
            let mut related = related_of(package, &graph.packages);
            related.sort_unstable();
            related.dedup();
            let mut hash = Sha256::new();
            for other in related {
                hash.update(other.as_bytes());
                hash.update([0]);
                hash.update(digests[other]);
            }
            (package.as_str(), hash.finalize().into())
        })
        .collect()
}

/// The packages of `packages` related to `package`, found by prefix
/// rather than by comparing every pair: itself, its ancestors at dots (and the empty
/// package), its descendants, and its sibling versions.
fn related_of<'p, T>(package: &str, packages: &'p BTreeMap<String, T>) -> Vec<&'p str> {
    let mut out: Vec<&'p str> = Vec::new();
    let mut take = |name: &str| {
        if let Some((found, _)) = packages.get_key_value(name) {
            out.push(found.as_str());
        }
    };
    take(package);
    take("");
    for (at, _) in package.match_indices('.') {
        take(&package[..at]);
    }
    let under = |prefix: String| {
        let end = format!("{}\u{10ffff}", prefix);
        packages
            .range::<str, _>((
                std::ops::Bound::Included(prefix.as_str()),
                std::ops::Bound::Excluded(end.as_str()),
            ))
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>()
    };
    if package.is_empty() {
        out.extend(packages.keys().map(String::as_str));
        return out;
    }
    out.extend(under(format!("{package}.")));
    if let Some((parent, last)) = package.rsplit_once('.') {
        if is_version(last) {
            let siblings = under(format!("{parent}.v"));
            out.extend(siblings.into_iter().filter(|name| {
                let rest = &name[parent.len() + 1..];
                !rest.contains('.') && is_version(rest)
            }));
        }
    }
    out
}

/// Both sides' units by path: each distinct path has a number, so that the plan's sets of
/// paths are vectors of flags, and a unit finds its twin on the other side by index.
struct Paths {
    /// Per side (old, new): each unit's path number.
    number: [Vec<usize>; 2],
    /// Per side: path number -> the unit with that path, if the side has one.
    unit: [Vec<Option<usize>>; 2],
    count: usize,
}

impl Paths {
    fn of(sides: [&Graph; 2]) -> Paths {
        let mut numbers: Map<&str, usize> = Map::default();
        let number = sides.map(|graph| {
            graph
                .nodes
                .iter()
                .map(|node| {
                    let next = numbers.len();
                    *numbers.entry(node.path.as_str()).or_insert(next)
                })
                .collect::<Vec<_>>()
        });
        let count = numbers.len();
        let unit = [0, 1].map(|side| {
            let mut unit = vec![None; count];
            for (i, &path) in number[side].iter().enumerate() {
                unit[path] = Some(i);
            }
            unit
        });
        Paths {
            number,
            unit,
            count,
        }
    }
}

/// The paths that must be built (see the module documentation), as flags by path number.
fn required(
    sides: [&Graph; 2],
    paths: &Paths,
    keys: &[Vec<Option<Key>>; 2],
    cache: &CleanCache,
) -> Vec<bool> {
    let mut seeds = vec![false; paths.count];
    for (side, graph) in sides.iter().enumerate() {
        let other = sides[1 - side];
        for (index, node) in graph.nodes.iter().enumerate() {
            let path = paths.number[side][index];
            let changed = match paths.unit[1 - side][path] {
                Some(o) => {
                    let twin = &other.nodes[o];
                    twin.id != node.id || twin.compared != node.compared
                }
                None => true,
            };
            let missing = node.imports.iter().any(Option::is_none);
            let builtin = node.id != Id::Bundled
                && (node.header.package == "google.protobuf"
                    || node.header.package.starts_with("google.protobuf."));
            let clean = keys[side][index].is_some_and(|k| cache.is_clean(&k));
            if changed || missing || builtin || !clean {
                seeds[path] = true;
            }
        }
    }
    // The packages of the seeds, on either side.
    let mut packages: Set<&str> = Set::default();
    for (side, graph) in sides.iter().enumerate() {
        for (index, node) in graph.nodes.iter().enumerate() {
            if seeds[paths.number[side][index]] {
                packages.insert(&node.header.package);
            }
        }
    }
    let mut required = vec![false; paths.count];
    for (side, graph) in sides.iter().enumerate() {
        let number = &paths.number[side];
        // Importers of seeds, directly or not.
        let mut seen = vec![false; graph.nodes.len()];
        let mut queue: VecDeque<usize> = (0..graph.nodes.len())
            .filter(|&i| seeds[number[i]])
            .collect();
        for &i in &queue {
            seen[i] = true;
        }
        while let Some(i) = queue.pop_front() {
            for &j in &graph.importers[i] {
                if !seen[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        let related: Set<&str> = packages
            .iter()
            .flat_map(|seed| related_of(seed, &graph.packages))
            .collect();
        for package in related {
            for &i in &graph.packages[package] {
                seen[i] = true;
            }
        }
        for (i, node) in graph.nodes.iter().enumerate() {
            if seen[i] || node.header.directives {
                required[number[i]] = true;
            }
        }
    }
    required
}

/// Two packages are *related* when they can clash or a rule reads them together: equal,
/// one a prefix of the other at a dot (a package and a type of one name clash), or two
/// versions of one parent (`a.v1`, `a.v2beta`: FIELD_NUMBER_TAG_SIZE reads the other
/// versions).
///
/// As FIELD_NUMBER_TAG_SIZE reads a version component (`v1`, `v2beta1`), or wider.
fn is_version(component: &str) -> bool {
    component
        .strip_prefix('v')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// The units built on each side (flags by unit): from the required compared files, closed
/// under imports, until both sides hold the same units (see the module documentation).
fn closed_build(sides: [&Graph; 2], paths: &Paths, required: &[bool]) -> [Vec<bool>; 2] {
    // The compared files built, by path number.
    let mut roots: Vec<bool> = required.to_vec();
    loop {
        let built: [Vec<bool>; 2] =
            [0, 1].map(|side| closure(sides[side], &paths.number[side], &roots));
        let mut grew = false;
        for side in 0..2 {
            for (i, node) in sides[side].nodes.iter().enumerate() {
                let path = paths.number[side][i];
                if built[side][i] && node.compared && !roots[path] {
                    roots[path] = true;
                    grew = true;
                }
            }
        }
        // A unit built or required on one side, and present on the other, is built there.
        let mut wanted: Vec<bool> = required.to_vec();
        for (numbers, built) in paths.number.iter().zip(&built) {
            for (&path, &unit_built) in numbers.iter().zip(built) {
                wanted[path] |= unit_built;
            }
        }
        for side in 0..2 {
            let graph = sides[side];
            for (path, _) in wanted.iter().enumerate().filter(|(_, &w)| w) {
                let Some(i) = paths.unit[side][path] else {
                    continue;
                };
                if built[side][i] {
                    continue;
                }
                if let Some(root) = compared_importer(graph, i) {
                    let root = paths.number[side][root];
                    if !roots[root] {
                        roots[root] = true;
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            return built;
        }
    }
}

/// The units (flags by unit) that the compared files whose path number is set in `roots`
/// load; `number` gives each unit's path number.
fn closure(graph: &Graph, number: &[usize], roots: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; graph.nodes.len()];
    let mut stack: Vec<usize> = graph
        .nodes
        .iter()
        .enumerate()
        .filter(|&(i, n)| n.compared && roots[number[i]])
        .map(|(i, _)| i)
        .collect();
    while let Some(i) = stack.pop() {
        if !seen[i] {
            seen[i] = true;
            stack.extend(graph.nodes[i].imports.iter().flatten().copied());
        }
    }
    seen
}

/// A compared file that loads unit `i` (itself when compared). Every unit has one: units
/// are what the compared files load.
fn compared_importer(graph: &Graph, i: usize) -> Option<usize> {
    if graph.nodes[i].compared {
        return Some(i);
    }
    let mut seen = HashSet::from([i]);
    let mut queue = VecDeque::from([i]);
    while let Some(at) = queue.pop_front() {
        for &j in &graph.importers[at] {
            if seen.insert(j) {
                if graph.nodes[j].compared {
                    return Some(j);
                }
                queue.push_back(j);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{is_version, related_of};
    use std::collections::BTreeMap;

    /// Whether two packages can clash or be read together by a rule: equal, one a prefix of
    /// the other at a dot (a package and a type of one name clash), or two versions of one
    /// parent (`a.v1`, `a.v2beta`: FIELD_NUMBER_TAG_SIZE reads the other versions).
    fn related_packages(a: &str, b: &str) -> bool {
        let prefix = |short: &str, long: &str| {
            short.is_empty()
                || (long.starts_with(short) && long.as_bytes().get(short.len()) == Some(&b'.'))
        };
        let versions = || match (a.rsplit_once('.'), b.rsplit_once('.')) {
            (Some((pa, la)), Some((pb, lb))) => pa == pb && is_version(la) && is_version(lb),
            _ => false,
        };
        a == b || prefix(a, b) || prefix(b, a) || versions()
    }

    #[test]
    fn packages_that_can_clash_or_are_read_together_are_related() {
        assert!(related_packages("a.b", "a.b"));
        assert!(related_packages("a", "a.b.c"));
        assert!(related_packages("a.b.c", "a"));
        assert!(related_packages("", "a"));
        assert!(related_packages("x.v1", "x.v2beta1"));
        assert!(!related_packages("a.b", "a.bc"));
        assert!(!related_packages("a.x", "a.y"));
        assert!(!related_packages("x.v1", "y.v1"));
    }

    /// The prefix search finds exactly the related packages.
    #[test]
    fn related_of_finds_what_related_packages_says() {
        let names = [
            "",
            "a",
            "a.b",
            "a.b.c",
            "a.bc",
            "a.v1",
            "a.v1.x",
            "a.v2beta1",
            "a.vx",
            "a.v1x",
            "b",
            "b.v1",
            "google.protobuf",
            "x.y.v3",
            "x.y.z",
        ];
        let packages: BTreeMap<String, ()> = names.iter().map(|n| (n.to_string(), ())).collect();
        for a in names {
            let mut found = related_of(a, &packages);
            found.sort_unstable();
            found.dedup();
            let expected: Vec<&str> = packages
                .keys()
                .map(String::as_str)
                .filter(|b| related_packages(a, b))
                .collect();
            assert_eq!(found, expected, "{a:?}");
        }
    }
}
