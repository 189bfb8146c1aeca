//! The seed's CronTab CRDs written as `#[derive(CustomResource)]` input: each derives
//! a CRD semantically equal to the seed YAML, and admits the seed's objects with the
//! API server's recorded answers.

use crd_derive::{CrdSchema, CustomResource};
use crd_runtime::schema::CustomResource as _;
use crd_tests::{assert_seed_admissions, read_documents, seed_examples_dir};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

mod plain {
    use super::*;

    // The seed's first CronTab: patterns, bounds, defaults, preserved unknown fields
    // and nullable fields. (No doc comments: they would become descriptions, which
    // the seed's CRD does not have.)
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(
        group = "stable.example.com",
        version = "v1",
        kind = "CronTab",
        namespaced,
        shortname = "ct",
        optional_spec,
        derive = "PartialEq"
    )]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabSpec {
        #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", default = "5 0 * * *")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cron_spec: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub image: Option<String>,
        #[crd(minimum = 1, maximum = 10, default = 1)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub replicas: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub json: Option<Json>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub nulls: Option<Nulls>,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[crd(preserve_unknown_fields)]
    pub struct Json {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub spec: Option<JsonSpec>,
        #[serde(flatten)]
        pub unknown: BTreeMap<String, Value>,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct JsonSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub foo: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub bar: Option<String>,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Nulls {
        #[crd(default = "default")]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub foo: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub bar: Option<Option<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub baz: Option<String>,
    }
}

mod cel {
    use super::*;

    // The seed's CEL CronTab: rules on the spec and on an enum, one with `oldSelf`.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "stable.example.com",
        version = "v1",
        kind = "CronTab",
        namespaced,
        optional_spec,
        rule(
            rule = "self.minReplicas <= self.replicas",
            message = "replicas should be greater than or equal to minReplicas."
        ),
        rule(rule = "self.replicas <= self.maxReplicas")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabSpec {
        pub min_replicas: i64,
        pub replicas: i64,
        pub max_replicas: i64,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub level: Option<Level>,
    }

    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
    #[crd(rule(
        rule = "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')",
        message = "cannot transition directly between 'low' and 'high'"
    ))]
    #[serde(rename_all = "lowercase")]
    pub enum Level {
        Low,
        Medium,
        High,
    }
}

/// The IR of a CRD, for comparing: loaded and checked like any CRD file.
fn ir_of(crd: &Value, name: &str) -> crd_codegen::ir::Crd {
    let loaded = crd_codegen::load::load_str(&serde_json::to_string(crd).unwrap(), name);
    assert!(!loaded.has_errors(), "{name}: {:?}", loaded.diagnostics);
    let mut irs = loaded.irs();
    assert_eq!(irs.len(), 1);
    let mut ir = irs.remove(0);
    normalize(&mut ir);
    ir
}

/// The deliberate normalisations: `required` sorted, and the names the API server
/// fills in (`listKind`).
fn normalize(crd: &mut crd_codegen::ir::Crd) {
    fn schema(s: &mut crd_codegen::ir::Schema) {
        s.required.sort();
        s.properties.values_mut().for_each(schema);
        if let Some(i) = &mut s.items {
            schema(i);
        }
    }
    if crd.names.list_kind.is_empty() {
        crd.names.list_kind = format!("{}List", crd.names.kind);
    }
    for v in &mut crd.versions {
        schema(&mut v.schema);
    }
}

fn seed_crd(file: &str) -> crd_codegen::ir::Crd {
    let docs = read_documents(&seed_examples_dir().join(file));
    ir_of(&docs[0], file)
}

#[test]
fn plain_crontab_derives_the_seed_crd() {
    let derived = serde_json::to_value(plain::CronTab::crd()).unwrap();
    assert_eq!(ir_of(&derived, "derived"), seed_crd("crontab-crd.yaml"));
}

#[test]
fn plain_crontab_admits_like_the_api_server() {
    use plain::CronTab;
    let checked = assert_seed_admissions("crontab-crd.yaml", |new, old| match old {
        None => CronTab::admit_value(new, "default"),
        Some(old) => CronTab::admit_update_value(new, old, "default"),
    });
    assert_eq!(checked, 2);
}

#[test]
fn cel_crontab_derives_the_seed_crd() {
    let derived = serde_json::to_value(cel::CronTab::crd()).unwrap();
    assert_eq!(ir_of(&derived, "derived"), seed_crd("cel-crd.yaml"));
}

#[test]
fn cel_crontab_admits_like_the_api_server() {
    use cel::CronTab;
    let checked = assert_seed_admissions("cel-crd.yaml", |new, old| match old {
        None => CronTab::admit_value(new, "default"),
        Some(old) => CronTab::admit_update_value(new, old, "default"),
    });
    assert_eq!(checked, 4);
}

