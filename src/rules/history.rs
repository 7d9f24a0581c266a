//! The history rules (category `HISTORY`) judge a whole git history, not one pair of
//! snapshots: `crate::history` runs them. In a two-revision check their handlers find
//! nothing, so selecting them there changes nothing.

use crate::compare::{Ctx, Sink};

pub fn field_number_reused(_: &Ctx, _: &mut Sink) {}
pub fn enum_value_number_reused(_: &Ctx, _: &mut Sink) {}
pub fn extension_number_reused(_: &Ctx, _: &mut Sink) {}
pub fn field_name_reused(_: &Ctx, _: &mut Sink) {}
pub fn enum_value_name_reused(_: &Ctx, _: &mut Sink) {}
pub fn field_deleted_not_reserved(_: &Ctx, _: &mut Sink) {}
pub fn enum_value_deleted_not_reserved(_: &Ctx, _: &mut Sink) {}
pub fn reserved_dropped(_: &Ctx, _: &mut Sink) {}
