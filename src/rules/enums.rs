//! Rules about enums elements.

use crate::compare::{Ctx, Sink};

/// ENUM_NO_DELETE: not implemented yet.
pub fn enum_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_SAME_JSON_FORMAT: not implemented yet.
pub fn enum_same_json_format(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_SAME_TYPE: not implemented yet.
pub fn enum_same_type(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_VALUE_NO_DELETE: not implemented yet.
pub fn enum_value_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED: not implemented yet.
pub fn enum_value_no_delete_unless_name_reserved(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED: not implemented yet.
pub fn enum_value_no_delete_unless_number_reserved(_ctx: &Ctx, _out: &mut Sink) {}

/// ENUM_VALUE_SAME_NAME: not implemented yet.
pub fn enum_value_same_name(_ctx: &Ctx, _out: &mut Sink) {}

/// RESERVED_ENUM_NO_DELETE: not implemented yet.
pub fn reserved_enum_no_delete(_ctx: &Ctx, _out: &mut Sink) {}
