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
    // The macro checks the storage version when it compiles (tests/ui/derive/storage_versions.rs).
    assert_eq!(crd_runtime::merge_crds!(v1::Widget, v2::Widget), Ok(merged.clone()));
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

/// Hub and spoke between derived versions: v2 (the storage version) and v1 each
/// `convert_from` the other; fields of the same name convert by themselves, a renamed
/// field is mapped with `field`, a changed one with a hook (`with`), nested structs and
/// enums with their own `convert_from`.
mod gadget_v1 {
    use crd_derive::{CrdSchema, CustomResource};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(
        group = "convert.example.com",
        version = "v1",
        kind = "Gadget",
        namespaced,
        storage = false,
        status = "GadgetStatus",
        derive = "PartialEq",
        convert_from = "super::gadget_v2::GadgetSpec"
    )]
    #[serde(rename_all = "camelCase")]
    pub struct GadgetSpec {
        pub size: i64,
        /// v2 splits it into a colour and a shade.
        #[crd(convert(with = "super::colour_name_from_v2"))]
        pub colour_name: Option<String>,
        pub parts: Vec<Part>,
        pub shape: Shape,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v2::Part")]
    pub struct Part {
        pub name: String,
        #[crd(convert(field = "count"))]
        pub amount: i64,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v2::Shape")]
    pub enum Shape {
        Round,
        Square,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v2::GadgetStatus")]
    pub struct GadgetStatus {
        pub ready: bool,
    }
}

mod gadget_v2 {
    use crd_derive::{CrdSchema, CustomResource};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(
        group = "convert.example.com",
        version = "v2",
        kind = "Gadget",
        namespaced,
        status = "GadgetStatus",
        derive = "PartialEq",
        convert_from = "super::gadget_v1::GadgetSpec"
    )]
    pub struct GadgetSpec {
        pub size: i64,
        #[crd(convert(with = "super::colour_from_v1"))]
        pub colour: Option<String>,
        #[crd(convert(with = "super::shade_from_v1"))]
        pub shade: Option<String>,
        pub parts: Vec<Part>,
        pub shape: Shape,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v1::Part")]
    pub struct Part {
        pub name: String,
        #[crd(convert(field = "amount"))]
        pub count: i64,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v1::Shape")]
    pub enum Shape {
        Round,
        Square,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(convert_from = "super::gadget_v1::GadgetStatus")]
    pub struct GadgetStatus {
        pub ready: bool,
    }
}

// The hooks: v1's `colourName` is v2's `colour` and `shade` joined by a dash.
fn colour_name_from_v2(from: &gadget_v2::GadgetSpec) -> Option<String> {
    match (&from.colour, &from.shade) {
        (Some(c), Some(s)) => Some(format!("{c}-{s}")),
        (c, _) => c.clone(),
    }
}
fn colour_from_v1(from: &gadget_v1::GadgetSpec) -> Option<String> {
    let name = from.colour_name.as_deref()?;
    Some(name.split_once('-').map_or(name, |(c, _)| c).to_string())
}
fn shade_from_v1(from: &gadget_v1::GadgetSpec) -> Option<String> {
    Some(from.colour_name.as_deref()?.split_once('-')?.1.to_string())
}

#[test]
fn derived_versions_convert_through_the_hub() {
    let mut spoke = gadget_v1::Gadget::new(
        "g",
        gadget_v1::GadgetSpec {
            size: 2,
            colour_name: Some("red-dark".into()),
            parts: vec![gadget_v1::Part {
                name: "wheel".into(),
                amount: 4,
            }],
            shape: gadget_v1::Shape::Square,
        },
    );
    spoke.status = Some(gadget_v1::GadgetStatus { ready: true });
    let hub: Converted<gadget_v2::Gadget> = spoke.convert().unwrap();
    assert_eq!(hub.object.spec.colour.as_deref(), Some("red"));
    assert_eq!(hub.object.spec.shade.as_deref(), Some("dark"));
    assert_eq!(hub.object.spec.parts[0].count, 4);
    assert_eq!(hub.object.spec.shape, gadget_v2::Shape::Square);
    assert_eq!(hub.object.status, Some(gadget_v2::GadgetStatus { ready: true }));
    assert_eq!(hub.object.metadata, spoke.metadata);
    // What v1 has and v2's schema has no place for (the hooks and renames read it).
    assert_eq!(hub.dropped, ["spec.colourName", "spec.parts[0].amount"]);

    let back: Converted<gadget_v1::Gadget> = hub.object.convert().unwrap();
    assert_eq!(back.object, spoke);
    assert_eq!(back.dropped, ["spec.colour", "spec.parts[0].count", "spec.shade"]);

    // The merged CRD of the two versions is valid, v2 the storage version.
    let merged = merge_crds(vec![gadget_v1::Gadget::crd(), gadget_v2::Gadget::crd()]).unwrap();
    let value = serde_json::to_value(&merged).unwrap();
    assert_eq!(crd_codegen::derive::check_crd_value(&value), Vec::<String>::new());
}
