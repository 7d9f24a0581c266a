//! Every change between the two schemas of one module, element by element: what the diff
//! adds and removes, and for each paired element what differs (name, type, label, options,
//! reservations, doc comment). Imported files are not reviewed; only compared files are.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::renames::Renames;
use super::{element, Change, Class, Kind, Shown};
use crate::diff::{ByName, Diff, FieldIn, FieldPair, InFile, MethodIn};
use crate::engine::Compared;
use crate::model::{
    Enum, Field, FieldPresence, FieldType, File, Label, Message, OptionValue, Options,
    ReservedName, ReservedRange, Span,
};

/// The changes of one module pair.
pub fn changes(diff: &Diff, module: &Compared) -> Vec<Change> {
    let renames = Renames::find(diff);
    let new_names = renames.new_names().into_iter().map(String::from).collect();
    let mut c = Collector {
        module,
        renames,
        new_names,
        out: Vec::new(),
    };
    c.files(diff);
    c.messages(diff);
    c.enums(diff);
    c.services(diff);
    c.fields(diff);
    c.oneofs(diff);
    c.enum_values(diff);
    c.formatting_only(diff);
    c.out
}

struct Collector<'m> {
    module: &'m Compared,
    renames: Renames,
    /// The new names in `renames`: those additions are renames, listed with the removal.
    new_names: HashSet<String>,
    out: Vec<Change>,
}

/// One side of a change: the file and the span of the element in it.
#[derive(Clone, Copy)]
struct At<'a> {
    file: &'a File,
    span: Span,
}

fn at(file: &File, span: Span) -> At<'_> {
    At { file, span }
}

/// The whole text of a file, for file-level changes.
fn whole(file: &File) -> Span {
    Span::new(0, file.text.len())
}

