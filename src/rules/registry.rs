//! Which check each rule runs. One exhaustive `match` over [`RuleId`]: a rule the catalog adds
//! without a check, or a check for an id the catalog renamed, does not compile.

use super::pairs::Check;
use super::{
    enums, extension, field, file, hazard, message, oneof, package, service, RuleId,
};
use crate::compare::{Ctx, Sink};

impl RuleId {
    /// The rule's check; `None` for deprecated ids, which run their replacements instead.
    pub const fn check(self) -> Option<Check> {
        use Check::*;
        use RuleId::*;
        Some(match self {
            FileNoDelete => RemovedFile(file::no_delete::check),
            FileSamePackage => Files(file::same_package::check),
            FileSameSyntax => Files(file::same_syntax::check),
            FileSameCcEnableArenas => Files(file::same_option::cc_enable_arenas),
            FileSameCcGenericServices => Files(file::same_option::cc_generic_services),
            FileSameCsharpNamespace => Files(file::same_option::csharp_namespace),
            FileSameGoPackage => Files(file::same_option::go_package),
            FileSameJavaGenericServices => Files(file::same_option::java_generic_services),
            FileSameJavaMultipleFiles => Files(file::same_option::java_multiple_files),
            FileSameJavaOuterClassname => Files(file::same_option::java_outer_classname),
            FileSameJavaPackage => Files(file::same_option::java_package),
            FileSameObjcClassPrefix => Files(file::same_option::objc_class_prefix),
            FileSameOptimizeFor => Files(file::same_option::optimize_for),
            FileSamePhpClassPrefix => Files(file::same_option::php_class_prefix),
            FileSamePhpMetadataNamespace => Files(file::same_option::php_metadata_namespace),
            FileSamePhpNamespace => Files(file::same_option::php_namespace),
            FileSamePyGenericServices => Files(file::same_option::py_generic_services),
            FileSameRubyPackage => Files(file::same_option::ruby_package),
            FileSameSwiftPrefix => Files(file::same_option::swift_prefix),

            PackageNoDelete => RemovedPackage(package::no_delete::check),
            PackageMessageNoDelete => Schemas(package::message_no_delete::check),
            PackageEnumNoDelete => Schemas(package::enum_no_delete::check),
            PackageExtensionNoDelete => Schemas(package::extension_no_delete::check),
            PackageServiceNoDelete => Schemas(package::service_no_delete::check),

            MessageNoDelete => Files(message::no_delete::check),
            MessageNoRemoveStandardDescriptorAccessor => {
                Messages(message::no_remove_standard_descriptor_accessor::check)
            }
            MessageSameJsonFormat => Messages(message::same_json_format::check),
            MessageSameRequiredFields => Messages(message::same_required_fields::check),
            ReservedMessageNoDelete => Messages(message::reserved_no_delete::check),
            ExtensionMessageNoDelete => Messages(message::extension_range_no_delete::check),
            OneofNoDelete => RemovedOneof(oneof::no_delete::check),

            FieldNoDelete => RemovedField(field::no_delete::check),
            FieldNoDeleteUnlessNameReserved => RemovedField(field::no_delete::unless_name_reserved),
            FieldNoDeleteUnlessNumberReserved => {
                RemovedField(field::no_delete::unless_number_reserved)
            }
            FieldSameCardinality => Fields(field::cardinality::check),
            FieldWireCompatibleCardinality => Fields(field::cardinality::wire_compatible),
            FieldWireJsonCompatibleCardinality => Fields(field::cardinality::wire_json_compatible),
            FieldSameType => Fields(field::types::check),
            FieldWireCompatibleType => Fields(field::types::wire_compatible),
            FieldWireJsonCompatibleType => Fields(field::types::wire_json_compatible),
            FieldSameName => Fields(field::same_name::check),
            FieldSameOneof => Fields(field::same_oneof::check),
            FieldSameJsonName => Fields(field::same_json_name::check),
            FieldSameJstype => Fields(field::same_jstype::check),
            FieldSameCppStringType => Fields(field::same_cpp_string_type::check),
            FieldSameJavaUtf8Validation => Fields(field::utf8_validation::java),
            FieldSameUtf8Validation => Fields(field::utf8_validation::check),
            FieldSameDefault => Fields(field::same_default::check),

            EnumNoDelete => Files(enums::no_delete::check),
            EnumSameType => Enums(enums::same_type::check),
            EnumSameJsonFormat => Enums(enums::same_json_format::check),
            ReservedEnumNoDelete => Enums(enums::reserved_no_delete::check),
            EnumValueNoDelete => RemovedEnumValue(enums::value_no_delete::check),
            EnumValueNoDeleteUnlessNameReserved => {
                RemovedEnumValue(enums::value_no_delete::unless_name_reserved)
            }
            EnumValueNoDeleteUnlessNumberReserved => {
                RemovedEnumValue(enums::value_no_delete::unless_number_reserved)
            }
            EnumValueSameName => EnumValues(enums::value_same_name::check),

            ExtensionNoDelete => Files(extension::no_delete::check),

            ServiceNoDelete => Files(service::no_delete::check),
            RpcNoDelete => RemovedRpc(service::rpc_no_delete::check),
            RpcSameClientStreaming => Rpcs(service::rpc_same_streaming::client),
            RpcSameServerStreaming => Rpcs(service::rpc_same_streaming::server),
            RpcSameRequestType => Rpcs(service::rpc_same_type::request),
            RpcSameResponseType => Rpcs(service::rpc_same_type::response),
            RpcSameIdempotencyLevel => Rpcs(service::rpc_same_idempotency_level::check),

            EnumZeroValueChanged => Enums(hazard::enum_values::zero_value_changed),
            EnumClosedValueAdded => Enums(hazard::enum_values::closed_value_added),
            FieldPresenceChanged => Fields(hazard::presence::changed),
            FieldImplicitZero => Schemas(hazard::presence::implicit_zero),
            FieldVarintEncodingChanged => Fields(hazard::integers::varint_encoding),
            FieldIntegerReinterpreted => Fields(hazard::integers::reinterpreted),
            FieldStringBytesChanged => Fields(hazard::string_bytes::check),
            FieldNumberTagSize => Schemas(hazard::tag_size::check),

            FieldSameCtype
            | FieldSameLabel
            | FileSameJavaStringCheckUtf8
            | FileSamePhpGenericServices
            | MessageSameMessageSetWireFormat => return None,
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
