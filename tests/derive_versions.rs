//! Several versions of one kind, derived one module per version and merged with
//! `merge_crds`: exactly one storage version, the result a valid CRD.

use crd_runtime::MergeError;
use crd_runtime::prelude::*;

mod v1 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "example.com",
        version = "v1",
        kind = "Widget",
        namespaced,
        storage = false,
        deprecated
    )]
    pub struct WidgetSpec {
        pub size: i64,
    }
}

mod v2 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v2", kind = "Widget", namespaced)]
    pub struct WidgetSpec {
        #[crd(minimum = 1)]
        pub size: i64,
        pub colour: Option<String>,
    }
}

mod other {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v3", kind = "Widget")]
    pub struct WidgetSpec {
        pub size: i64,
    }
}

#[test]
fn versions_merge_into_one_valid_crd() {
    let merged = merge_crds(vec![v1::Widget::crd(), v2::Widget::crd()]).unwrap();
    let names: Vec<(&str, bool, Option<bool>)> = merged
        .spec
        .versions
        .iter()
        .map(|v| (v.name.as_str(), v.storage, v.deprecated))
        .collect();
    assert_eq!(names, [("v1", false, Some(true)), ("v2", true, None)]);
    let value = serde_json::to_value(&merged).unwrap();
    assert_eq!(crd_codegen::derive::check_crd_value(&value), Vec::<String>::new());
}

#[test]
fn merging_checks_storage_versions_and_sameness() {
    assert_eq!(
        merge_crds(vec![v2::Widget::crd(), v2::Widget::crd()]),
        Err(MergeError::DuplicateVersion("v2".into()))
    );
    let mut also_storage = v1::Widget::crd();
    also_storage.spec.versions[0].storage = true;
    let err = merge_crds(vec![also_storage, v2::Widget::crd()]).unwrap_err();
    assert_eq!(err, MergeError::StorageVersions(vec!["v1".into(), "v2".into()]));
    assert_eq!(
        err.to_string(),
        "spec.versions: must have exactly one version marked as storage version (found: [v1, v2])"
    );
    assert_eq!(
        merge_crds(vec![v2::Widget::crd(), other::Widget::crd()]),
        Err(MergeError::Mismatch("spec.scope"))
    );
    assert_eq!(merge_crds(vec![]), Err(MergeError::Empty));
}

/// Each version's derived type agrees with the reference engine run on its CRD.
#[test]
fn versions_agree_with_the_engine() {
    use crd_runtime::Resource;
    let mut comparison = crd_tests::differential::Comparison::default();
    for (crd, resource) in [
        (v1::Widget::crd(), Resource::of::<v1::Widget>()),
        (v2::Widget::crd(), Resource::of::<v2::Widget>()),
        (other::Widget::crd(), Resource::of::<other::Widget>()),
    ] {
        let mut crd = serde_json::to_value(crd).unwrap();
        // One version alone is loaded as the storage version.
        crd["spec"]["versions"][0]["storage"] = true.into();
        let ir = crd_codegen::load::load_str(&crd.to_string(), "crd()").irs().remove(0);
        let engine = crd_codegen::engine::Engine::new(&ir);
        comparison.run("versions", &ir, &engine, &ir.versions[0], &resource, 60);
    }
    comparison.assert_agreed();
}

/// Derived kinds know their versions at run time, from the merged CRD: the priority
/// order, the storage version and the deprecation warning generated kinds have as
/// constants; and the `None`-strategy conversion between two derived versions is the
/// generated kinds' (`conversion::none`).
#[test]
fn merged_versions_give_priority_warnings_and_conversions() {
    use crd_runtime::conversion;
    use crd_runtime::versions;
    let merged = merge_crds(vec![v1::Widget::crd(), v2::Widget::crd()]).unwrap();
    assert_eq!(versions::served_versions(&merged), ["v2", "v1"]);
    assert_eq!(
        versions::deprecation_warning(&merged, "v1").as_deref(),
        Some("example.com/v1 Widget is deprecated; use example.com/v2 Widget")
    );
    assert_eq!(versions::deprecation_warning(&merged, "v2"), None);

    let old = v1::Widget::new("w", v1::WidgetSpec { size: 3 });
    let new: Converted<v2::Widget> = conversion::none(&old).unwrap();
    assert_eq!(new.object.spec.size, 3);
    assert_eq!(new.object.spec.colour, None);
    assert!(new.dropped.is_empty());
    let mut coloured = new.object.clone();
    coloured.spec.colour = Some("red".into());
    let back: Converted<v1::Widget> = conversion::none(&coloured).unwrap();
    assert_eq!(back.dropped, ["spec.colour"]);
}
