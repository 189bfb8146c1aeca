//! `merge_crds!` checks at compile time that exactly one version is the storage version.

mod v1 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v1", kind = "Widget")]
    pub struct WidgetSpec {
        pub size: i64,
    }
}

mod v2 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v2", kind = "Widget")]
    pub struct WidgetSpec {
        pub size: i64,
    }
}

mod v3 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v3", kind = "Widget", storage = false)]
    pub struct WidgetSpec {
        pub size: i64,
    }
}

fn main() {
    // Both v1 and v2 are storage versions (neither says `storage = false`).
    let _ = crd_runtime::merge_crds!(v1::Widget, v2::Widget, v3::Widget);
    // None is.
    let _ = crd_runtime::merge_crds!(v3::Widget);
}