/// Both seed kinds agree with the reference engine run on their derived CRDs.
#[test]
fn derived_seed_kinds_agree_with_the_engine() {
    use crd_codegen::engine::Engine;
    use crd_runtime::schema::Resource;
    let mut comparison = crd_tests::differential::Comparison::default();
    for (crd, resource) in [
        (
            serde_json::to_value(plain::CronTab::crd()).unwrap(),
            Resource::of::<plain::CronTab>(),
        ),
        (
            serde_json::to_value(cel::CronTab::crd()).unwrap(),
            Resource::of::<cel::CronTab>(),
        ),
    ] {
        let ir = ir_of(&crd, "derived");
        let engine = Engine::new(&ir);
        comparison.run("seed", &ir, &engine, &ir.versions[0], &resource, 100);
    }
    comparison.assert_agreed();
}

/// The typed methods agree with the JSON pipeline: an object made with `new` (no
/// namespace, as `kubectl` would send it) validates, and a bad value is reported with
/// the API server's message.
#[test]
fn typed_methods_agree_with_the_json_pipeline() {
    use crd_runtime::prelude::*;
    let spec = plain::CronTabSpec {
        cron_spec: Some("* * * * */5".into()),
        image: Some("my-awesome-cron-image".into()),
        replicas: Some(3),
        json: None,
        nulls: None,
    };
    let mut tab = plain::CronTab::new("my-new-cron-object", spec);
    assert_eq!(tab.validate(), Ok(()));
    let json = serde_json::to_value(&tab).unwrap();
    assert!(plain::CronTab::admit_value(json, "default").errors.is_empty());

    tab.spec.as_mut().unwrap().replicas = Some(15);
    let err = tab.validate().unwrap_err();
    assert_eq!(
        err.to_string(),
        "The CronTab \"my-new-cron-object\" is invalid:\n* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
    );

    let mut bare = plain::CronTab::new(
        "defaults",
        plain::CronTabSpec {
            cron_spec: None,
            image: None,
            replicas: None,
            json: None,
            nulls: None,
        },
    );
    bare.apply_defaults();
    let spec = bare.spec.unwrap();
    assert_eq!((spec.cron_spec.as_deref(), spec.replicas), (Some("5 0 * * *"), Some(1)));
}

/// README's derive example: `Option` fields without `skip_serializing_if`, as a
/// newcomer writes them.
mod readme {
    use super::*;

    /// A CronTab runs an image on a schedule.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "stable.example.com",
        version = "v1",
        kind = "CronTab",
        namespaced,
        shortname = "ct",
        status = "CronTabStatus",
        rule(rule = "self.minReplicas <= self.replicas", message = "replicas below minimum")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabSpec {
        #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", default = "5 0 * * *")]
        pub cron_spec: Option<String>,
        pub image: Option<String>,
        #[crd(minimum = 1, maximum = 10, default = 1)]
        pub replicas: Option<i64>,
        #[serde(default)]
        pub min_replicas: i64,
    }

    /// What the controller saw.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct CronTabStatus {
        pub replicas: Option<i64>,
    }
}

/// `validate()` reads the object as the API server reads a request of it: a `None`
/// that serde writes as `null` is dropped where the schema does not allow `null`, so an
/// unset optional field is not reported as "must be of type string"; a field with a
/// default is null until `apply_defaults`, as the API server defaults it before it
/// validates.
#[test]
fn validate_drops_the_nulls_of_unset_fields() {
    use crd_runtime::prelude::*;
    let spec = readme::CronTabSpec {
        cron_spec: None,
        image: None,
        replicas: Some(2),
        min_replicas: 3,
    };
    let mut tab = readme::CronTab::new("nightly", spec);
    assert_eq!(
        tab.validate().unwrap_err().to_string(),
        "The CronTab \"nightly\" is invalid:\n\
         * spec.cronSpec: Invalid value: \"null\": spec.cronSpec in body must be of type string: \"null\"\n\
         * <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
    );
    tab.apply_defaults();
    assert_eq!(
        tab.validate().unwrap_err().to_string(),
        "The CronTab \"nightly\" is invalid:\n* spec: Invalid value: replicas below minimum"
    );
    tab.spec.min_replicas = 1;
    assert_eq!(tab.validate(), Ok(()));
}

/// The seed page's other CronTab CRDs (printer columns, status and scale
/// subresources, categories), derived; the expected CRDs are transcribed from the page
/// (`../shared/spec/000_*.txt`, whose YAML lost its indentation in extraction).
mod page_variants {
    use super::*;

    fn spec_schema() -> Value {
        serde_json::json!({"type": "object", "properties": {
            "cronSpec": {"type": "string"}, "image": {"type": "string"}, "replicas": {"type": "integer"},
        }})
    }

