//! The test helper for derive users: a crate locks the CRD it released
//! (`fixtures/compat/gizmo-v1.yaml`, checked in) in a unit test, and `cargo test`
//! fails on a breaking change to the struct, with the lines `crdgen diff` prints.

use crd_codegen::compat::{Incompatible, assert_compatible, check};

/// The CRD as released.
const RELEASED: &str = "fixtures/compat/gizmo-v1.yaml";

/// The struct as it was released.
mod released {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v1", kind = "Gizmo", namespaced)]
    #[serde(rename_all = "camelCase")]
    pub struct GizmoSpec {
        #[crd(minimum = 1, maximum = 10)]
        pub replicas: Option<i64>,
        pub image: Option<String>,
        #[crd(enum = ["Fast", "Slow"])]
        pub mode: Option<String>,
    }
}

/// A new optional field: compatible.
mod extended {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v1", kind = "Gizmo", namespaced)]
    #[serde(rename_all = "camelCase")]
    pub struct GizmoSpec {
        #[crd(minimum = 1, maximum = 10)]
        pub replicas: Option<i64>,
        pub image: Option<String>,
        #[crd(enum = ["Fast", "Slow"])]
        pub mode: Option<String>,
        pub pull_policy: Option<String>,
    }
}

/// Breaking: a serde rename drops `image`, the bound is tighter, an enum value is
/// gone, and a field became required.
mod broken {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v1", kind = "Gizmo", namespaced)]
    #[serde(rename_all = "camelCase")]
    pub struct GizmoSpec {
        #[crd(minimum = 1, maximum = 5)]
        pub replicas: Option<i64>,
        #[serde(rename = "containerImage")]
        pub image: Option<String>,
        #[crd(enum = ["Fast"])]
        pub mode: String,
    }
}

#[test]
fn the_released_struct_and_a_new_optional_field_are_compatible() {
    assert_compatible(RELEASED, &released::Gizmo::crd());
    assert_compatible(RELEASED, &extended::Gizmo::crd());
}

#[test]
fn a_breaking_change_fails_with_crdgen_diffs_lines() {
    let released = std::fs::read_to_string(RELEASED).unwrap();
    let Err(Incompatible::Changes(findings)) = check(&released, &broken::Gizmo::crd()) else {
        panic!("incompatible");
    };
    let lines: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    assert_eq!(
        lines,
        [
            "v1 ^.spec: required: newly required: mode (ratcheted)",
            "v1 ^.spec.image: existingFieldRemoval: removed",
            "v1 ^.spec.mode: enum: removed: \"Slow\" (ratcheted)",
            "v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)",
        ]
    );
    // The helper's failure shows the same lines.
    let failure = std::panic::catch_unwind(|| assert_compatible(RELEASED, &broken::Gizmo::crd())).unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        &format!("the CRD is not compatible with {RELEASED}:\n{}", lines.join("\n"))
    );
}
