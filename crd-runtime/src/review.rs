//! The `ConversionReview` exchange of a conversion webhook, both sides.
//!
//! [`handle`] is the webhook's side: it reads a review (`apiextensions.k8s.io/v1` or
//! `v1beta1`), converts each object independently and in order with the caller's
//! conversion, and writes the response the API server accepts. [`accept_response`]
//! is the API server's side (`webhook_converter.go`): every check it applies to a
//! webhook's response, with its messages, so that a webhook can be tested against
//! them (ours is, in `tests/`).

use crate::conversion;
use crate::objectmeta;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The review's API versions the API server sends (`conversionReviewVersions`).
pub const REVIEW_VERSIONS: [&str; 2] = ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];

/// A request body that is not a `ConversionReview` request: the webhook answers it with
/// HTTP 400, as there is no `uid` to answer with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadReview {
    /// What is wrong with the body.
    pub message: String,
}

impl std::fmt::Display for BadReview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BadReview {}

/// The request of a review, as read by [`read_request`].
#[derive(Clone, Debug, PartialEq)]
pub struct ConversionRequest {
    /// The review's own `apiVersion` (the response echoes it).
    pub review_version: String,
    /// The request's `uid`, which the response must echo.
    pub uid: String,
    /// `group/version` every object is to be converted to.
    pub desired_api_version: String,
    /// The objects to convert, in order.
    pub objects: Vec<Value>,
}

/// Reads a `ConversionReview` request body.
pub fn read_request(body: &[u8]) -> Result<ConversionRequest, BadReview> {
    let bad = |m: String| BadReview { message: m };
    let review: Value =
        serde_json::from_slice(body).map_err(|e| bad(format!("the body is not a JSON ConversionReview: {e}")))?;
    let review_version = review.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if !REVIEW_VERSIONS.contains(&review_version)
        || review.get("kind").and_then(Value::as_str) != Some("ConversionReview")
    {
        return Err(bad(format!(
            "expected a ConversionReview of {}, got apiVersion {review_version:?} kind {:?}",
            REVIEW_VERSIONS.join(" or "),
            review.get("kind").and_then(Value::as_str).unwrap_or("")
        )));
    }
    let Some(request) = review.get("request").and_then(Value::as_object) else {
        return Err(bad("the ConversionReview has no request".into()));
    };
    let string = |key: &str| request.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let uid = string("uid");
    let desired = string("desiredAPIVersion");
    if uid.is_empty() || desired.is_empty() {
        return Err(bad(
            "the ConversionReview request needs a uid and a desiredAPIVersion".into()
        ));
    }
    let objects = match request.get("objects") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.clone(),
        Some(_) => return Err(bad("request.objects is not a list".into())),
    };
    Ok(ConversionRequest {
        review_version: review_version.to_string(),
        uid,
        desired_api_version: desired,
        objects,
    })
}

