//! The checks that need only the syntax tree of one file, as written: one walk over it that
//! calls each rule (the rules live in the file of their concern).

use super::ranges::RangeKind;
use super::{declarations, edition_2024, import_list, options_twice, proto3, ranges};
use crate::model::Syntax;
use crate::syntax::ast::{self, EnumItem, MessageItem, TopItem};
use crate::syntax::Span;

type Errors = Vec<(Span, String)>;

/// Every problem of `file` that its syntax tree alone shows.
pub(in crate::link) fn check(file: &ast::FileAst, syntax: &Syntax) -> Errors {
    let mut walk = Walk {
        syntax,
        errors: Vec::new(),
    };
    let imports: Vec<&ast::ImportDecl> = file
        .items
        .iter()
        .filter_map(|item| match item {
            TopItem::Import(i) => Some(i),
            _ => None,
        })
        .collect();
    walk.errors.extend(import_list::imported_once(&imports));
    walk.errors
        .extend(edition_2024::strict_nested_exports(file));
    let options: Vec<ast::OptionDecl> = file
        .items
        .iter()
        .filter_map(|item| match item {
            TopItem::Option(o) => Some(o.clone()),
            _ => None,
        })
        .collect();
    walk.options(&options);
    for item in &file.items {
        match item {
            TopItem::Message(m) => walk.message_body(&m.body),
            TopItem::Enum(e) => walk.enumeration(e),
            TopItem::Service(s) => {
                walk.options(&s.options);
                for method in &s.methods {
                    walk.options(&method.options);
                }
            }
            TopItem::Extend(e) => walk.extend(e),
            TopItem::Package(p) => {
                walk.errors.extend(declarations::package_depth(p));
                walk.errors.extend(declarations::package_length(p));
            }
            TopItem::Import(_) | TopItem::Option(_) => {}
        }
    }
    walk.errors
}

struct Walk<'a> {
    syntax: &'a Syntax,
    errors: Errors,
}

impl Walk<'_> {
    fn options(&mut self, options: &[ast::OptionDecl]) {
        self.errors.extend(options_twice::set_twice(options));
        for option in options {
            self.errors
                .extend(edition_2024::no_removed_option(self.syntax, option));
        }
    }

    fn message_body(&mut self, body: &[MessageItem]) {
        let options: Vec<ast::OptionDecl> = body
            .iter()
            .filter_map(|item| match item {
                MessageItem::Option(o) => Some(o.clone()),
                _ => None,
            })
            .collect();
        self.options(&options);
        self.errors
            .extend(declarations::no_explicit_map_entry(&options));
        let message_set = options.iter().any(|o| {
            o.canonical_name() == "message_set_wire_format" && o.value.as_bool() == Some(true)
        });
        let mut all_ranges = Vec::new();
        let mut reserved_names = Vec::new();
        for item in body {
            match item {
                MessageItem::Field(f) => self.field(f),
                MessageItem::Oneof(o) => {
                    self.errors.extend(declarations::oneof_has_fields(o));
                    self.options(&o.options);
                    for f in &o.fields {
                        self.errors.extend(declarations::no_map_in_oneof(f));
                        self.field(f);
                    }
                }
                MessageItem::Message(m) => self.message_body(&m.body),
                MessageItem::Enum(e) => self.enumeration(e),
                MessageItem::Extend(e) => self.extend(e),
                MessageItem::Extensions(e) => {
                    self.errors
                        .extend(proto3::no_extension_ranges(self.syntax, e));
                    self.options(&e.options);
                    all_ranges.extend(e.ranges.iter().map(|r| (RangeKind::Extensions, r)));
                }
                MessageItem::Reserved(r) => {
                    all_ranges.extend(r.ranges.iter().map(|r| (RangeKind::Reserved, r)));
                    reserved_names.extend(&r.names);
                }
                MessageItem::Option(_) => {}
            }
        }
        self.errors
            .extend(ranges::message_ranges(&all_ranges, message_set));
        self.errors
            .extend(declarations::reserved_names_once(&reserved_names));
    }

    fn field(&mut self, field: &ast::FieldDecl) {
        self.errors.extend(proto3::no_groups(self.syntax, field));
        self.errors.extend(proto3::no_required(self.syntax, field));
        self.options(&field.options);
        if let Some(body) = &field.group_body {
            self.message_body(body);
        }
    }

    fn extend(&mut self, decl: &ast::ExtendDecl) {
        self.errors.extend(declarations::extend_has_fields(decl));
        for f in &decl.fields {
            self.errors.extend(declarations::no_map_extension(f));
            self.errors.extend(declarations::extension_not_required(f));
            self.errors
                .extend(declarations::no_json_name_on_extension(f));
            self.field(f);
        }
    }

    fn enumeration(&mut self, decl: &ast::EnumDecl) {
        self.errors.extend(declarations::enum_has_values(decl));
        let mut ranges = Vec::new();
        let mut reserved_names = Vec::new();
        let mut options = Vec::new();
        for item in &decl.body {
            match item {
                EnumItem::Value(v) => self.options(&v.options),
                EnumItem::Reserved(r) => {
                    ranges.extend(&r.ranges);
                    reserved_names.extend(&r.names);
                }
                EnumItem::Option(o) => options.push(o.clone()),
            }
        }
        self.options(&options);
        self.errors.extend(ranges::enum_ranges(&ranges));
        self.errors
            .extend(declarations::reserved_names_once(&reserved_names));
    }
}
