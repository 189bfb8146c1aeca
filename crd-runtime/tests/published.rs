//! `crd_runtime::published`: one test per rule of the API server's published OpenAPI
//! (SEMANTICS §7.1 and the CRD page's "Publish Validation Schema in OpenAPI"), on
//! small schemas. The expected schemas are written out from the rules.

use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use crd_runtime::published::{self, OpenApi, PublishError};
use serde_json::{Value, json};

const META_DOC: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// A CRD `foos.bar.k8s.io` (kind `Foo`) with one served version `v1` of `schema`
/// (none when `null`), and `extra` merged into the version.
fn crd_with(schema: Value, extra: Value) -> CustomResourceDefinition {
    let mut version = json!({"name": "v1", "served": true, "storage": true});
    if !schema.is_null() {
        version["schema"] = json!({ "openAPIV3Schema": schema });
    }
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            version[k] = v;
        }
    }
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.bar.k8s.io"},
        "spec": {
            "group": "bar.k8s.io",
            "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [version],
        },
    }))
    .unwrap()
}

fn crd(schema: Value) -> CustomResourceDefinition {
    crd_with(schema, json!({}))
}

fn v2(schema: Value) -> Value {
    published::v2(&crd(schema), "v1").unwrap().schema
}

fn v3(schema: Value) -> Value {
    published::v3(&crd(schema), "v1").unwrap().schema
}

fn gvk() -> Value {
    json!([{"group": "bar.k8s.io", "kind": "Foo", "version": "v1"}])
}

/// The properties every root gets, in v2 or v3.
fn root_properties(openapi: OpenApi) -> Value {
    let metadata = match openapi {
        OpenApi::V2 => {
            json!({"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "description": META_DOC})
        }
        OpenApi::V3 => json!({
            "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],
            "description": META_DOC,
        }),
    };
    json!({
        "apiVersion": {"type": "string", "description": API_VERSION_DOC},
        "kind": {"type": "string", "description": KIND_DOC},
        "metadata": metadata,
    })
}

/// `{"type":"object","properties":{"f": field}}` published: the expected field.
fn field_v2(field: Value) -> Value {
    v2(json!({"type": "object", "properties": {"f": field}}))["properties"]["f"].clone()
}

fn field_v3(field: Value) -> Value {
    v3(json!({"type": "object", "properties": {"f": field}}))["properties"]["f"].clone()
}

// --- The root (buildKubeNative) ---

#[test]
fn model_name_is_the_reversed_group_the_version_and_the_kind() {
    assert_eq!(published::model_name("bar.k8s.io", "v1", "Foo"), "io.k8s.bar.v1.Foo");
    assert_eq!(
        published::model_name("example.com", "v1beta2", "Thing"),
        "com.example.v1beta2.Thing"
    );
    let m = published::v3(&crd(json!({"type": "object"})), "v1").unwrap();
    assert_eq!(m.name, "io.k8s.bar.v1.Foo");
    assert_eq!(
        published::v2(&crd(json!({"type": "object"})), "v1").unwrap().name,
        "io.k8s.bar.v1.Foo"
    );
}

#[test]
fn the_root_gets_metadata_api_version_kind_and_the_group_version_kind() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object"}}});
    let mut want = json!({"type": "object", "x-kubernetes-group-version-kind": gvk()});
    want["properties"] = root_properties(OpenApi::V2);
    want["properties"]["spec"] = json!({"type": "object"});
    assert_eq!(v2(schema.clone()), want);
    want["properties"] = root_properties(OpenApi::V3);
    want["properties"]["spec"] = json!({"type": "object"});
    assert_eq!(v3(schema), want);
}

#[test]
fn a_root_without_properties_still_gets_them() {
    let mut want = json!({"type": "object", "x-kubernetes-group-version-kind": gvk()});
    want["properties"] = root_properties(OpenApi::V2);
    assert_eq!(v2(json!({"type": "object"})), want);
}

#[test]
fn the_root_metadata_api_version_and_kind_replace_the_schemas_own() {
    let schema = json!({
        "type": "object",
        "properties": {
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}}},
            "kind": {"type": "string", "enum": ["Foo"]},
            "apiVersion": {"type": "string", "description": "mine"},
        },
    });
    let mut want = json!({"type": "object", "x-kubernetes-group-version-kind": gvk()});
    want["properties"] = root_properties(OpenApi::V3);
    assert_eq!(v3(schema), want);
}

