//! Rules about message elements.

use crate::compare::{Ctx, Sink};

/// EXTENSION_MESSAGE_NO_DELETE: not implemented yet.
pub fn extension_message_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// MESSAGE_NO_DELETE: not implemented yet.
pub fn message_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR: not implemented yet.
pub fn message_no_remove_standard_descriptor_accessor(_ctx: &Ctx, _out: &mut Sink) {}

/// MESSAGE_SAME_JSON_FORMAT: not implemented yet.
pub fn message_same_json_format(_ctx: &Ctx, _out: &mut Sink) {}

/// MESSAGE_SAME_REQUIRED_FIELDS: not implemented yet.
pub fn message_same_required_fields(_ctx: &Ctx, _out: &mut Sink) {}

/// ONEOF_NO_DELETE: not implemented yet.
pub fn oneof_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// RESERVED_MESSAGE_NO_DELETE: not implemented yet.
pub fn reserved_message_no_delete(_ctx: &Ctx, _out: &mut Sink) {}
