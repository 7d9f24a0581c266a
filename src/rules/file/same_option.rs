//! FILE_SAME_<OPTION>: the file options that shape generated code keep their effective
//! value (unset: the descriptor default). One predicate, one function per rule.

use crate::finding::{Location, Sink};
use crate::model::{File, OptionValue};
use crate::rules::pairs::FilePair;
use crate::rules::quote::quote;

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
fn check_file_option(
    FilePair { new, old }: FilePair,
    out: &mut Sink,
    name: &str,
    kind: OptionKind,
) {
    let old_value = effective_value(old, name, kind);
    let new_value = effective_value(new, name, kind);
    if old_value == new_value {
        return;
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
        Some(Location::in_file(new, new.options.span(name))),
        Some(Location::in_file(old, old.options.span(name))),
        format!(
            "File option {} changed from {} to {}.",
            quote(name),
            quote(&old_value),
            quote(&new_value)
        ),
    )
    .help = Some(help);
}

/// FILE_SAME_CC_ENABLE_ARENAS (unset means true, the descriptor default since protobuf 3.14).
pub(in crate::rules) fn cc_enable_arenas(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "cc_enable_arenas", OptionKind::Bool(true));
}

/// FILE_SAME_CC_GENERIC_SERVICES.
pub(in crate::rules) fn cc_generic_services(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "cc_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_CSHARP_NAMESPACE.
pub(in crate::rules) fn csharp_namespace(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "csharp_namespace", OptionKind::Str);
}

/// FILE_SAME_GO_PACKAGE.
pub(in crate::rules) fn go_package(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "go_package", OptionKind::Str);
}

/// FILE_SAME_JAVA_GENERIC_SERVICES.
pub(in crate::rules) fn java_generic_services(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "java_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_JAVA_MULTIPLE_FILES.
pub(in crate::rules) fn java_multiple_files(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "java_multiple_files", OptionKind::Bool(false));
}

/// FILE_SAME_JAVA_OUTER_CLASSNAME.
pub(in crate::rules) fn java_outer_classname(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "java_outer_classname", OptionKind::Str);
}

/// FILE_SAME_JAVA_PACKAGE.
pub(in crate::rules) fn java_package(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "java_package", OptionKind::Str);
}

/// FILE_SAME_OBJC_CLASS_PREFIX.
pub(in crate::rules) fn objc_class_prefix(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "objc_class_prefix", OptionKind::Str);
}

/// FILE_SAME_OPTIMIZE_FOR (unset means SPEED).
pub(in crate::rules) fn optimize_for(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "optimize_for", OptionKind::Enum("SPEED"));
}

/// FILE_SAME_PHP_CLASS_PREFIX.
pub(in crate::rules) fn php_class_prefix(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "php_class_prefix", OptionKind::Str);
}

/// FILE_SAME_PHP_METADATA_NAMESPACE.
pub(in crate::rules) fn php_metadata_namespace(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "php_metadata_namespace", OptionKind::Str);
}

/// FILE_SAME_PHP_NAMESPACE.
pub(in crate::rules) fn php_namespace(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "php_namespace", OptionKind::Str);
}

/// FILE_SAME_PY_GENERIC_SERVICES.
pub(in crate::rules) fn py_generic_services(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "py_generic_services", OptionKind::Bool(false));
}

/// FILE_SAME_RUBY_PACKAGE.
pub(in crate::rules) fn ruby_package(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "ruby_package", OptionKind::Str);
}

/// FILE_SAME_SWIFT_PREFIX.
pub(in crate::rules) fn swift_prefix(files: FilePair, out: &mut Sink) {
    check_file_option(files, out, "swift_prefix", OptionKind::Str);
}
