//! Rules about files: deletion, package, syntax and the file options that shape generated code.

use super::util::quote;
use crate::compare::{Ctx, Sink};
use crate::model::{File, OptionValue, Syntax};

/// FILE_NO_DELETE: a file present in the old revision is missing (files match by path).
pub fn file_no_delete(ctx: &Ctx, out: &mut Sink) {
    for (path, old) in &ctx.old.files {
        if ctx.new.files.contains_key(path) {
            continue;
        }
        out.add(
            None,
            ctx.old_loc(old, None),
            format!("Previously present file {} was deleted.", quote(path)),
        )
        .help = Some(format!(
            "restore {path}; to retire its types, deprecate them in place \
             (option deprecated = true;) instead of deleting the file"
        ));
    }
}

/// FILE_SAME_PACKAGE: the `package` of a file changed.
pub fn file_same_package(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in ctx.file_pairs() {
        if new.package == old.package {
            continue;
        }
        let help = if old.package.is_empty() {
            "remove the package statement: the file had no package before".to_string()
        } else {
            format!("restore `package {};`", old.package)
        };
        out.add(
            ctx.new_loc(new, new.package_span),
            ctx.old_loc(old, old.package_span),
            format!(
                "File package changed from {} to {}.",
                quote(&old.package),
                quote(&new.package)
            ),
        )
        .help = Some(help);
    }
}

/// FILE_SAME_SYNTAX: `syntax`/`edition` changed kind (proto2, proto3, editions). A missing
/// syntax statement means proto2.
pub fn file_same_syntax(ctx: &Ctx, out: &mut Sink) {
    for (new, old) in ctx.file_pairs() {
        if new.syntax.name() == old.syntax.name() {
            continue;
        }
        out.add(
            ctx.new_loc(new, new.syntax_span),
            ctx.old_loc(old, old.syntax_span),
            format!(
                "File syntax changed from {} to {}.",
                quote(old.syntax.name()),
                quote(new.syntax.name())
            ),
        )
        .help = Some(format!("restore `{}`", syntax_statement(&old.syntax)));
    }
}

fn syntax_statement(syntax: &Syntax) -> String {
    match syntax {
        Syntax::Editions(edition) => format!("edition = {};", quote(edition)),
        other => format!("syntax = {};", quote(other.name())),
    }
}

/// How a file option is typed, with the default buf compares against when it is unset.
#[derive(Clone, Copy)]
enum OptionKind {
    /// A string option; unset reads as "".
    Str,
    /// A bool option with its descriptor default.
    Bool(bool),
    /// An enum option with its descriptor default value name.
    Enum(&'static str),
}

/// The effective value of a file option as buf prints it (unset: the descriptor default).
fn effective_value(file: &File, name: &str, kind: OptionKind) -> String {
    let value = file.options.value(name);
    match kind {
        OptionKind::Str => value
            .and_then(OptionValue::as_str)
            .unwrap_or_default()
            .to_string(),
        OptionKind::Bool(default) => value
            .and_then(OptionValue::as_bool)
            .unwrap_or(default)
            .to_string(),
        OptionKind::Enum(default) => match value {
            Some(OptionValue::Ident(v)) => v.clone(),
            _ => default.to_string(),
        },
    }
}

/// Flags a change of the effective value of file option `name` between paired files. Points
/// at the option in the new file, or at the file when the new file does not set it.
fn check_file_option(ctx: &Ctx, out: &mut Sink, name: &str, kind: OptionKind) {
    for (new, old) in ctx.file_pairs() {
        let old_value = effective_value(old, name, kind);
        let new_value = effective_value(new, name, kind);
        if old_value == new_value {
            continue;
        }
        let help = match (old.options.get(name), kind) {
            (Some(_), OptionKind::Str) => {
                format!("restore `option {name} = {};`", quote(&old_value))
            }
            (Some(_), _) => format!("restore `option {name} = {old_value};`"),
            (None, _) => format!(
                "remove `option {name}`: the old file did not set it, so the default \
                 ({}) applied",
                if old_value.is_empty() {
                    "empty".to_string()
                } else {
                    old_value.clone()
                }
            ),
        };
        out.add(
            ctx.new_loc(new, new.options.span(name)),
            ctx.old_loc(old, old.options.span(name)),
            format!(
                "File option {} changed from {} to {}.",
                quote(name),
                quote(&old_value),
                quote(&new_value)
            ),
        )
        .help = Some(help);
    }
}

/// FILE_SAME_CC_ENABLE_ARENAS (unset means true, the descriptor default since protobuf 3.14).
pub fn file_same_cc_enable_arenas(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "cc_enable_arenas", OptionKind::Bool(true));
}

/// FILE_SAME_CC_GENERIC_SERVICES.
pub fn file_same_cc_generic_services(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "cc_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_CSHARP_NAMESPACE.
pub fn file_same_csharp_namespace(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "csharp_namespace", OptionKind::Str);
}

/// FILE_SAME_GO_PACKAGE.
pub fn file_same_go_package(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "go_package", OptionKind::Str);
}

/// FILE_SAME_JAVA_GENERIC_SERVICES.
pub fn file_same_java_generic_services(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "java_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_JAVA_MULTIPLE_FILES.
pub fn file_same_java_multiple_files(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "java_multiple_files", OptionKind::Bool(false));
}

/// FILE_SAME_JAVA_OUTER_CLASSNAME.
pub fn file_same_java_outer_classname(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "java_outer_classname", OptionKind::Str);
}

/// FILE_SAME_JAVA_PACKAGE.
pub fn file_same_java_package(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "java_package", OptionKind::Str);
}

/// FILE_SAME_OBJC_CLASS_PREFIX.
pub fn file_same_objc_class_prefix(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "objc_class_prefix", OptionKind::Str);
}

/// FILE_SAME_OPTIMIZE_FOR (unset means SPEED).
pub fn file_same_optimize_for(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "optimize_for", OptionKind::Enum("SPEED"));
}

/// FILE_SAME_PHP_CLASS_PREFIX.
pub fn file_same_php_class_prefix(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "php_class_prefix", OptionKind::Str);
}

/// FILE_SAME_PHP_METADATA_NAMESPACE.
pub fn file_same_php_metadata_namespace(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "php_metadata_namespace", OptionKind::Str);
}

/// FILE_SAME_PHP_NAMESPACE.
pub fn file_same_php_namespace(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "php_namespace", OptionKind::Str);
}

/// FILE_SAME_PY_GENERIC_SERVICES.
pub fn file_same_py_generic_services(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "py_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_RUBY_PACKAGE.
pub fn file_same_ruby_package(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "ruby_package", OptionKind::Str);
}

/// FILE_SAME_SWIFT_PREFIX.
pub fn file_same_swift_prefix(ctx: &Ctx, out: &mut Sink) {
    check_file_option(ctx, out, "swift_prefix", OptionKind::Str);
}
