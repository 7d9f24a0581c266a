//! Behaviour tests for the service and RPC rules where buf's semantics are subtle. Expectations
//! were checked against buf 1.75.0.

use crate::rules::RuleId;
use crate::test_support::{proto3, run_rule};

#[test]
fn removed_idempotency_level_points_at_the_file() {
    let old = proto3(
        "message M {}\nservice S {\n  rpc A(M) returns (M) {\n    option idempotency_level = NO_SIDE_EFFECTS;\n  }\n}\n",
    );
    let new = proto3("message M {}\nservice S {\n  rpc A(M) returns (M);\n}\n");
    let found = run_rule(
        RuleId::RpcSameIdempotencyLevel,
        &[("a.proto", &old)],
        &[("a.proto", &new)],
    );
    assert_eq!(found[0].1, "1:1-1:1");
    assert_eq!(
        found[0].2,
        "RPC \"A\" on service \"S\" changed option \"idempotency_level\" from \
         \"NO_SIDE_EFFECTS\" to \"IDEMPOTENCY_UNKNOWN\"."
    );
}
