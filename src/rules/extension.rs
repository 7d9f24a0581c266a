//! Rules about extension elements.

use crate::compare::{Ctx, Sink};

/// EXTENSION_NO_DELETE: not implemented yet.
pub fn extension_no_delete(_ctx: &Ctx, _out: &mut Sink) {}
