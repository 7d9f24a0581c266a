//! The well-known types and feature definitions bundled in the binary, so imports of
//! `google/protobuf/*.proto` resolve without include roots. Texts come unmodified from the
//! protobuf 27.1 sources (BSD-3-Clause, license header kept in each file; see
//! `wkt/LICENSE-protobuf`). `go_features.proto` is a minimal stand-in written here: it only
//! declares what is needed for `(pb.go)` options to resolve as an import.

/// The bundled text of `google/protobuf/<name>.proto`, if we have it.
pub fn bundled(path: &str) -> Option<&'static str> {
    Some(match path {
        "google/protobuf/any.proto" => include_str!("wkt/google/protobuf/any.proto"),
        "google/protobuf/api.proto" => include_str!("wkt/google/protobuf/api.proto"),
        "google/protobuf/descriptor.proto" => include_str!("wkt/google/protobuf/descriptor.proto"),
        "google/protobuf/duration.proto" => include_str!("wkt/google/protobuf/duration.proto"),
        "google/protobuf/empty.proto" => include_str!("wkt/google/protobuf/empty.proto"),
        "google/protobuf/field_mask.proto" => include_str!("wkt/google/protobuf/field_mask.proto"),
        "google/protobuf/source_context.proto" => {
            include_str!("wkt/google/protobuf/source_context.proto")
        }
        "google/protobuf/struct.proto" => include_str!("wkt/google/protobuf/struct.proto"),
        "google/protobuf/timestamp.proto" => include_str!("wkt/google/protobuf/timestamp.proto"),
        "google/protobuf/type.proto" => include_str!("wkt/google/protobuf/type.proto"),
        "google/protobuf/wrappers.proto" => include_str!("wkt/google/protobuf/wrappers.proto"),
        "google/protobuf/cpp_features.proto" => {
            include_str!("wkt/google/protobuf/cpp_features.proto")
        }
        "google/protobuf/java_features.proto" => {
            include_str!("wkt/google/protobuf/java_features.proto")
        }
        "google/protobuf/go_features.proto" => {
            include_str!("wkt/google/protobuf/go_features.proto")
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bundled_file_parses() {
        for name in [
            "any",
            "api",
            "descriptor",
            "duration",
            "empty",
            "field_mask",
            "source_context",
            "struct",
            "timestamp",
            "type",
            "wrappers",
            "cpp_features",
            "java_features",
            "go_features",
        ] {
            let path = format!("google/protobuf/{name}.proto");
            let text = super::bundled(&path).expect("bundled");
            let parsed = crate::parse::parse(text);
            assert!(parsed.errors.is_empty(), "{path}: {:?}", parsed.errors);
        }
    }
}
