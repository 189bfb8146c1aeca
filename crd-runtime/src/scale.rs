//! The `scale` subresource: an object's replicas as an `autoscaling/v1` `Scale`, read
//! and written back as the API server does (apiextensions-apiserver
//! `pkg/registry/customresource/etcd.go`: `scaleFromCustomResource`,
//! `scaleUpdatedObjectInfo.UpdatedObject`; apimachinery's unstructured accessors for
//! the messages).
//!
//! Reading: `specReplicasPath` must hold an integer (missing: an error on `GET`),
//! `statusReplicasPath` missing reads 0, `labelSelectorPath` missing reads `""`.
//! Writing: the new spec replicas are set at `specReplicasPath` (creating the
//! objects on the way), and the Scale's `resourceVersion`, when it has one, becomes
//! the object's (the update's precondition). The updated object then goes through the
//! main resource's update, validation included (`admit_update_value`).

use crate::admission::ScalePaths;
use crate::objectmeta;
use k8s_openapi::api::autoscaling::v1::{Scale, ScaleSpec, ScaleStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{Map, Value};
use std::fmt;

/// A request on the scale subresource that the API server refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaleError {
    /// The HTTP status: 400 (bad request), 404 (no scale subresource), 500 (the
    /// object's fields are missing or of the wrong type).
    pub code: u16,
    /// The API server's message.
    pub message: String,
}

impl fmt::Display for ScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScaleError {}

fn error(code: u16, message: String) -> ScaleError {
    ScaleError { code, message }
}

/// The spec replicas an update starts from when the object has none: the API server
/// marks them with the smallest int32 and refuses an update that leaves it.
const UNSET_REPLICAS: i32 = i32::MIN;

/// `GET .../scale`: the object's Scale. Missing spec replicas are an error (500).
pub fn get(paths: &ScalePaths<'_>, object: &Value) -> Result<Scale, ScaleError> {
    let (scale, found) = read(paths, object)?;
    if !found {
        return Err(error(
            500,
            format!(
                "Internal error occurred: the spec replicas field {:?} does not exist",
                paths.spec_replicas
            ),
        ));
    }
    Ok(scale)
}

/// The Scale an update of the subresource starts from (what a patch applies to):
/// [`get`]'s, except that missing spec replicas read as the smallest int32, which the
/// update then refuses unless it sets them.
pub fn current(paths: &ScalePaths<'_>, object: &Value) -> Result<Scale, ScaleError> {
    let (mut scale, found) = read(paths, object)?;
    if !found {
        scale.spec = Some(ScaleSpec {
            replicas: Some(UNSET_REPLICAS),
        });
    }
    Ok(scale)
}

/// `PUT .../scale` (or a patch, applied to [`current`]'s Scale): `object` with the
/// Scale's spec replicas written at `specReplicasPath`, and its `resourceVersion`
/// when the Scale has one.
pub fn update(paths: &ScalePaths<'_>, object: &Value, scale: &Scale) -> Result<Value, ScaleError> {
    // Checks the object reads as a Scale first, as the API server does.
    read(paths, object)?;
    // `ScaleSpec.replicas` is a plain int32 in Go: absent is 0.
    let replicas = scale.spec.as_ref().and_then(|s| s.replicas).unwrap_or(0);
    if replicas == UNSET_REPLICAS {
        return Err(error(
            400,
            format!("the spec replicas field {:?} cannot be empty", paths.spec_replicas),
        ));
    }
    let mut object = object.clone();
    set_nested(
        &mut object,
        &objectmeta::scale_fields(paths.spec_replicas),
        Value::from(i64::from(replicas)),
    )?;
    if let Some(rv) = scale.metadata.resource_version.as_deref().filter(|rv| !rv.is_empty())
        && let Some(map) = object.as_object_mut()
    {
        let meta = map.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            meta.insert("resourceVersion".into(), Value::from(rv));
        }
    }
    Ok(object)
}

