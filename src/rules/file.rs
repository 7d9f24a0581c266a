//! Rules about file elements.

use crate::compare::{Ctx, Sink};

/// FILE_NO_DELETE: not implemented yet.
pub fn file_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_CC_ENABLE_ARENAS: not implemented yet.
pub fn file_same_cc_enable_arenas(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_CC_GENERIC_SERVICES: not implemented yet.
pub fn file_same_cc_generic_services(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_CSHARP_NAMESPACE: not implemented yet.
pub fn file_same_csharp_namespace(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_GO_PACKAGE: not implemented yet.
pub fn file_same_go_package(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_JAVA_GENERIC_SERVICES: not implemented yet.
pub fn file_same_java_generic_services(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_JAVA_MULTIPLE_FILES: not implemented yet.
pub fn file_same_java_multiple_files(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_JAVA_OUTER_CLASSNAME: not implemented yet.
pub fn file_same_java_outer_classname(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_JAVA_PACKAGE: not implemented yet.
pub fn file_same_java_package(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_OBJC_CLASS_PREFIX: not implemented yet.
pub fn file_same_objc_class_prefix(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_OPTIMIZE_FOR: not implemented yet.
pub fn file_same_optimize_for(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_PACKAGE: not implemented yet.
pub fn file_same_package(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_PHP_CLASS_PREFIX: not implemented yet.
pub fn file_same_php_class_prefix(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_PHP_METADATA_NAMESPACE: not implemented yet.
pub fn file_same_php_metadata_namespace(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_PHP_NAMESPACE: not implemented yet.
pub fn file_same_php_namespace(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_PY_GENERIC_SERVICES: not implemented yet.
pub fn file_same_py_generic_services(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_RUBY_PACKAGE: not implemented yet.
pub fn file_same_ruby_package(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_SWIFT_PREFIX: not implemented yet.
pub fn file_same_swift_prefix(_ctx: &Ctx, _out: &mut Sink) {}

/// FILE_SAME_SYNTAX: not implemented yet.
pub fn file_same_syntax(_ctx: &Ctx, _out: &mut Sink) {}