#[test]
fn v3_references_with_siblings_are_wrapped_in_all_of_v2_keeps_the_ref() {
    let schema = json!({"type": "object"});
    let m2 = v2(schema.clone());
    assert_eq!(
        m2["properties"]["metadata"]["$ref"],
        "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    let m3 = v3(schema);
    assert!(m3["properties"]["metadata"].get("$ref").is_none());
    assert_eq!(
        m3["properties"]["metadata"]["allOf"],
        json!([{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}])
    );
    assert_eq!(m3["properties"]["metadata"]["description"], META_DOC);
}

#[test]
fn a_version_without_a_schema_is_an_object() {
    let want = json!({"type": "object", "x-kubernetes-group-version-kind": gvk()});
    assert_eq!(v2(Value::Null), want);
    assert_eq!(v3(Value::Null), want);
}

#[test]
fn a_schema_the_server_cannot_use_is_an_object() {
    let want = json!({"type": "object", "x-kubernetes-group-version-kind": gvk()});
    // An unsupported field, deep down; an unknown type; a list of item schemas.
    for schema in [
        json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"$ref": "#/x"}}}}}),
        json!({"type": "object", "properties": {"spec": {"type": "bug"}}}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}),
        json!({"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-preserve-unknown-fields": false}}}),
    ] {
        assert_eq!(v2(schema.clone()), want, "{schema}");
        assert_eq!(v3(schema.clone()), want, "{schema}");
    }
}

#[test]
fn v2_root_that_keeps_unknown_fields_is_only_an_object_v3_keeps_it() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"spec": {"type": "string", "default": "x"}},
    });
    assert_eq!(
        v2(schema.clone()),
        json!({"type": "object", "x-kubernetes-group-version-kind": gvk()})
    );
    let mut want = schema.clone();
    want["x-kubernetes-group-version-kind"] = gvk();
    for (k, v) in root_properties(OpenApi::V3).as_object().unwrap() {
        want["properties"][k] = v.clone();
    }
    assert_eq!(v3(schema), want);
}

#[test]
fn v2_with_spec_preserve_unknown_fields_is_only_an_object() {
    let mut c = crd(json!({"type": "object", "properties": {"foo": {"type": "string"}}}));
    c.spec.preserve_unknown_fields = Some(true);
    assert_eq!(
        published::v2(&c, "v1").unwrap().schema,
        json!({"type": "object", "x-kubernetes-group-version-kind": gvk()})
    );
    // v3 publishes the schema.
    assert_eq!(
        published::v3(&c, "v1").unwrap().schema["properties"]["foo"],
        json!({"type": "string"})
    );
}

#[test]
fn selectable_fields_are_published_without_the_leading_dot() {
    let c = crd_with(
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"color": {"type": "string"}, "size": {"type": "string"}}}}}),
        json!({"selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}]}),
    );
    let want = json!([{"fieldPath": "spec.color"}, {"fieldPath": "spec.size"}]);
    for openapi in [OpenApi::V2, OpenApi::V3] {
        let m = published::model(&c, "v1", openapi).unwrap();
        assert_eq!(m.schema["x-kubernetes-selectable-fields"], want);
        assert_eq!(m.schema["x-kubernetes-group-version-kind"], gvk());
        let l = published::list_model(&c, "v1", openapi).unwrap();
        assert_eq!(l.schema["x-kubernetes-selectable-fields"], want);
    }
    // None without selectable fields.
    assert!(
        v3(json!({"type": "object"}))
            .get("x-kubernetes-selectable-fields")
            .is_none()
    );
}

#[test]
fn the_group_version_kind_names_the_version_asked_for() {
    let mut c = crd(json!({"type": "object"}));
    let mut v2 = c.spec.versions[0].clone();
    v2.name = "v2".into();
    v2.storage = false;
    c.spec.versions.push(v2);
    let m = published::v3(&c, "v2").unwrap();
    assert_eq!(m.name, "io.k8s.bar.v2.Foo");
    assert_eq!(
        m.schema["x-kubernetes-group-version-kind"],
        json!([{"group": "bar.k8s.io", "kind": "Foo", "version": "v2"}])
    );
}

// --- v2: ToStructuralOpenAPIV2 ---

#[test]
fn v2_drops_all_of_any_of_one_of_and_not_v3_keeps_them() {
    let field = json!({
        "type": "string",
        "allOf": [{"minLength": 1}],
        "anyOf": [{"pattern": "^a"}, {"pattern": "^b"}],
        "oneOf": [{"maxLength": 3}, {"maxLength": 5}],
        "not": {"enum": ["x"]},
    });
    assert_eq!(field_v2(field.clone()), json!({"type": "string"}));
    assert_eq!(field_v3(field.clone()), field);
}