/// Answers a `ConversionReview` request body: each object converted with `convert`
/// (given the object and the desired `group/version`; a generated kind's
/// `<kind>_conversion::convert_value::<Hooks>` or, for the `None` strategy,
/// `Resource::convert`), independently and in order.
///
/// The response has the request's `uid` and review version. Its objects have
/// `apiVersion` set to the desired one and the original `metadata`, except `labels`
/// and `annotations`, which are the conversion's (the only metadata a webhook may
/// change). `result.status` is `Success`, or `Failure` with a message naming the first
/// object that failed (its index, namespace/name and apiVersion) and why; then no
/// objects are returned. An object already at the desired version is returned as it is.
pub fn handle(
    body: &[u8],
    mut convert: impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> Result<Value, BadReview> {
    let request = read_request(body)?;
    let mut converted = Vec::with_capacity(request.objects.len());
    let mut failure = None;
    for (i, object) in request.objects.iter().enumerate() {
        match convert_one(object, &request.desired_api_version, &mut convert) {
            Ok(out) => converted.push(out),
            Err(e) => {
                failure = Some(format!("converting objects[{i}] ({}): {e}", describe(object)));
                break;
            }
        }
    }
    let response = match failure {
        None => json!({
            "uid": request.uid,
            "convertedObjects": converted,
            "result": {"status": "Success"},
        }),
        Some(message) => json!({
            "uid": request.uid,
            "convertedObjects": [],
            "result": {"status": "Failure", "message": message},
        }),
    };
    Ok(json!({
        "apiVersion": request.review_version,
        "kind": "ConversionReview",
        "response": response,
    }))
}

fn convert_one(
    object: &Value,
    desired: &str,
    convert: &mut impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> Result<Value, String> {
    if !object.is_object() {
        return Err("not a JSON object".into());
    }
    if object.get("apiVersion").and_then(Value::as_str) == Some(desired) {
        return Ok(object.clone());
    }
    let mut out = convert(object.clone(), desired).map_err(|e| e.message)?.object;
    let Value::Object(map) = &mut out else {
        return Err("the conversion did not return a JSON object".into());
    };
    map.insert("apiVersion".into(), Value::from(desired));
    // Only labels and annotations of the conversion's metadata count; the API server
    // restores the rest (and refuses a changed name, namespace or uid).
    let mut metadata = object.get("metadata").cloned().unwrap_or_else(|| json!({}));
    if let (Value::Object(meta), Some(Value::Object(converted))) = (&mut metadata, map.get("metadata")) {
        for field in ["labels", "annotations"] {
            match converted.get(field) {
                None | Some(Value::Null) => meta.remove(field),
                Some(v) => meta.insert(field.into(), v.clone()),
            };
        }
    }
    map.insert("metadata".into(), metadata);
    check_converted(object, &out).map(|()| out)
}

/// `namespace/name, apiVersion v` of an object, for messages.
fn describe(object: &Value) -> String {
    let s = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or("");
    let name = match s("/metadata/namespace") {
        "" => s("/metadata/name").to_string(),
        ns => format!("{ns}/{}", s("/metadata/name")),
    };
    format!("{name}, apiVersion {}", s("/apiVersion"))
}

/// What the API server checks of each converted object (`validateConvertedObject` and
/// `restoreObjectMeta`), in its words.
fn check_converted(original: &Value, converted: &Value) -> Result<(), String> {
    let s = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or("").to_string();
    for (what, pointer) in [
        ("kind", "/kind"),
        ("name", "/metadata/name"),
        ("namespace", "/metadata/namespace"),
        ("UID", "/metadata/uid"),
    ] {
        let (e, a) = (s(original, pointer), s(converted, pointer));
        if e != a {
            return Err(format!("must have the same {what}: {e} != {a}"));
        }
    }
    let meta = match converted.get("metadata") {
        None => return Err("missing metadata in converted object".into()),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in converted object",
                go_type(other)
            ));
        }
    };
    for field in ["labels", "annotations"] {
        let response = match meta.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in converted object",
                    go_type(other)
                ));
            }
        };
        let original_field = original.pointer(&format!("/metadata/{field}"));
        let mut strings = BTreeMap::new();
        for (k, v) in response {
            let Some(v) = v.as_str() else {
                return Err(format!(
                    "metadata.{field}[{k}] must be a string, but is {} in converted object",
                    go_type(v)
                ));
            };
            strings.insert(k.clone(), v.to_string());
        }
        let changed = original_field.and_then(Value::as_object) != Some(response);
        if changed {
            let errs = if field == "labels" {
                objectmeta::validate_labels(&strings, "metadata.labels")
            } else {
                objectmeta::validate_annotations(&strings, "metadata.annotation")
            };
            if !errs.is_empty() {
                return Err(aggregate(errs.iter().map(ToString::to_string).collect()));
            }
        }
    }
    Ok(())
}

/// Go's `utilerrors.Aggregate` text: one message alone, several in brackets.
fn aggregate(mut messages: Vec<String>) -> String {
    messages.dedup();
    if messages.len() == 1 {
        messages.remove(0)
    } else {
        format!("[{}]", messages.join(", "))
    }
}

