//! The syntax tree of one `.proto` file. Names are unresolved; every piece a rule may point
//! at keeps its byte span. Statement order is kept inside bodies (descriptor order depends on
//! it, e.g. where a group's or map's synthesized message goes among nested messages).

use compact_str::CompactString;

use super::{Label, OptionValue, Span};

/// A (possibly dotted) name as written, e.g. `foo.Bar` or `.foo.Bar`.
///
/// Names are `CompactString`s (they deref to `&str`): up to 24 bytes are stored inline, so
/// the millions of short identifiers of a large tree cost no allocation each.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub text: CompactString,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SyntaxKind {
    Syntax,
    Edition,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxDecl {
    pub kind: SyntaxKind,
    /// `proto2`, `proto3`, `2023`, ...
    pub value: String,
    pub value_span: Span,
    pub span: Span,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileAst {
    pub syntax: Option<SyntaxDecl>,
    pub items: Vec<TopItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TopItem {
    Package(PackageDecl),
    Import(ImportDecl),
    Option(OptionDecl),
    Message(MessageDecl),
    Enum(EnumDecl),
    Service(ServiceDecl),
    Extend(ExtendDecl),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PackageDecl {
    pub name: Name,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImportDecl {
    pub path: String,
    pub path_span: Span,
    pub public: bool,
    pub weak: bool,
    /// `import option "..."` (editions 2024): only options come from it.
    pub option_only: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OptionNamePart {
    pub name: CompactString,
    /// Written in parentheses: an extension.
    pub is_extension: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OptionDecl {
    pub name: Vec<OptionNamePart>,
    pub value: OptionValue,
    pub value_span: Span,
    /// The whole statement for `option x = y;`, the `x = y` part for a compact option.
    pub span: Span,
}

impl OptionDecl {
    /// The canonical dotted name: `features.field_presence`, `(acme.foo).bar`.
    pub fn canonical_name(&self) -> String {
        // Sized exactly, once: a name is kept in the model for every option of every file.
        let part_len = |p: &OptionNamePart| match p.is_extension {
            true => p.name.trim_start_matches('.').len() + 2,
            false => p.name.len(),
        };
        let dots = self.name.len().saturating_sub(1);
        let mut out = String::with_capacity(self.name.iter().map(part_len).sum::<usize>() + dots);
        for (i, part) in self.name.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            if part.is_extension {
                out.push('(');
                out.push_str(part.name.trim_start_matches('.'));
                out.push(')');
            } else {
                out.push_str(&part.name);
            }
        }
        out
    }

    /// Whether [`OptionDecl::canonical_name`] is `dotted`, without building it (the
    /// symbol table asks this of options of every message and enum).
    pub fn has_name(&self, dotted: &str) -> bool {
        let mut rest = dotted;
        for (i, part) in self.name.iter().enumerate() {
            let after_dot = if i > 0 {
                rest.strip_prefix('.')
            } else {
                Some(rest)
            };
            let next = after_dot.and_then(|r| {
                if part.is_extension {
                    let inner = part.name.trim_start_matches('.');
                    r.strip_prefix('(')?.strip_prefix(inner)?.strip_prefix(')')
                } else {
                    r.strip_prefix(part.name.as_str())
                }
            });
            match next {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.is_empty()
    }
}

#[cfg(test)]
mod option_name_tests {
    use super::{OptionDecl, OptionNamePart, OptionValue, Span};

    fn option(parts: &[(&str, bool)]) -> OptionDecl {
        OptionDecl {
            name: parts
                .iter()
                .map(|&(name, is_extension)| OptionNamePart {
                    name: name.into(),
                    is_extension,
                    span: Span::new(0, 0),
                })
                .collect(),
            value: OptionValue::Ident("x".into()),
            value_span: Span::new(0, 0),
            span: Span::new(0, 0),
        }
    }

    #[test]
    fn has_name_agrees_with_the_canonical_name() {
        let options = [
            option(&[("features", false), ("enum_type", false)]),
            option(&[("features.enum_type", false)]),
            option(&[(".acme.foo", true), ("bar", false)]),
            option(&[("message_set_wire_format", false)]),
            option(&[("acme", true)]),
        ];
        let names = [
            "features.enum_type",
            "features",
            "(acme.foo).bar",
            "(.acme.foo).bar",
            "message_set_wire_format",
            "message_set_wire_forma",
            "(acme)",
            "acme",
            "",
        ];
        for o in &options {
            for name in names {
                assert_eq!(o.has_name(name), o.canonical_name() == name, "{name}");
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MessageDecl {
    pub name: Name,
    pub body: Vec<MessageItem>,
    pub span: Span,
    /// `local` or `export` written before it (edition 2024).
    pub visibility: Option<Visibility>,
}

/// An edition 2024 visibility keyword on a message or enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Local,
    Export,
}

#[derive(Debug, Clone, PartialEq)]
pub enum MessageItem {
    Field(FieldDecl),
    Oneof(OneofDecl),
    Message(MessageDecl),
    Enum(EnumDecl),
    Extend(ExtendDecl),
    Extensions(ExtensionsDecl),
    Reserved(ReservedDecl),
    Option(OptionDecl),
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    Scalar(super::FieldType),
    /// A message or enum name as written.
    Named(CompactString),
    Map {
        key: Box<TypeRef>,
        key_span: Span,
        value: Box<TypeRef>,
        value_span: Span,
    },
    /// `group Name = n { ... }`: the body is in `FieldDecl::group_body`.
    Group,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldDecl {
    /// The label keyword as written (`optional`, `required`, `repeated`), if any.
    pub label: Option<(Label, Span)>,
    pub ty: TypeRef,
    pub type_span: Span,
    pub name: Name,
    pub number: i64,
    pub number_span: Span,
    pub options: Vec<OptionDecl>,
    /// For groups: the body of the group's message.
    pub group_body: Option<Vec<MessageItem>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OneofDecl {
    pub name: Name,
    pub fields: Vec<FieldDecl>,
    pub options: Vec<OptionDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExtendDecl {
    pub extendee: Name,
    pub fields: Vec<FieldDecl>,
    pub span: Span,
}

/// An inclusive number range; `end_is_max` when written `to max`.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeDecl {
    pub start: i64,
    pub end: i64,
    pub end_is_max: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExtensionsDecl {
    pub ranges: Vec<RangeDecl>,
    pub options: Vec<OptionDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReservedDecl {
    pub ranges: Vec<RangeDecl>,
    /// Names with the span of each (string literal with quotes, or identifier in editions).
    pub names: Vec<Name>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumDecl {
    pub name: Name,
    pub body: Vec<EnumItem>,
    pub span: Span,
    /// `local` or `export` written before it (edition 2024).
    pub visibility: Option<Visibility>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EnumItem {
    Value(EnumValueDecl),
    Reserved(ReservedDecl),
    Option(OptionDecl),
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumValueDecl {
    pub name: Name,
    pub number: i64,
    pub number_span: Span,
    pub options: Vec<OptionDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServiceDecl {
    pub name: Name,
    pub methods: Vec<MethodDecl>,
    pub options: Vec<OptionDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MethodDecl {
    pub name: Name,
    pub input: Name,
    pub output: Name,
    pub client_streaming: Option<Span>,
    pub server_streaming: Option<Span>,
    pub options: Vec<OptionDecl>,
    pub span: Span,
}
