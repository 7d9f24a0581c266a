//! Which check each rule runs. One exhaustive `match` over [`RuleId`], with every variant
//! spelled as a path (a glob import would turn a renamed variant into a catch-all binding): a
//! rule the catalog adds without a check, or a check for an id the catalog renamed, does not
//! compile.

use super::pairs::Check;
use super::{
    enums, extension, field, file, hazard, history, message, oneof, package, service, RuleId,
};
use crate::diff::Ctx;
use crate::finding::Sink;

impl RuleId {
    /// The rule's check; `None` for deprecated ids, which run their replacements instead.
    pub const fn check(self) -> Option<Check> {
        use Check::*;
        Some(match self {
            RuleId::FileNoDelete => RemovedFile(file::no_delete::check),
            RuleId::FileSamePackage => Files(file::same_package::check),
            RuleId::FileSameSyntax => Files(file::same_syntax::check),
            RuleId::FileSameCcEnableArenas => Files(file::same_option::cc_enable_arenas),
            RuleId::FileSameCcGenericServices => Files(file::same_option::cc_generic_services),
            RuleId::FileSameCsharpNamespace => Files(file::same_option::csharp_namespace),
            RuleId::FileSameGoPackage => Files(file::same_option::go_package),
            RuleId::FileSameJavaGenericServices => Files(file::same_option::java_generic_services),
            RuleId::FileSameJavaMultipleFiles => Files(file::same_option::java_multiple_files),
            RuleId::FileSameJavaOuterClassname => Files(file::same_option::java_outer_classname),
            RuleId::FileSameJavaPackage => Files(file::same_option::java_package),
            RuleId::FileSameObjcClassPrefix => Files(file::same_option::objc_class_prefix),
            RuleId::FileSameOptimizeFor => Files(file::same_option::optimize_for),
            RuleId::FileSamePhpClassPrefix => Files(file::same_option::php_class_prefix),
            RuleId::FileSamePhpMetadataNamespace => {
                Files(file::same_option::php_metadata_namespace)
            }
            RuleId::FileSamePhpNamespace => Files(file::same_option::php_namespace),
            RuleId::FileSamePyGenericServices => Files(file::same_option::py_generic_services),
            RuleId::FileSameRubyPackage => Files(file::same_option::ruby_package),
            RuleId::FileSameSwiftPrefix => Files(file::same_option::swift_prefix),

            RuleId::PackageNoDelete => RemovedPackage(package::no_delete::check),
            RuleId::PackageMessageNoDelete => Schemas(package::message_no_delete::check),
            RuleId::PackageEnumNoDelete => Schemas(package::enum_no_delete::check),
            RuleId::PackageExtensionNoDelete => Schemas(package::extension_no_delete::check),
            RuleId::PackageServiceNoDelete => Schemas(package::service_no_delete::check),

            RuleId::MessageNoDelete => Files(message::no_delete::check),
            RuleId::MessageNoRemoveStandardDescriptorAccessor => {
                Messages(message::no_remove_standard_descriptor_accessor::check)
            }
            RuleId::MessageSameJsonFormat => Messages(message::same_json_format::check),
            RuleId::MessageSameRequiredFields => Messages(message::same_required_fields::check),
            RuleId::ReservedMessageNoDelete => Messages(message::reserved_no_delete::check),
            RuleId::ExtensionMessageNoDelete => Messages(message::extension_range_no_delete::check),
            RuleId::OneofNoDelete => RemovedOneof(oneof::no_delete::check),

            RuleId::FieldNoDelete => RemovedField(field::no_delete::check),
            RuleId::FieldNoDeleteUnlessNameReserved => {
                RemovedField(field::no_delete::unless_name_reserved)
            }
            RuleId::FieldNoDeleteUnlessNumberReserved => {
                RemovedField(field::no_delete::unless_number_reserved)
            }
            RuleId::FieldSameCardinality => Fields(field::cardinality::check),
            RuleId::FieldWireCompatibleCardinality => Fields(field::cardinality::wire_compatible),
            RuleId::FieldWireJsonCompatibleCardinality => {
                Fields(field::cardinality::wire_json_compatible)
            }
            RuleId::FieldSameType => Fields(field::types::check),
            RuleId::FieldWireCompatibleType => Fields(field::types::wire_compatible),
            RuleId::FieldWireJsonCompatibleType => Fields(field::types::wire_json_compatible),
            RuleId::FieldSameName => Fields(field::same_name::check),
            RuleId::FieldSameOneof => Fields(field::same_oneof::check),
            RuleId::FieldSameJsonName => Fields(field::same_json_name::check),
            RuleId::FieldSameJstype => Fields(field::same_jstype::check),
            RuleId::FieldSameCppStringType => Fields(field::same_cpp_string_type::check),
            RuleId::FieldSameJavaUtf8Validation => Fields(field::utf8_validation::java),
            RuleId::FieldSameUtf8Validation => Fields(field::utf8_validation::check),
            RuleId::FieldSameDefault => Fields(field::same_default::check),

            RuleId::EnumNoDelete => Files(enums::no_delete::check),
            RuleId::EnumSameType => Enums(enums::same_type::check),
            RuleId::EnumSameJsonFormat => Enums(enums::same_json_format::check),
            RuleId::ReservedEnumNoDelete => Enums(enums::reserved_no_delete::check),
            RuleId::EnumValueNoDelete => RemovedEnumValue(enums::value_no_delete::check),
            RuleId::EnumValueNoDeleteUnlessNameReserved => {
                RemovedEnumValue(enums::value_no_delete::unless_name_reserved)
            }
            RuleId::EnumValueNoDeleteUnlessNumberReserved => {
                RemovedEnumValue(enums::value_no_delete::unless_number_reserved)
            }
            RuleId::EnumValueSameName => EnumValues(enums::value_same_name::check),

            RuleId::ExtensionNoDelete => Files(extension::no_delete::check),

            RuleId::ServiceNoDelete => Files(service::no_delete::check),
            RuleId::RpcNoDelete => RemovedRpc(service::rpc_no_delete::check),
            RuleId::RpcSameClientStreaming => Rpcs(service::rpc_same_streaming::client),
            RuleId::RpcSameServerStreaming => Rpcs(service::rpc_same_streaming::server),
            RuleId::RpcSameRequestType => Rpcs(service::rpc_same_type::request),
            RuleId::RpcSameResponseType => Rpcs(service::rpc_same_type::response),
            RuleId::RpcSameIdempotencyLevel => Rpcs(service::rpc_same_idempotency_level::check),

            // Judged over a whole history by `crate::history`, never on one pair.
            RuleId::FieldNumberReused
            | RuleId::EnumValueNumberReused
            | RuleId::ExtensionNumberReused
            | RuleId::FieldNameReused
            | RuleId::EnumValueNameReused
            | RuleId::FieldDeletedNotReserved
            | RuleId::EnumValueDeletedNotReserved
            | RuleId::ReservedDropped
            | RuleId::FieldNumberConflict => Schemas(history::nothing),
            RuleId::EnumZeroValueChanged => Enums(hazard::enum_values::zero_value_changed),
            RuleId::EnumClosedValueAdded => Enums(hazard::enum_values::closed_value_added),
            RuleId::FieldPresenceChanged => Fields(hazard::presence::changed),
            RuleId::FieldImplicitZero => Schemas(hazard::presence::implicit_zero),
            RuleId::FieldVarintEncodingChanged => Fields(hazard::integers::varint_encoding),
            RuleId::FieldIntegerReinterpreted => Fields(hazard::integers::reinterpreted),
            RuleId::FieldStringBytesChanged => Fields(hazard::string_bytes::check),
            RuleId::FieldNumberTagSize => Schemas(hazard::tag_size::check),

            RuleId::FieldSameCtype
            | RuleId::FieldSameLabel
            | RuleId::FileSameJavaStringCheckUtf8
            | RuleId::FileSamePhpGenericServices
            | RuleId::MessageSameMessageSetWireFormat => return None,
        })
    }
}

/// The [`Handler`](super::Handler) of the rule at `RuleId::ALL[I]`, as the generated registry
/// names it: one plain function per rule, so a runner calls every rule the same way.
pub(super) fn run<const I: usize>(ctx: &Ctx, out: &mut Sink) {
    // Evaluated at compile time: a non-deprecated rule without a check fails the build.
    let check = const {
        match RuleId::ALL[I].check() {
            Some(check) => check,
            None => panic!("the registry runs a rule that has no check"),
        }
    };
    check.run(ctx, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_the_deprecated_ids_have_no_check() {
        for &id in RuleId::ALL {
            let meta = id.meta();
            assert_eq!(id.check().is_none(), meta.deprecated, "{id}");
            assert_eq!(meta.check.is_none(), meta.deprecated, "{id}");
        }
    }
}