/// The `%T` of a value decoded into `interface{}`.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// The API server's reading of a webhook's response to `request`
/// (`getConvertedObjectsFromResponse` and the checks of `webhookConverter.Convert`):
/// the converted objects, with their metadata restored from the request's objects
/// except labels and annotations, or the error the API server reports, in its words
/// (`conversion webhook for example.com/v1beta1, Kind=CronTab failed: ...`).
///
/// The kind in the message is the first object's (the API server names the list's
/// kind, `CronTabList`, when it converts a list; here that is the kind with `List`
/// appended when the request has several objects).
pub fn accept_response(request: &ConversionRequest, response: &Value) -> Result<Vec<Value>, String> {
    let first = request.objects.first().cloned().unwrap_or(Value::Null);
    let gvk = {
        let s = |p: &str| first.pointer(p).and_then(Value::as_str).unwrap_or("");
        let kind = match request.objects.len() {
            1 => s("/kind").to_string(),
            _ => format!("{}List", s("/kind")),
        };
        format!("{}, Kind={kind}", s("/apiVersion"))
    };
    let failed = |e: String| format!("conversion webhook for {gvk} failed: {e}");
    let objects = read_response(request, response).map_err(failed)?;
    if objects.len() != request.objects.len() {
        return Err(format!(
            "conversion webhook for {gvk} returned {} objects, expected {}",
            objects.len(),
            request.objects.len()
        ));
    }
    let single = request.objects.len() == 1;
    let mut out = Vec::with_capacity(objects.len());
    for (i, (original, converted)) in request.objects.iter().zip(objects).enumerate() {
        let at = if single {
            "returned invalid object at index 0".to_string()
        } else {
            format!("returned invalid converted object at index {i}")
        };
        let Value::Object(_) = &converted else {
            return Err(format!("conversion webhook for {gvk} {at}: not an object"));
        };
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let got = s(&converted, "apiVersion");
        if got != request.desired_api_version {
            return Err(format!(
                "conversion webhook for {gvk} {at}: invalid groupVersion (expected {}, received {got})",
                request.desired_api_version
            ));
        }
        let (e, a) = (s(original, "kind"), s(&converted, "kind"));
        if e != a {
            return Err(format!(
                "conversion webhook for {gvk} {at}: invalid kind (expected {e}, received {a})"
            ));
        }
        check_converted(original, &converted).map_err(|e| {
            if single {
                format!("conversion webhook for {gvk} returned invalid object: {e}")
            } else {
                format!("conversion webhook for {gvk} {at}: {e}")
            }
        })?;
        out.push(restore_metadata(original, converted));
    }
    Ok(out)
}

/// `getConvertedObjectsFromResponse`.
fn read_response(request: &ConversionRequest, response: &Value) -> Result<Vec<Value>, String> {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let v1 = request.review_version == REVIEW_VERSIONS[0];
    if v1 {
        let got = format!("{}, Kind={}", s(response, "apiVersion"), s(response, "kind"));
        let expected = "apiextensions.k8s.io/v1, Kind=ConversionReview";
        if got != expected {
            return Err(format!("expected webhook response of {expected}, got {got}"));
        }
    }
    let Some(body) = response.get("response").filter(|r| r.is_object()) else {
        return Err("no response provided".into());
    };
    // v1beta1 reviews were never checked for their uid; v1 reviews are.
    if v1 && s(body, "uid") != request.uid {
        return Err(format!(
            "expected response.uid={:?}, got {:?}",
            request.uid,
            s(body, "uid")
        ));
    }
    let result = body.get("result").cloned().unwrap_or(Value::Null);
    let status = s(&result, "status");
    if status != "Success" {
        let message = s(&result, "message");
        return Err(if message.is_empty() {
            format!("response.result.status was '{status}', not 'Success'")
        } else {
            message
        });
    }
    Ok(match body.get("convertedObjects") {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    })
}

/// `restoreObjectMeta` once checked: the original metadata, with the converted labels
/// and annotations.
fn restore_metadata(original: &Value, mut converted: Value) -> Value {
    let response_meta = converted.get("metadata").and_then(Value::as_object).cloned();
    let mut meta: Map<String, Value> = original
        .get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for field in ["labels", "annotations"] {
        match response_meta.as_ref().and_then(|m| m.get(field)) {
            None | Some(Value::Null) => meta.remove(field),
            Some(v) => meta.insert(field.into(), v.clone()),
        };
    }
    if let Value::Object(map) = &mut converted {
        map.insert("metadata".into(), Value::Object(meta));
    }
    converted
}