#[test]
fn v2_nullable_drops_type_nullable_items_and_properties() {
    let object = json!({
        "type": "object",
        "nullable": true,
        "description": "kept",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
    });
    assert_eq!(
        field_v2(object.clone()),
        json!({"description": "kept", "required": ["a"]})
    );
    assert_eq!(field_v3(object.clone()), object);
    let array = json!({"type": "array", "nullable": true, "items": {"type": "string"}, "maxItems": 3});
    assert_eq!(field_v2(array), json!({"maxItems": 3}));
    let string = json!({"type": "string", "nullable": true, "pattern": "^a"});
    assert_eq!(field_v2(string), json!({"pattern": "^a"}));
}

#[test]
fn v2_nullable_keeps_additional_properties() {
    let map = json!({"type": "object", "nullable": true, "additionalProperties": {"type": "string"}});
    assert_eq!(field_v2(map), json!({"additionalProperties": {"type": "string"}}));
}

#[test]
fn v2_preserve_unknown_fields_drops_items_properties_and_object_type() {
    let object = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"a": {"type": "string"}},
    });
    assert_eq!(
        field_v2(object.clone()),
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(field_v3(object.clone()), object);
}

#[test]
fn v2_array_without_items_loses_its_type() {
    // Items dropped for preserve-unknown-fields, then the type for the missing items.
    let array = json!({
        "type": "array",
        "items": {"type": "string"},
        "x-kubernetes-preserve-unknown-fields": true,
    });
    assert_eq!(field_v2(array), json!({"x-kubernetes-preserve-unknown-fields": true}));
    // An array with items keeps its type.
    let array = json!({"type": "array", "items": {"type": "string"}});
    assert_eq!(field_v2(array.clone()), array);
}

#[test]
fn v2_preserve_unknown_fields_drops_only_the_object_type() {
    let string = json!({"type": "string", "x-kubernetes-preserve-unknown-fields": true});
    assert_eq!(field_v2(string.clone()), string);
}

#[test]
fn v2_nullable_fields_are_not_required() {
    let object = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "nullable": true},
            "b": {"type": "string"},
            "c": {"type": "integer", "nullable": true},
        },
        "required": ["a", "b", "c"],
    });
    assert_eq!(
        field_v2(object),
        json!({
            "type": "object",
            "properties": {"a": {}, "b": {"type": "string"}, "c": {}},
            "required": ["b"],
        })
    );
    // When every required field is nullable, `required` goes.
    let object = json!({
        "type": "object",
        "properties": {"a": {"type": "string", "nullable": true}},
        "required": ["a"],
    });
    assert_eq!(field_v2(object), json!({"type": "object", "properties": {"a": {}}}));
    // The root's required list too.
    let root = json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "nullable": true}, "status": {"type": "object"}},
        "required": ["spec", "status"],
    });
    assert_eq!(v2(root)["required"], json!(["status"]));
}

#[test]
fn v2_nullable_additional_properties_drop_the_required_list() {
    let map = json!({
        "type": "object",
        "additionalProperties": {"type": "string", "nullable": true},
        "required": ["x"],
    });
    assert_eq!(
        field_v2(map.clone()),
        json!({"type": "object", "additionalProperties": {}})
    );
    assert_eq!(field_v3(map.clone()), map);
}

#[test]
fn v2_converts_at_every_depth() {
    let field = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "m": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "nullable": true, "oneOf": [{"format": "date"}]},
                },
            },
        },
    });
    assert_eq!(
        field_v2(field),
        json!({
            "type": "array",
            "items": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {}}}},
        })
    );
}

#[test]
fn v2_keeps_the_kubernetes_extensions() {
    let field = json!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        "x-kubernetes-validations": [{"rule": "self.size() < 10", "message": "too many"}],
        "items": {
            "type": "object",
            "x-kubernetes-map-type": "atomic",
            "properties": {"name": {"type": "string"}, "any": {"x-kubernetes-preserve-unknown-fields": true}},
            "required": ["name"],
        },
    });
    assert_eq!(field_v2(field.clone()), field);
}

