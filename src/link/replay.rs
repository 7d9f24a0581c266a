//! The lookups a file's lowering made, recorded on one side and replayed on the other: a
//! file with the same path and text whose every recorded lookup gives the same answer in the
//! new build lowers to the same model with the same (no) errors, so the new side takes the
//! old model even when some file of its import closure changed elsewhere (`super::reuse`).
//!
//! Why the record is complete. Lowering and validating a file (`lower::lower_file`, then
//! `validate::validate`, which reads the file's own model only) read, besides the file's own
//! syntax tree and path:
//! - name lookups, all through `Resolver::lookup`: each candidate full name probed, in scope
//!   order, found or not, with the reach asked (visible files, or those and the `import
//!   option` files). The answer is what the lookup returned: nothing visible, a package, or
//!   a symbol's kind and file. So a new nearer `a.b.Thing` answers the probe `a.b.Thing`
//!   differently, and a message turned into an enum changes the kind. A package answer
//!   depends on the packages of the visible files (`Resolver::new`), not on which file the
//!   table credits with it;
//! - facts about other files' elements, all through [`Fact`] (`Resolver::fact`): closed enums
//!   and their first value, map entries, message sets, extension ranges, `local` types
//!   (edition 2024 visibility), the `optimize_for = LITE_RUNTIME` of the file declaring an
//!   extendee, and the extendee of an extension named by a custom option;
//! - the `LITE_RUNTIME` flag of each import ([`Trace::import_lite`]);
//! - whether an import is missing (`Visible::missing`): no trace is kept then, as the names
//!   of a missing file are kept as written.
//!
//! Not recorded, because the new side runs them again on the taken model: the checks that
//! need every file's types (`validate::after_lowering`: custom options, extension
//! declarations) and the option values they type (`OptionEntry::resolved`), see `build`.
//! Probes made on an error path only (`Reach::VisibleAnd`) spoil the record; so does any
//! error: a file with errors is never taken.

use std::collections::HashMap;

use super::symbols::{LocalBy, SymKind, Symbols};

/// A fact lowering read about an element, by full name, answered by [`Fact::value`] from a
/// build's symbol table: recording and replaying compute it with the same function. The
/// name is passed beside the kind, borrowed: a fact is asked for every field type, and
/// only the first of each name per file is kept (owned) by the [`Recorder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Fact {
    /// The first value of a closed enum (`None`: not a closed enum).
    ClosedEnum,
    MapEntry,
    MessageSet,
    ExtensionRanges,
    Local,
    /// Whether the file declaring this name says `optimize_for = LITE_RUNTIME`.
    LiteOfDeclaring,
    /// The extendee of an extension, resolved from the extension's own scope.
    Extendee,
}

/// How many kinds of [`Fact`] there are (the recorder keeps one table per kind).
const FACT_KINDS: usize = 7;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum FactValue {
    Number(Option<i64>),
    Flag(bool),
    Ranges(Option<Vec<(i64, i64)>>),
    Local(Option<LocalBy>),
    Lite(Option<bool>),
    /// `None`: not an extension; else what its extendee resolves to, if anything.
    Extendee(Option<Option<(String, SymKind)>>),
}

impl Fact {
    pub(super) fn value(self, name: &str, symbols: &Symbols) -> FactValue {
        match self {
            Fact::ClosedEnum => FactValue::Number(symbols.closed_enums.get(name).copied()),
            Fact::MapEntry => FactValue::Flag(symbols.map_entries.contains(name)),
            Fact::MessageSet => FactValue::Flag(symbols.message_sets.contains(name)),
            Fact::ExtensionRanges => FactValue::Ranges(symbols.extension_ranges.get(name).cloned()),
            Fact::Local => FactValue::Local(symbols.local_types.get(name).copied()),
            Fact::LiteOfDeclaring => FactValue::Lite(
                symbols
                    .map
                    .get(name)
                    .map(|sym| symbols.lite.get(sym.file()).copied().unwrap_or(false)),
            ),
            Fact::Extendee => FactValue::Extendee(symbols.extensions.get(name).map(|e| {
                super::validate::option_names::resolve_in_scope(symbols, &e.extendee, &e.scope)
            })),
        }
    }
}

/// What a lookup answered, as far as lowering can tell: the file of a symbol found (by
/// index while recording, by path in a [`Trace`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Answer {
    NotVisible,
    Package,
    Found { kind: SymKind, file: usize },
}

/// The reach of a recorded probe: `Reach::Options` or not.
pub(super) type OptionsReach = bool;

/// Collects one file's lookups and facts while it is lowered (held by its `Resolver`).
#[derive(Default)]
pub(super) struct Recorder {
    /// By reach: `[visible, options]`.
    probes: [HashMap<String, Answer, ahash::RandomState>; 2],
    /// By kind (`Fact as usize`), by name.
    facts: [HashMap<String, FactValue, ahash::RandomState>; FACT_KINDS],
    /// A lookup was made that replay cannot repeat (an error path's): keep no trace.
    spoiled: bool,
}

impl Recorder {
    pub(super) fn probe(&mut self, full: &str, options: OptionsReach, answer: Answer) {
        let probes = &mut self.probes[usize::from(options)];
        if !probes.contains_key(full) {
            probes.insert(full.to_string(), answer);
        }
    }