    fn page_crd(version_extra: Value, names_extra: Value, status: Option<Value>) -> Value {
        let mut props = serde_json::json!({"spec": spec_schema()});
        if let Some(status) = status {
            props["status"] = status;
        }
        let mut version = serde_json::json!({
            "name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": props}},
        });
        version
            .as_object_mut()
            .unwrap()
            .extend(version_extra.as_object().unwrap().clone());
        let mut names =
            serde_json::json!({"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "shortNames": ["ct"]});
        names
            .as_object_mut()
            .unwrap()
            .extend(names_extra.as_object().unwrap().clone());
        serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {"group": "stable.example.com", "scope": "Namespaced", "names": names, "versions": [version]},
        })
    }

    pub mod columns {
        use super::super::*;
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(
            group = "stable.example.com",
            version = "v1",
            kind = "CronTab",
            namespaced,
            shortname = "ct",
            optional_spec,
            printcolumn(
                name = "Spec",
                type = "string",
                description = "The cron spec defining the interval a CronJob is run",
                json_path = ".spec.cronSpec"
            ),
            printcolumn(
                name = "Replicas",
                type = "integer",
                description = "The number of jobs launched by the CronJob",
                json_path = ".spec.replicas"
            ),
            printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp")
        )]
        #[serde(rename_all = "camelCase")]
        pub struct CronTabSpec {
            pub cron_spec: Option<String>,
            pub image: Option<String>,
            pub replicas: Option<i64>,
        }
    }

    pub mod subresources {
        use super::super::*;
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(
            group = "stable.example.com",
            version = "v1",
            kind = "CronTab",
            namespaced,
            shortname = "ct",
            optional_spec,
            status = "CronTabStatus",
            scale(
                spec_replicas_path = ".spec.replicas",
                status_replicas_path = ".status.replicas",
                label_selector_path = ".status.labelSelector"
            )
        )]
        #[serde(rename_all = "camelCase")]
        pub struct CronTabSpec {
            pub cron_spec: Option<String>,
            pub image: Option<String>,
            pub replicas: Option<i64>,
        }

        #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct CronTabStatus {
            pub replicas: Option<i64>,
            pub label_selector: Option<String>,
        }
    }

    pub mod categories {
        use super::super::*;
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[crd(
            group = "stable.example.com",
            version = "v1",
            kind = "CronTab",
            namespaced,
            shortname = "ct",
            category = "all",
            optional_spec
        )]
        #[serde(rename_all = "camelCase")]
        pub struct CronTabSpec {
            pub cron_spec: Option<String>,
            pub image: Option<String>,
            pub replicas: Option<i64>,
        }
    }

    #[test]
    fn page_variants_derive_the_page_crds() {
        let columns = page_crd(
            serde_json::json!({"additionalPrinterColumns": [
                {"name": "Spec", "type": "string", "description": "The cron spec defining the interval a CronJob is run", "jsonPath": ".spec.cronSpec"},
                {"name": "Replicas", "type": "integer", "description": "The number of jobs launched by the CronJob", "jsonPath": ".spec.replicas"},
                {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
            ]}),
            serde_json::json!({}),
            None,
        );
        let subresources = page_crd(
            serde_json::json!({"subresources": {"status": {}, "scale": {
                "specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas",
                "labelSelectorPath": ".status.labelSelector"}}}),
            serde_json::json!({}),
            Some(serde_json::json!({"type": "object", "properties": {
                "replicas": {"type": "integer"}, "labelSelector": {"type": "string"}}})),
        );
        let categories = page_crd(serde_json::json!({}), serde_json::json!({"categories": ["all"]}), None);
        for (name, derived, page) in [
            (
                "columns",
                serde_json::to_value(columns::CronTab::crd()).unwrap(),
                columns,
            ),
            (
                "subresources",
                serde_json::to_value(subresources::CronTab::crd()).unwrap(),
                subresources,
            ),
            (
                "categories",
                serde_json::to_value(categories::CronTab::crd()).unwrap(),
                categories,
            ),
        ] {
            assert_eq!(ir_of(&derived, name), ir_of(&page, "page"), "{name}");
        }
    }

    #[test]
    fn page_variants_agree_with_the_engine() {
        use crd_runtime::Resource;
        let mut comparison = crd_tests::differential::Comparison::default();
        for (crd, resource) in [
            (columns::CronTab::crd(), Resource::of::<columns::CronTab>()),
            (subresources::CronTab::crd(), Resource::of::<subresources::CronTab>()),
            (categories::CronTab::crd(), Resource::of::<categories::CronTab>()),
        ] {
            let ir = ir_of(&serde_json::to_value(crd).unwrap(), "derived");
            let engine = crd_codegen::engine::Engine::new(&ir);
            comparison.run("page", &ir, &engine, &ir.versions[0], &resource, 60);
        }
        comparison.assert_agreed();
    }
}
