//! Every rule handler, by the name the registry expects (`snake_case` of the rule id).

pub use super::enums::*;
pub use super::extension::*;
pub use super::field::*;
pub use super::file::*;
pub use super::history::*;
pub use super::message::*;
pub use super::package::*;
pub use super::service::*;