    pub(super) fn fact(&mut self, fact: Fact, name: &str, value: &FactValue) {
        let facts = &mut self.facts[fact as usize];
        if !facts.contains_key(name) {
            facts.insert(name.to_string(), value.clone());
        }
    }

    pub(super) fn spoil(&mut self) {
        self.spoiled = true;
    }

    /// The trace of a file lowered with no error; `import_lite` is the `LITE_RUNTIME` flag of
    /// each of its imports, in order.
    pub(super) fn finish(self, symbols: &Symbols, import_lite: Vec<bool>) -> Option<Trace> {
        if self.spoiled {
            return None;
        }
        let mut files: Vec<String> = Vec::new();
        let mut ids: HashMap<usize, u32, ahash::RandomState> = HashMap::default();
        let [visible, options] = self.probes;
        let total = name_bytes(&visible)
            + name_bytes(&options)
            + self.facts.iter().map(name_bytes).sum::<usize>();
        let mut names = String::with_capacity(total);
        let probes = (visible
            .into_iter()
            .map(|(name, answer)| (name, false, answer)))
        .chain(
            options
                .into_iter()
                .map(|(name, answer)| (name, true, answer)),
        )
        .map(|(name, options, answer)| {
            let answer = match answer {
                Answer::NotVisible => Recorded::NotVisible,
                Answer::Package => Recorded::Package,
                Answer::Found { kind, file } => {
                    let id = *ids.entry(file).or_insert_with(|| {
                        files.push(symbols.paths[file].clone());
                        (files.len() - 1) as u32
                    });
                    Recorded::Found { kind, file: id }
                }
            };
            Probe {
                name: NameRef::add(&mut names, &name),
                options,
                answer,
            }
        })
        .collect();
        let facts = FACTS
            .into_iter()
            .zip(self.facts)
            .flat_map(|(fact, table)| table.into_iter().map(move |entry| (fact, entry)))
            .map(|(fact, (name, value))| (fact, NameRef::add(&mut names, &name), value))
            .collect();
        Some(Trace {
            names: names.into_boxed_str(),
            probes,
            facts,
            files: files.into_boxed_slice(),
            import_lite,
        })
    }
}

/// The bytes of a table's names.
fn name_bytes<V>(table: &HashMap<String, V, ahash::RandomState>) -> usize {
    table.keys().map(String::len).sum()
}

/// Every kind of [`Fact`], in declaration order (`FACTS[fact as usize] == fact`).
const FACTS: [Fact; FACT_KINDS] = [
    Fact::ClosedEnum,
    Fact::MapEntry,
    Fact::MessageSet,
    Fact::ExtensionRanges,
    Fact::Local,
    Fact::LiteOfDeclaring,
    Fact::Extendee,
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Recorded {
    NotVisible,
    Package,
    /// `file` indexes [`Trace::files`].
    Found {
        kind: SymKind,
        file: u32,
    },
}

/// A name in [`Trace::names`]: its start and length.
#[derive(Debug, Clone, Copy)]
struct NameRef {
    start: u32,
    len: u32,
}

impl NameRef {
    /// Appends `name` to `names`.
    fn add(names: &mut String, name: &str) -> NameRef {
        let offset = |n: usize| u32::try_from(n).expect("a file's trace is under 4 GiB");
        let start = offset(names.len());
        names.push_str(name);
        NameRef {
            start,
            len: offset(name.len()),
        }
    }
}

#[derive(Debug)]
struct Probe {
    name: NameRef,
    options: OptionsReach,
    answer: Recorded,
}

/// Every lookup and fact one file's lowering read, in a build where it had no error.
#[derive(Debug)]
pub(super) struct Trace {
    /// Every name probed or asked about, end to end: a build keeps a trace per file, with
    /// hundreds of names each, and freeing them one by one was a visible part of the run.
    names: Box<str>,
    probes: Box<[Probe]>,
    facts: Box<[(Fact, NameRef, FactValue)]>,
    /// The paths of the files the probes found symbols in.
    files: Box<[String]>,
    import_lite: Vec<bool>,
}

impl Trace {
    /// Whether every probe and fact gives the recorded answer in another build: `lookup`
    /// answers a probe there, `symbols` is its table, `import_lite` the `LITE_RUNTIME` flag
    /// of each import of the file there.
    pub(super) fn replays(
        &self,
        lookup: impl Fn(&str, OptionsReach) -> Answer,
        symbols: &Symbols,
        import_lite: &[bool],
    ) -> bool {
        self.import_lite == import_lite
            && self.probes.iter().all(|probe| {
                match (lookup(self.name(probe.name), probe.options), probe.answer) {
                    (Answer::NotVisible, Recorded::NotVisible) => true,
                    (Answer::Package, Recorded::Package) => true,
                    (
                        Answer::Found { kind, file },
                        Recorded::Found {
                            kind: was,
                            file: in_file,
                        },
                    ) => kind == was && symbols.paths[file] == self.files[in_file as usize],
                    _ => false,
                }
            })
            && self
                .facts
                .iter()
                .all(|(fact, name, value)| fact.value(self.name(*name), symbols) == *value)
    }

    fn name(&self, name: NameRef) -> &str {
        let start = name.start as usize;
        &self.names[start..start + name.len as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::FACTS;

    #[test]
    fn each_fact_kind_has_its_table() {
        for (index, fact) in FACTS.into_iter().enumerate() {
            assert_eq!(fact as usize, index, "{fact:?}");
        }
    }
}