/// `scaleFromCustomResource`: the Scale, and whether the spec replicas were found.
fn read(paths: &ScalePaths<'_>, object: &Value) -> Result<(Scale, bool), ScaleError> {
    // The accessors' errors are plain errors: HTTP 500.
    let internal = |message| error(500, message);
    let spec = objectmeta::nested_int64(object, paths.spec_replicas).map_err(internal)?;
    let status = objectmeta::nested_int64(object, paths.status_replicas).map_err(internal)?;
    let selector = match paths.label_selector.filter(|p| !p.is_empty()) {
        Some(path) => objectmeta::nested_string(object, path).map_err(internal)?,
        None => None,
    };
    let meta = object.get("metadata");
    let text = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let creation_timestamp = meta
        .and_then(|m| m.get("creationTimestamp"))
        .and_then(|t| serde_json::from_value(t.clone()).ok());
    let scale = Scale {
        metadata: ObjectMeta {
            name: text("name"),
            namespace: text("namespace"),
            uid: text("uid"),
            resource_version: text("resourceVersion"),
            creation_timestamp,
            ..ObjectMeta::default()
        },
        // Go's `int32(int64)` keeps the low 32 bits.
        spec: Some(ScaleSpec {
            replicas: Some(spec.unwrap_or(0) as i32),
        }),
        status: Some(ScaleStatus {
            replicas: status.unwrap_or(0) as i32,
            selector: Some(selector.unwrap_or_default().to_string()),
        }),
    };
    Ok((scale, spec.is_some()))
}

/// `SetNestedField`: creates the objects on the way; a parent that is not an object
/// is an error.
fn set_nested(object: &mut Value, fields: &[&str], value: Value) -> Result<(), ScaleError> {
    let Some((last, parents)) = fields.split_last() else {
        return Ok(());
    };
    let mut current = object;
    for (i, field) in parents.iter().enumerate() {
        let Value::Object(map) = current else {
            return Err(not_a_map(&fields[..i]));
        };
        let next = map.entry(*field).or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            return Err(not_a_map(&fields[..=i]));
        }
        current = next;
    }
    match current {
        Value::Object(map) => {
            map.insert(last.to_string(), value);
            Ok(())
        }
        _ => Err(not_a_map(parents)),
    }
}

fn not_a_map(fields: &[&str]) -> ScaleError {
    error(
        500,
        format!(
            "value cannot be set because .{} is not a map[string]interface{{}}",
            fields.join(".")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PATHS: ScalePaths<'static> = ScalePaths {
        spec_replicas: ".spec.replicas",
        status_replicas: ".status.replicas",
        label_selector: Some(".status.labelSelector"),
    };

    #[test]
    fn the_seed_scale_example() {
        // The seed's `kubectl scale --replicas=5 crontabs/my-new-cron-object`.
        let object = json!({
            "apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object", "namespace": "default", "resourceVersion": "7"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3},
        });
        let mut scale = get(&PATHS, &object).unwrap();
        assert_eq!(scale.spec.as_ref().unwrap().replicas, Some(3));
        // Missing status replicas read 0, a missing selector the empty string.
        assert_eq!(
            scale.status,
            Some(ScaleStatus {
                replicas: 0,
                selector: Some(String::new())
            })
        );
        assert_eq!(scale.metadata.name.as_deref(), Some("my-new-cron-object"));
        scale.spec = Some(ScaleSpec { replicas: Some(5) });
        let updated = update(&PATHS, &object, &scale).unwrap();
        assert_eq!(updated["spec"]["replicas"], 5);
        assert_eq!(updated["metadata"]["resourceVersion"], "7");
    }

    #[test]
    fn missing_and_mistyped_fields() {
        let object = json!({"metadata": {"name": "a"}, "spec": {}});
        assert_eq!(
            get(&PATHS, &object).unwrap_err(),
            ScaleError {
                code: 500,
                message: "Internal error occurred: the spec replicas field \".spec.replicas\" does not exist".into()
            }
        );
        // An update must set replicas the object lacks.
        let start = current(&PATHS, &object).unwrap();
        assert_eq!(
            update(&PATHS, &object, &start).unwrap_err().message,
            "the spec replicas field \".spec.replicas\" cannot be empty"
        );
        let mut scale = start;
        scale.spec = Some(ScaleSpec { replicas: Some(2) });
        assert_eq!(update(&PATHS, &json!({}), &scale).unwrap()["spec"]["replicas"], 2);

        let float = json!({"spec": {"replicas": 1.5}});
        assert_eq!(
            get(&PATHS, &float).unwrap_err().message,
            ".spec.replicas accessor error: 1.5 is of the type float64, expected int64"
        );
        let not_a_map = json!({"spec": "x"});
        assert_eq!(
            get(&PATHS, &not_a_map).unwrap_err().message,
            ".spec.replicas accessor error: x is of the type string, expected map[string]interface{}"
        );
        let selector = json!({"spec": {"replicas": 1}, "status": {"labelSelector": 3}});
        assert_eq!(
            get(&PATHS, &selector).unwrap_err().message,
            ".status.labelSelector accessor error: 3 is of the type int64, expected string"
        );
        // Replicas beyond int32 keep their low 32 bits, as Go's conversion does.
        let big = json!({"spec": {"replicas": 4_294_967_298_i64}});
        assert_eq!(get(&PATHS, &big).unwrap().spec.unwrap().replicas, Some(2));
    }
}
