//! Rules about field elements.

use crate::compare::{Ctx, Sink};

/// FIELD_NO_DELETE: not implemented yet.
pub fn field_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_NO_DELETE_UNLESS_NAME_RESERVED: not implemented yet.
pub fn field_no_delete_unless_name_reserved(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED: not implemented yet.
pub fn field_no_delete_unless_number_reserved(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_CARDINALITY: not implemented yet.
pub fn field_same_cardinality(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_CPP_STRING_TYPE: not implemented yet.
pub fn field_same_cpp_string_type(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_DEFAULT: not implemented yet.
pub fn field_same_default(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_JAVA_UTF8_VALIDATION: not implemented yet.
pub fn field_same_java_utf8_validation(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_JSON_NAME: not implemented yet.
pub fn field_same_json_name(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_JSTYPE: not implemented yet.
pub fn field_same_jstype(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_NAME: not implemented yet.
pub fn field_same_name(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_ONEOF: not implemented yet.
pub fn field_same_oneof(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_TYPE: not implemented yet.
pub fn field_same_type(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_SAME_UTF8_VALIDATION: not implemented yet.
pub fn field_same_utf8_validation(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_WIRE_COMPATIBLE_CARDINALITY: not implemented yet.
pub fn field_wire_compatible_cardinality(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_WIRE_COMPATIBLE_TYPE: not implemented yet.
pub fn field_wire_compatible_type(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY: not implemented yet.
pub fn field_wire_json_compatible_cardinality(_ctx: &Ctx, _out: &mut Sink) {}

/// FIELD_WIRE_JSON_COMPATIBLE_TYPE: not implemented yet.
pub fn field_wire_json_compatible_type(_ctx: &Ctx, _out: &mut Sink) {}