#[test]
fn v2_prunes_every_default_v3_keeps_them() {
    let field = json!({
        "type": "object",
        "default": {},
        "properties": {
            "s": {"type": "string", "default": "x"},
            "l": {"type": "array", "default": [], "items": {"type": "integer", "default": 1}},
            "m": {"type": "object", "additionalProperties": {"type": "string", "default": "y"}},
            // A field named `default` is not a default.
            "default": {"type": "string"},
        },
    });
    assert_eq!(
        field_v2(field.clone()),
        json!({
            "type": "object",
            "properties": {
                "s": {"type": "string"},
                "l": {"type": "array", "items": {"type": "integer"}},
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "default": {"type": "string"},
            },
        })
    );
    assert_eq!(field_v3(field.clone()), field);
}

// --- int-or-string (Unfold) ---

#[test]
fn int_or_string_is_unfolded_into_any_of_in_v3() {
    let plain = json!({"x-kubernetes-int-or-string": true, "description": "port"});
    assert_eq!(
        field_v3(plain),
        json!({
            "x-kubernetes-int-or-string": true,
            "description": "port",
            "anyOf": [{"type": "integer"}, {"type": "string"}],
        })
    );
}

#[test]
fn int_or_string_already_spelled_out_is_left_alone() {
    let any_of = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]});
    assert_eq!(field_v3(any_of.clone()), any_of);
    let all_of = json!({
        "x-kubernetes-int-or-string": true,
        "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"anyOf": [{"minimum": 42}]}],
    });
    assert_eq!(field_v3(all_of.clone()), all_of);
}

#[test]
fn int_or_string_with_its_own_any_of_gets_a_first_all_of() {
    let own = json!({
        "x-kubernetes-int-or-string": true,
        "anyOf": [{"minimum": 42}],
        "allOf": [{"maximum": 50}],
    });
    assert_eq!(
        field_v3(own),
        json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"minimum": 42}],
            "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"maximum": 50}],
        })
    );
}

#[test]
fn int_or_string_in_v2_is_only_the_extension() {
    for field in [
        json!({"x-kubernetes-int-or-string": true}),
        json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}),
        json!({"x-kubernetes-int-or-string": true, "anyOf": [{"minimum": 42}], "allOf": [{"minimum": 42}]}),
    ] {
        assert_eq!(field_v2(field), json!({"x-kubernetes-int-or-string": true}));
    }
}

#[test]
fn int_or_string_is_unfolded_at_every_depth_but_not_in_junctors() {
    let field = json!({
        "type": "array",
        "items": {"type": "object", "additionalProperties": {"x-kubernetes-int-or-string": true}},
    });
    assert_eq!(
        field_v3(field)["items"]["additionalProperties"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
}

// --- Embedded resources (addEmbeddedProperties) ---

fn embedded_properties(openapi: OpenApi) -> Value {
    let mut p = root_properties(openapi);
    p["apiVersion"]["description"] = json!(
        "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
    );
    p["kind"]["description"] = json!(
        "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
    );
    p
}

#[test]
fn v3_embedded_resources_get_api_version_kind_metadata_and_require_them() {
    let field = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
    });
    assert_eq!(
        field_v3(field),
        json!({
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": embedded_properties(OpenApi::V3),
            "required": ["kind", "apiVersion"],
        })
    );
}

#[test]
fn v2_embedded_resources_keeping_unknown_fields_get_nothing() {
    let field = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
    });
    assert_eq!(
        field_v2(field),
        json!({"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true})
    );
}

#[test]
fn v2_embedded_resources_with_a_schema_get_the_properties() {
    let field = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"spec": {"type": "object"}, "kind": {"type": "string"}},
        "required": ["spec", "apiVersion"],
    });
    let mut properties = embedded_properties(OpenApi::V2);
    properties["spec"] = json!({"type": "object"});
    assert_eq!(
        field_v2(field),
        json!({
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": properties,
            // `kind` appended, `apiVersion` already there.
            "required": ["spec", "apiVersion", "kind"],
        })
    );
}

