//! Rules about package elements.

use crate::compare::{Ctx, Sink};

/// PACKAGE_ENUM_NO_DELETE: not implemented yet.
pub fn package_enum_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// PACKAGE_EXTENSION_NO_DELETE: not implemented yet.
pub fn package_extension_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// PACKAGE_MESSAGE_NO_DELETE: not implemented yet.
pub fn package_message_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// PACKAGE_NO_DELETE: not implemented yet.
pub fn package_no_delete(_ctx: &Ctx, _out: &mut Sink) {}

/// PACKAGE_SERVICE_NO_DELETE: not implemented yet.
pub fn package_service_no_delete(_ctx: &Ctx, _out: &mut Sink) {}