impl Collector<'_> {
    fn compared_new(&self, file: &File) -> bool {
        !self.module.new.imports.contains(&file.path)
    }

    fn compared_old(&self, file: &File) -> bool {
        !self.module.old.imports.contains(&file.path)
    }

    /// Records a change; `new`/`old` say where it is on each side (at least one).
    fn push(
        &mut self,
        (kind, base): (Kind, Class),
        (element, element_kind): (&str, &'static str),
        (new, old): (Option<At>, Option<At>),
        description: String,
    ) {
        let new_at = new.map(|a| (self.module.new_path(&a.file.path).to_string(), a.span));
        let old_at = old.map(|a| (self.module.old_path(&a.file.path).to_string(), a.span));
        let Some(shown) = new.or(old) else { return };
        let (path, _) = new_at.clone().or_else(|| old_at.clone()).expect("one side");
        self.out.push(Change {
            class: base,
            kind,
            element: element.to_string(),
            element_kind,
            path,
            start_line: shown.file.line_col(shown.span.start).0,
            description,
            renamed_from: None,
            shown: match kind {
                Kind::Added => Shown::New,
                Kind::Removed => Shown::Old,
                Kind::Changed | Kind::Renamed => Shown::Both,
            },
            findings: Vec::new(),
            unstable: None,
            package: shown.file.package.clone(),
            new_at,
            old_at,
            base,
        });
    }

    fn added(&mut self, name: &str, kind: &'static str, new: At, description: String) {
        if self.compared_new(new.file) {
            let what = (Kind::Added, Class::Minor);
            self.push(what, (name, kind), (Some(new), None), description);
        }
    }

    /// The messages, enums or services only one side has, each described with the number of
    /// its members (`member`: "field", "value", "rpc").
    fn added_and_removed<'d, 'a: 'd, T: 'a>(
        &mut self,
        (added, removed): (
            impl IntoIterator<Item = &'d InFile<'a, T>>,
            impl IntoIterator<Item = &'d InFile<'a, T>>,
        ),
        (kind, member): (&'static str, &str),
        parts: impl Fn(&'a T) -> (&'a str, Span, usize),
    ) {
        for one in added {
            let (name, span, members) = parts(one.item);
            if self.new_names.contains(name) {
                continue;
            }
            let words = format!("new {kind} ({})", count(members, member));
            self.added(name, kind, at(one.file, span), words);
        }
        for one in removed {
            let (name, span, members) = parts(one.item);
            if self.renames.new_name(name).is_some() {
                continue;
            }
            let words = format!("{kind} deleted ({})", count(members, member));
            self.removed(name, kind, at(one.file, span), words);
        }
    }

    fn removed(&mut self, name: &str, kind: &'static str, old: At, description: String) {
        if self.compared_old(old.file) {
            let what = (Kind::Removed, Class::Minor);
            self.push(what, (name, kind), (None, Some(old)), description);
        }
    }

    fn changed(&mut self, what: (&str, &'static str, Class), sides: (At, At), description: String) {
        self.changed_as(None, what, sides, description);
    }

    /// [`Self::changed`] where one side is only a placeholder (the parent of an option or a
    /// reservation that side lacks): snippets show the other side alone.
    fn changed_on(
        &mut self,
        shown: Shown,
        what: (&str, &'static str, Class),
        sides: (At, At),
        description: String,
    ) {
        let before = self.out.len();
        self.changed(what, sides, description);
        if self.out.len() > before {
            if let Some(change) = self.out.last_mut() {
                change.shown = shown;
            }
        }
    }

    /// [`Self::changed`]; with `renamed_from` (the old full name) the change is a rename.
    fn changed_as(
        &mut self,
        renamed_from: Option<&str>,
        (name, kind, base): (&str, &'static str, Class),
        (new, old): (At, At),
        description: String,
    ) {
        if self.compared_new(new.file) || self.compared_old(old.file) {
            let what = match renamed_from {
                Some(_) => (Kind::Renamed, base),
                None => (Kind::Changed, base),
            };
            self.push(what, (name, kind), (Some(new), Some(old)), description);
            if let Some(change) = self.out.last_mut() {
                change.renamed_from = renamed_from.map(String::from);
            }
        }
    }

    /// What differs in a paired element's own declaration (one minor change listing each
    /// difference), then its options and doc comment.
    fn compare(
        &mut self,
        (name, kind): (&str, &'static str),
        (new, old): (At, At),
        differences: Vec<String>,
        (new_options, old_options): (&Options, &Options),
    ) {
        self.compare_renamed(
            None,
            (name, kind),
            (new, old),
            differences,
            (new_options, old_options),
        );
    }

    /// [`Self::compare`] of an element that had another name (`renamed_from`) on the old side.
    fn compare_renamed(
        &mut self,
        renamed_from: Option<&str>,
        (name, kind): (&str, &'static str),
        (new, old): (At, At),
        differences: Vec<String>,
        (new_options, old_options): (&Options, &Options),
    ) {
        if !differences.is_empty() {
            let what = (name, kind, Class::Minor);
            self.changed_as(renamed_from, what, (new, old), differences.join("; "));
        }
        self.options(name, (new, new_options), (old, old_options));
        self.doc_comment(name, new, old);
    }

    fn files(&mut self, diff: &Diff) {
        for file in &diff.added().files {
            let what = package_words(&file.package);
            self.added(
                &file.path,
                element::FILE,
                at(file, whole(file)),
                format!("new file{what}"),
            );
        }
        for file in &diff.removed().files {
            let what = package_words(&file.package);
            self.removed(
                &file.path,
                element::FILE,
                at(file, whole(file)),
                format!("file deleted{what}"),
            );
        }
        for (new, old) in diff.file_pairs() {
            let sides = (at(new, whole(new)), at(old, whole(old)));
            let mut differences = Vec::new();
            if new.package != old.package {
                differences.push(format!(
                    "package {} → {}",
                    quoted(&old.package),
                    quoted(&new.package)
                ));
            }
            if new.syntax != old.syntax {
                differences.push(format!("{} → {}", syntax_words(old), syntax_words(new)));
            }
            self.compare(
                (&new.path, element::FILE),
                sides,
                differences,
                (&new.options, &old.options),
            );
            self.imports(new, old);
        }
    }

    fn imports(&mut self, new: &File, old: &File) {
        let old_paths: BTreeSet<&str> = old.imports.iter().map(|i| i.path.as_str()).collect();
        let new_paths: BTreeSet<&str> = new.imports.iter().map(|i| i.path.as_str()).collect();
        for import in new
            .imports
            .iter()
            .filter(|i| !old_paths.contains(i.path.as_str()))
        {
            let what = (&*new.path, element::IMPORT, Class::Patch);
            let description = format!("import {} added", code(&import.path));
            self.changed_on(
                Shown::New,
                what,
                (at(new, import.span), at(old, whole(old))),
                description,
            );
        }
        for import in old
            .imports
            .iter()
            .filter(|i| !new_paths.contains(i.path.as_str()))
        {
            let what = (&*new.path, element::IMPORT, Class::Patch);
            let description = format!("import {} removed", code(&import.path));
            self.changed_on(
                Shown::Old,
                what,
                (at(new, whole(new)), at(old, import.span)),
                description,
            );
        }
    }

    fn messages(&mut self, diff: &Diff) {
        let kept = |m: &&InFile<Message>| !m.item.is_map_entry;
        self.added_and_removed(
            (
                diff.added().messages.iter().filter(kept),
                diff.removed().messages.iter().filter(kept),
            ),
            (element::MESSAGE, "field"),
            |m| (&m.full_name, m.span, m.fields.len()),
        );
        for old in diff.removed().messages.iter().filter(kept) {
            let Some(new) = self.renamed_in(&diff.new_index.messages, &old.item.full_name) else {
                continue;
            };
            let (n, o) = (new.item, old.item);
            let sides = (at(new.file, n.span), at(old.file, o.span));
            let words = renamed_words(
                &o.full_name,
                count(o.fields.len(), "field"),
                new.file,
                old.file,
            );
            self.compare_renamed(
                Some(&o.full_name),
                (&n.full_name, element::MESSAGE),
                sides,
                words,
                (&n.options, &o.options),
            );
            self.reservations(
                &n.full_name,
                sides,
                (&n.reserved_ranges, &o.reserved_ranges),
                (&n.reserved_names, &o.reserved_names),
            );
        }
        for pair in diff.message_pairs() {
            let (new, old) = (pair.new.item, pair.old.item);
            if new.is_map_entry {
                continue;
            }
            let sides = (at(pair.new.file, new.span), at(pair.old.file, old.span));
            let mut differences = moved(pair.new.file, pair.old.file);
            if ranges(&new.extension_ranges) != ranges(&old.extension_ranges) {
                differences.push(format!(
                    "extension ranges {} → {}",
                    ranges_words(&old.extension_ranges),
                    ranges_words(&new.extension_ranges)
                ));
            }
            let name = &new.full_name;
            self.compare(
                (name, element::MESSAGE),
                sides,
                differences,
                (&new.options, &old.options),
            );
            self.reservations(
                name,
                sides,
                (&new.reserved_ranges, &old.reserved_ranges),
                (&new.reserved_names, &old.reserved_names),
            );
        }
    }

    fn enums(&mut self, diff: &Diff) {
        self.added_and_removed(
            (&diff.added().enums, &diff.removed().enums),
            (element::ENUM, "value"),
            |e| (&e.full_name, e.span, e.values.len()),
        );
        for old in &diff.removed().enums {
            let Some(new) = self.renamed_in(&diff.new_index.enums, &old.item.full_name) else {
                continue;
            };
            let (n, o) = (new.item, old.item);
            let sides = (at(new.file, n.span), at(old.file, o.span));
            let words = renamed_words(
                &o.full_name,
                count(o.values.len(), "value"),
                new.file,
                old.file,
            );
            self.compare_renamed(
                Some(&o.full_name),
                (&n.full_name, element::ENUM),
                sides,
                words,
                (&n.options, &o.options),
            );
            self.reservations(
                &n.full_name,
                sides,
                (&n.reserved_ranges, &o.reserved_ranges),
                (&n.reserved_names, &o.reserved_names),
            );
        }
        for pair in diff.enum_pairs() {
            let (new, old): (&Enum, &Enum) = (pair.new.item, pair.old.item);
            let sides = (at(pair.new.file, new.span), at(pair.old.file, old.span));
            let differences = moved(pair.new.file, pair.old.file);
            let name = &new.full_name;
            self.compare(
                (name, element::ENUM),
                sides,
                differences,
                (&new.options, &old.options),
            );
            self.reservations(
                name,
                sides,
                (&new.reserved_ranges, &old.reserved_ranges),
                (&new.reserved_names, &old.reserved_names),
            );
        }
    }

    fn services(&mut self, diff: &Diff) {
        self.added_and_removed(
            (&diff.added().services, &diff.removed().services),
            (element::SERVICE, "rpc"),
            |s| (&s.full_name, s.span, s.methods.len()),
        );
        for old in &diff.removed().services {
            let Some(new) = self.renamed_in(&diff.new_index.services, &old.item.full_name) else {
                continue;
            };
            let (n, o) = (new.item, old.item);
            let sides = (at(new.file, n.span), at(old.file, o.span));
            let words = renamed_words(
                &o.full_name,
                count(o.methods.len(), "rpc"),
                new.file,
                old.file,
            );
            self.compare_renamed(
                Some(&o.full_name),
                (&n.full_name, element::SERVICE),
                sides,
                words,
                (&n.options, &o.options),
            );
        }
        for pair in diff.service_pairs() {
            let (new, old) = (pair.new.item, pair.old.item);
            let sides = (at(pair.new.file, new.span), at(pair.old.file, old.span));
            let differences = moved(pair.new.file, pair.old.file);
            self.compare(
                (&new.full_name, element::SERVICE),
                sides,
                differences,
                (&new.options, &old.options),
            );
        }
        for m in &diff.added().methods {
            if self.new_names.contains(&m.method.full_name) {
                continue;
            }
            let words = format!(
                "new rpc {}",
                code(&format!("{}{}", m.method.name, signature(m.method)))
            );
            self.added(
                &m.method.full_name,
                element::RPC,
                at(m.file, m.method.span),
                words,
            );
        }
        for m in &diff.removed().methods {
            if let Some(new_name) = self.renames.methods.get(&m.method.full_name).cloned() {
                self.renamed_method(diff, m, &new_name);
                continue;
            }
            let words = format!(
                "rpc {} deleted",
                code(&format!("{}{}", m.method.name, signature(m.method)))
            );
            self.removed(
                &m.method.full_name,
                element::RPC,
                at(m.file, m.method.span),
                words,
            );
        }
        for pair in diff.method_pairs() {
            let (new, old) = (pair.new, pair.old);
            let sides = (at(pair.new_file, new.span), at(pair.old_file, old.span));
            let mut differences = Vec::new();
            if signature(new) != signature(old) {
                differences.push(format!(
                    "{} → {}",
                    code(&signature(old)),
                    code(&signature(new))
                ));
            }
            self.compare(
                (&new.full_name, element::RPC),
                sides,
                differences,
                (&new.options, &old.options),
            );
        }
    }

    /// The new side's element a removed one was renamed to.
    fn renamed_in<'a, T>(
        &self,
        index: &'a ByName<'a, InFile<'a, T>>,
        old_name: &str,
    ) -> Option<&'a InFile<'a, T>> {
        index.get(self.renames.new_name(old_name)?)
    }

    /// A removed rpc that is an added one under a new name (same service, same signature).
    fn renamed_method(&mut self, diff: &Diff, old: &MethodIn, new_name: &str) {
        let Some(new) = diff
            .added()
            .methods
            .iter()
            .find(|m| m.method.full_name == new_name)
        else {
            return;
        };
        let (n, o) = (new.method, old.method);
        let sides = (at(new.file, n.span), at(old.file, o.span));
        let words = vec![format!(
            "renamed from {} (same signature {})",
            code(&o.name),
            code(&signature(o))
        )];
        self.compare_renamed(
            Some(&o.full_name),
            (&n.full_name, element::RPC),
            sides,
            words,
            (&n.options, &o.options),
        );
    }

    fn fields(&mut self, diff: &Diff) {
        for f in &diff.added().fields {
            let words = format!("new {}", field_words(f));
            self.added(
                &f.field.full_name,
                field_kind(f.field),
                at(f.file, f.field.span),
                words,
            );
        }
        for f in &diff.removed().fields {
            let words = format!("{} deleted", field_words(f));
            self.removed(
                &f.field.full_name,
                field_kind(f.field),
                at(f.file, f.field.span),
                words,
            );
        }
        for pair in diff.field_pairs() {
            self.field_pair(pair);
        }
    }

    fn field_pair(&mut self, pair: &FieldPair) {
        let (new, old) = (pair.new.field, pair.old.field);
        let sides = (at(pair.new.file, new.span), at(pair.old.file, old.span));
        let mut differences = Vec::new();
        let mut differ = |what: &str, old: String, new: String| {
            if old != new {
                differences.push(format!("{what} {} → {}", code(&old), code(&new)));
            }
        };
        differ("name", old.name.clone(), new.name.clone());
        differ("type", type_words(old), type_words(new));
        let label = |f: &FieldIn| {
            Some(label_words(f))
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| "(none)".into())
        };
        differ("label", label(&pair.old), label(&pair.new));
        differ(
            "json_name",
            old.json_name.to_string(),
            new.json_name.to_string(),
        );
        differ("oneof", oneof_words(&pair.old), oneof_words(&pair.new));
        let default = |f: &Field| f.default_value().unwrap_or("(none)").to_string();
        differ("default", default(old), default(new));
        let presence = |f: &Field| format!("{:?}", f.features.field_presence.value).to_lowercase();
        if label_words(&pair.old) == label_words(&pair.new) {
            differ("presence", presence(old), presence(new));
        }
        let name = &new.full_name;
        let renamed_from = (new.name != old.name).then_some(old.full_name.as_str());
        self.compare_renamed(
            renamed_from,
            (name, field_kind(new)),
            sides,
            differences,
            (&new.options, &old.options),
        );
    }

    fn oneofs(&mut self, diff: &Diff) {
        let name = |message: &Message, oneof: &str| format!("{}.{oneof}", message.full_name);
        for o in diff.added().oneofs.iter().filter(|o| !o.oneof.synthetic) {
            let full = name(o.message, &o.oneof.name);
            self.added(
                &full,
                element::ONEOF,
                at(o.file, o.oneof.span),
                "new oneof".into(),
            );
        }
        for o in diff.removed().oneofs.iter().filter(|o| !o.oneof.synthetic) {
            let full = name(o.message, &o.oneof.name);
            self.removed(
                &full,
                element::ONEOF,
                at(o.file, o.oneof.span),
                "oneof deleted".into(),
            );
        }
        for pair in diff.oneof_pairs() {
            let (new, old) = (pair.new.oneof, pair.old.oneof);
            if new.synthetic && old.synthetic {
                continue;
            }
            let sides = (at(pair.new.file, new.span), at(pair.old.file, old.span));
            let full = name(pair.new.message, &new.name);
            self.compare(
                (&full, element::ONEOF),
                sides,
                Vec::new(),
                (&new.options, &old.options),
            );
        }
    }

    fn enum_values(&mut self, diff: &Diff) {
        let name = |parent: &Enum, value: &str| format!("{}.{value}", parent.full_name);
        for v in &diff.added().enum_values {
            let full = name(v.parent, &v.value.name);
            let words = format!("new value {} = {}", code(&v.value.name), v.value.number);
            self.added(&full, element::ENUM_VALUE, at(v.file, v.value.span), words);
        }
        for v in &diff.removed().enum_values {
            let full = name(v.parent, &v.value.name);
            let words = format!("value {} = {} deleted", code(&v.value.name), v.value.number);
            self.removed(&full, element::ENUM_VALUE, at(v.file, v.value.span), words);
        }
        for pair in diff.enum_value_pairs() {
            let (Some(new), Some(old)) = (pair.new.first(), pair.old.first()) else {
                continue;
            };
            let names = |values: &[&crate::model::EnumValue]| {
                values
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut differences = Vec::new();
            if names(&pair.new) != names(&pair.old) {
                differences.push(format!(
                    "name {} → {}",
                    code(&names(&pair.old)),
                    code(&names(&pair.new))
                ));
            }
            let sides = (at(pair.new_file, new.span), at(pair.old_file, old.span));
            let full = name(pair.new_enum, &new.name);
            let old_full = name(pair.old_enum, &old.name);
            let renamed_from = (new.name != old.name).then_some(old_full.as_str());
            self.compare_renamed(
                renamed_from,
                (&full, element::ENUM_VALUE),
                sides,
                differences,
                (&new.options, &old.options),
            );
        }
    }

    /// Options set, unset or changed on an element, one change per option name. `default`
    /// and `json_name` are the field's own declaration, compared there.
    fn options(
        &mut self,
        owner: &str,
        (new, new_options): (At, &Options),
        (old, old_options): (At, &Options),
    ) {
        let (new_map, old_map) = (by_name(new_options), by_name(old_options));
        let names: BTreeSet<&String> = new_map.keys().chain(old_map.keys()).collect();
        for name in names {
            let class = super::classify::option_class(name);
            let what = (owner, element::OPTION, class);
            match (new_map.get(name), old_map.get(name)) {
                (Some(n), None) => {
                    let description = format!(
                        "option {} set to {}",
                        code(name),
                        code(&value_words(&n.value))
                    );
                    self.changed_on(Shown::New, what, (at(new.file, n.span), old), description);
                }
                (None, Some(o)) => {
                    let description = format!(
                        "option {} removed (was {})",
                        code(name),
                        code(&value_words(&o.value))
                    );
                    self.changed_on(Shown::Old, what, (new, at(old.file, o.span)), description);
                }
                (Some(n), Some(o)) if !same_option(n, o) => {
                    let description = format!(
                        "option {} {} → {}",
                        code(name),
                        code(&value_words(&o.value)),
                        code(&value_words(&n.value))
                    );
                    self.changed(
                        what,
                        (at(new.file, n.span), at(old.file, o.span)),
                        description,
                    );
                }
                _ => {}
            }
        }
    }

    fn doc_comment(&mut self, owner: &str, new: At, old: At) {
        if new.span == whole(new.file) {
            // A file's own comments are its header, not an element's doc.
            return;
        }
        let (new_doc, old_doc) = (
            crate::model::doc_comment(new.file, new.span),
            crate::model::doc_comment(old.file, old.span),
        );
        if new_doc == old_doc {
            return;
        }
        let description = match (old_doc.is_empty(), new_doc.is_empty()) {
            (true, _) => "doc comment added",
            (_, true) => "doc comment removed",
            _ => "doc comment changed",
        };
        self.changed(
            (owner, element::COMMENT, Class::Patch),
            (new, old),
            description.to_string(),
        );
    }

    /// Reserved numbers and names added (patch: nothing generated changes) or dropped
    /// (minor: they may be reused; RESERVED_* findings make it major).
    fn reservations(
        &mut self,
        owner: &str,
        (new, old): (At, At),
        (new_ranges, old_ranges): (&[ReservedRange], &[ReservedRange]),
        (new_names, old_names): (&[ReservedName], &[ReservedName]),
    ) {
        let old_set = ranges(old_ranges);
        let new_set = ranges(new_ranges);
        for r in new_ranges
            .iter()
            .filter(|r| !old_set.contains(&(r.start, r.end)))
        {
            let description = format!("reserved {} added", range_words(r));
            self.changed_on(
                Shown::New,
                (owner, element::RESERVATION, Class::Patch),
                (at(new.file, r.span), old),
                description,
            );
        }
        for r in old_ranges
            .iter()
            .filter(|r| !new_set.contains(&(r.start, r.end)))
        {
            let description = format!("reserved {} removed", range_words(r));
            self.changed_on(
                Shown::Old,
                (owner, element::RESERVATION, Class::Minor),
                (new, at(old.file, r.span)),
                description,
            );
        }
        let old_set: BTreeSet<&str> = old_names.iter().map(|n| n.name.as_str()).collect();
        let new_set: BTreeSet<&str> = new_names.iter().map(|n| n.name.as_str()).collect();
        for n in new_names
            .iter()
            .filter(|n| !old_set.contains(n.name.as_str()))
        {
            let description = format!("reserved name {} added", quoted(&n.name));
            self.changed_on(
                Shown::New,
                (owner, element::RESERVATION, Class::Patch),
                (at(new.file, n.span), old),
                description,
            );
        }
        for n in old_names
            .iter()
            .filter(|n| !new_set.contains(n.name.as_str()))
        {
            let description = format!("reserved name {} removed", quoted(&n.name));
            self.changed_on(
                Shown::Old,
                (owner, element::RESERVATION, Class::Minor),
                (new, at(old.file, n.span)),
                description,
            );
        }
    }

    /// A compared file whose text changed while no element did: layout or comments that
    /// are no element's doc.
    fn formatting_only(&mut self, diff: &Diff) {
        for (new, old) in diff.file_pairs() {
            if !self.compared_new(new) || new.text == old.text {
                continue;
            }
            let path = self.module.new_path(&new.path);
            if self.out.iter().any(|c| c.path == path) {
                continue;
            }
            let sides = (at(new, whole(new)), at(old, whole(old)));
            let description = "text changed, no element did (formatting or comments)".to_string();
            self.changed((&new.path, element::FILE, Class::Patch), sides, description);
        }
    }
}

/// Options by name (the last assignment wins), without the `default` and `json_name`
/// pseudo-options.
/// Whether two settings of one option are one value: typed, when the build resolved both;
/// else as written (`same_value`).
fn same_option(new: &crate::model::OptionEntry, old: &crate::model::OptionEntry) -> bool {
    match (new.resolved.get(), old.resolved.get()) {
        (Some(new), Some(old)) => new == old,
        _ => crate::parse::literal::same_value(&new.value, &old.value),
    }
}

fn by_name(options: &Options) -> BTreeMap<String, &crate::model::OptionEntry> {
    let mut map = BTreeMap::new();
    for entry in &options.entries {
        if entry.name != "default" && entry.name != "json_name" {
            map.insert(entry.name.clone(), entry);
        }
    }
    map
}

fn field_kind(field: &Field) -> &'static str {
    if field.extendee().is_some() {
        element::EXTENSION
    } else {
        element::FIELD
    }
}

/// `field `status` = 3 (acme.v1.Status)`; extensions name their extendee.
fn field_words(f: &FieldIn) -> String {
    let field = f.field;
    let label = label_words(f);
    let label = if label.is_empty() {
        String::new()
    } else {
        format!("{label} ")
    };
    let what = match field.extendee() {
        Some(extendee) => format!("extension of {}", code(extendee)),
        None => "field".to_string(),
    };
    format!(
        "{what} {} = {} ({label}{})",
        code(&field.name),
        field.number,
        type_words(field)
    )
}

fn type_words(field: &Field) -> String {
    match (&field.ty, &field.type_name) {
        (FieldType::Message | FieldType::Enum | FieldType::Group, Some(name)) => name.to_string(),
        (ty, _) => ty.name().to_string(),
    }
}

/// The label as written: `map`, `repeated`, `required`, `optional` (proto2, proto3
/// `optional`), or empty (no label: proto3 and editions singular fields, oneof members).
fn label_words(f: &FieldIn) -> String {
    let field = f.field;
    if f.message.is_some_and(|m| field.is_map(m)) {
        return "map".into();
    }
    match field.label {
        Label::Repeated => "repeated".into(),
        Label::Required => "required".into(),
        Label::Optional if field.features.field_presence.value == FieldPresence::LegacyRequired => {
            "required".into()
        }
        Label::Optional if field.proto3_optional => "optional".into(),
        Label::Optional
            if f.file.syntax == crate::model::Syntax::Proto2 && field.oneof_index.is_none() =>
        {
            "optional".into()
        }
        Label::Optional => String::new(),
    }
}

/// The real oneof the field is in, or `(none)`.
fn oneof_words(f: &FieldIn) -> String {
    f.message
        .and_then(|m| f.field.oneof(m))
        .filter(|o| !o.synthetic)
        .map_or_else(|| "(none)".to_string(), |o| o.name.clone())
}

fn signature(m: &crate::model::Method) -> String {
    let stream = |yes: bool| if yes { "stream " } else { "" };
    format!(
        "({}{}) returns ({}{})",
        stream(m.client_streaming),
        m.input_type,
        stream(m.server_streaming),
        m.output_type
    )
}

/// `renamed from `acme.v1.Old` (same 3 fields)`, and where it moved if it did.
fn renamed_words(old_name: &str, members: String, new: &File, old: &File) -> Vec<String> {
    let mut words = vec![format!("renamed from {} (same {members})", code(old_name))];
    words.extend(moved(new, old));
    words
}

fn moved(new: &File, old: &File) -> Vec<String> {
    if new.path == old.path {
        Vec::new()
    } else {
        vec![format!(
            "moved from {} to {}",
            code(&old.path),
            code(&new.path)
        )]
    }
}

fn ranges(list: &[ReservedRange]) -> BTreeSet<(i64, i64)> {
    list.iter().map(|r| (r.start, r.end)).collect()
}

fn range_words(r: &ReservedRange) -> String {
    if r.start == r.end {
        r.start.to_string()
    } else {
        format!("{} to {}", r.start, r.end)
    }
}

fn ranges_words(list: &[ReservedRange]) -> String {
    if list.is_empty() {
        return "(none)".into();
    }
    code(&list.iter().map(range_words).collect::<Vec<_>>().join(", "))
}

fn value_words(value: &OptionValue) -> String {
    let text = match value {
        OptionValue::Ident(s) => s.clone(),
        OptionValue::String(bytes) => crate::rules::quote::quote_bytes(bytes),
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Float(f) => crate::link::protoc_float(*f),
        OptionValue::Aggregate(s) => s.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    shorten(&text, 60)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

fn syntax_words(file: &File) -> String {
    match &file.syntax {
        crate::model::Syntax::Editions(edition) => format!("edition {}", code(edition)),
        other => format!("syntax {}", code(other.name())),
    }
}

fn package_words(package: &str) -> String {
    if package.is_empty() {
        String::new()
    } else {
        format!(" (package {})", code(package))
    }
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn quoted(text: &str) -> String {
    if text.is_empty() {
        "(none)".into()
    } else {
        code(text)
    }
}

/// Inline code, as both the text and the Markdown output show names.
fn code(text: &str) -> String {
    format!("`{text}`")
}
