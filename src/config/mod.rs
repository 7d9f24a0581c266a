//! `buf.yaml` (v1beta1, v1, v2) and `protocompat.toml` -> one `Config`.