#[test]
fn embedded_resources_in_lists_and_maps_get_the_properties() {
    let embedded =
        json!({"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true});
    let field = json!({"type": "array", "items": {"type": "object", "additionalProperties": embedded}});
    let got = field_v3(field);
    assert_eq!(
        got["items"]["additionalProperties"]["properties"],
        embedded_properties(OpenApi::V3)
    );
}

// --- What is kept, and how it is written ---

#[test]
fn v3_keeps_the_schema_as_written() {
    let field = json!({
        "type": "object",
        "description": "d",
        "title": "t",
        "nullable": true,
        "default": {"a": "b"},
        "example": {"a": "c"},
        "externalDocs": {"description": "docs", "url": "https://example.com"},
        "minProperties": 1,
        "maxProperties": 3,
        "x-kubernetes-map-type": "granular",
        "x-kubernetes-validations": [{"rule": "has(self.a)", "messageExpression": "'x'", "reason": "FieldValueInvalid", "fieldPath": ".a", "optionalOldSelf": false}],
        "properties": {
            "a": {"type": "string", "format": "date", "pattern": "^2", "minLength": 1, "maxLength": 10, "enum": ["2020-01-01"]},
            "n": {"type": "number", "minimum": 0.5, "maximum": 10, "exclusiveMaximum": true, "multipleOf": 0.5},
            "l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "uniqueItems": true, "x-kubernetes-list-type": "set"},
        },
        "required": ["a"],
    });
    assert_eq!(field_v3(field.clone()), field);
}

#[test]
fn empty_and_false_fields_are_dropped_and_numbers_written_as_go_does() {
    let field = json!({
        "type": "integer",
        "description": "",
        "format": "",
        "nullable": false,
        "exclusiveMinimum": false,
        "uniqueItems": false,
        "x-kubernetes-embedded-resource": false,
        "enum": [1.0, 2.5],
        "minimum": 1.0,
        "default": 3.0,
        "x-kubernetes-validations": [{"rule": "self > 0", "message": ""}],
    });
    assert_eq!(
        field_v3(field),
        json!({
            "type": "integer",
            "enum": [1, 2.5],
            "minimum": 1,
            "default": 3,
            "x-kubernetes-validations": [{"rule": "self > 0"}],
        })
    );
}

// --- The list kind (buildListSchema) ---

#[test]
fn the_list_model_refers_to_the_kind() {
    let c = crd(json!({"type": "object"}));
    let l = published::list_model(&c, "v1", OpenApi::V2).unwrap();
    assert_eq!(l.name, "io.k8s.bar.v1.FooList");
    assert_eq!(
        l.schema,
        json!({
            "description": "FooList is a list of Foo",
            "type": "object",
            "required": ["items"],
            "properties": {
                "apiVersion": {"type": "string", "description": API_VERSION_DOC},
                "kind": {"type": "string", "description": KIND_DOC},
                "metadata": {
                    "$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
                    "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
                },
                "items": {
                    "description": "List of foos. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
                    "type": "array",
                    "items": {"$ref": "#/definitions/io.k8s.bar.v1.Foo"},
                },
            },
            "x-kubernetes-group-version-kind": [{"group": "bar.k8s.io", "kind": "FooList", "version": "v1"}],
        })
    );
    let l3 = published::list_model(&c, "v1", OpenApi::V3).unwrap().schema;
    // A reference alone stays a reference; with a description it is wrapped.
    assert_eq!(
        l3["properties"]["items"]["items"],
        json!({"$ref": "#/components/schemas/io.k8s.bar.v1.Foo"})
    );
    assert_eq!(
        l3["properties"]["metadata"]["allOf"],
        json!([{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}])
    );
}

#[test]
fn definitions_and_the_document_hold_both_models() {
    let c = crd(json!({"type": "object"}));
    let defs = published::definitions(&c, "v1", OpenApi::V3).unwrap();
    let names: Vec<&String> = defs.keys().collect();
    assert_eq!(names, ["io.k8s.bar.v1.Foo", "io.k8s.bar.v1.FooList"]);
    let doc = published::document(OpenApi::V3, defs);
    assert!(doc["components"]["schemas"]["io.k8s.bar.v1.Foo"].is_object());
    let doc = published::document(OpenApi::V2, published::definitions(&c, "v1", OpenApi::V2).unwrap());
    assert!(doc["definitions"]["io.k8s.bar.v1.FooList"].is_object());
}

// --- Which versions ---

#[test]
fn unknown_and_unserved_versions_are_errors() {
    let mut c = crd(json!({"type": "object"}));
    let err = published::v3(&c, "v9").unwrap_err();
    assert_eq!(
        err,
        PublishError::NoSuchVersion {
            crd: "foos.bar.k8s.io".into(),
            version: "v9".into(),
            versions: vec!["v1".into()],
        }
    );
    assert_eq!(
        err.to_string(),
        "CustomResourceDefinition \"foos.bar.k8s.io\" has no version \"v9\" (versions: v1)"
    );
    c.spec.versions[0].served = false;
    let err = published::v2(&c, "v1").unwrap_err();
    assert!(matches!(err, PublishError::NotServed { .. }));
    assert!(err.to_string().contains("\"v1\" is not served"), "{err}");
    assert!(crd_runtime::versions::served_versions(&c).is_empty());
}
