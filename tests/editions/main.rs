//! Generated code in a binary crate (the binary of `crd-edition-2018` and
//! `crd-edition-2021`), by the three routes as README shows them: build.rs +
//! `include!` inside `mod generated { ... }`, `crd_types!` and
//! `#[derive(CustomResource)]`. A binary uses part of what it generates (here one kind
//! of each route, not its `crd()`, `CRD_NAME`, version constants, `new` or
//! conversion functions), and in a binary every unused item is dead code: with
//! warnings denied, this compiles only if the generated code allows for that. The
//! test below runs `main`.

#![deny(warnings)]

/// From build.rs: the hand-written CEL test CRDs (`tests/fixtures`), many kinds.
mod generated {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// From build.rs: a kind converted by a webhook (a `<kind>_conversion` module).
mod webhook {
    include!(concat!(env!("OUT_DIR"), "/webhook.rs"));
}

/// From `crd_types!`: one small CRD per schema feature.
mod features {
    crd_derive::crd_types!("../../../crd-codegen/tests/fixtures");
}

/// From `#[derive(CustomResource)]`.
mod derived {
    use crd_derive::{CrdSchema, CustomResource};
    use serde::{Deserialize, Serialize};

    /// A job on a schedule.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "editions.example.com",
        version = "v1",
        kind = "Job",
        namespaced,
        status = "JobStatus"
    )]
    pub struct JobSpec {
        #[crd(minimum = 1, default = 1)]
        pub replicas: Option<i64>,
    }

    /// What the controller saw.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct JobStatus {
        pub done: Option<bool>,
    }
}

use crd_runtime::schema::CustomResource;

/// The errors of admitting `object` as a create of `T`.
fn errors<T: CustomResource>(object: serde_json::Value) -> Vec<String> {
    T::admit_value(object, "default")
        .errors
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn main() {
    use serde_json::json;
    let tab = json!({
        "apiVersion": "example.com/v2", "kind": "CronTab", "metadata": {"name": "t"},
        "spec": {"cronSpec": "* * * * *", "replicas": 1},
    });
    assert_eq!(errors::<generated::example_com::v2::CronTab>(tab), Vec::<String>::new());
    let backend = json!({
        "apiVersion": "hub.example.com/v2", "kind": "Backend", "metadata": {"name": "b"},
        "spec": {"port": "80"},
    });
    assert_eq!(
        errors::<webhook::hub_example_com::v2::Backend>(backend),
        ["spec.port: Invalid value: \"string\": spec.port in body must be of type integer: \"string\""]
    );
    let widget = json!({
        "apiVersion": "versions.example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
    });
    assert_eq!(
        errors::<features::versions_example_com::v1::Widget>(widget),
        Vec::<String>::new()
    );
    let job = json!({
        "apiVersion": "editions.example.com/v1", "kind": "Job", "metadata": {"name": "j"},
        "spec": {"replicas": 0},
    });
    assert_eq!(
        errors::<derived::Job>(job),
        ["spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"]
    );
    println!("generated code admits as expected");
}

#[cfg(test)]
mod tests {
    #[test]
    fn main_runs() {
        super::main();
    }
}
