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
    let mut review: Value =
        serde_json::from_slice(body).map_err(|e| bad(format!("the body is not a JSON ConversionReview: {e}")))?;
    let review_version = review
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !REVIEW_VERSIONS.contains(&review_version.as_str())
        || review.get("kind").and_then(Value::as_str) != Some("ConversionReview")
    {
        return Err(bad(format!(
            "expected a ConversionReview of {}, got apiVersion {review_version:?} kind {:?}",
            REVIEW_VERSIONS.join(" or "),
            review.get("kind").and_then(Value::as_str).unwrap_or("")
        )));
    }
    let Some(request) = review.get_mut("request").and_then(Value::as_object_mut) else {
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
    let objects = match request.remove("objects") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(bad("request.objects is not a list".into())),
    };
    Ok(ConversionRequest {
        review_version,
        uid,
        desired_api_version: desired,
        objects,
    })
}

/// Answers a `ConversionReview` request body: each object converted with `convert`
/// (given the object and the desired `group/version`; a generated kind's
/// `<kind>_conversion::convert_value::<Hooks>` or, for the `None` strategy,
/// `Resource::convert`), independently and in order. `convert` refuses an object of
/// another group or kind (the generated conversions do) and returns one already at
/// the desired version as it is.
///
/// The response has the request's `uid` and review version, and its objects have
/// `apiVersion` set to the desired one. `result.status` is `Success`, or `Failure` with
/// a message naming the first object that failed (its index, namespace/name and
/// apiVersion) and why; then no objects are returned.
///
/// Of a converted object's metadata the API server keeps only `labels` and
/// `annotations` (the rest it restores from its own copy), and it refuses a response
/// whose kind, name, namespace or uid changed, or whose labels or annotations are
/// invalid. The handler runs the same checks on each object, so that a conversion
/// breaking them fails the review naming the object, and otherwise returns the
/// metadata as the conversion left it: the generated conversions leave it untouched.
/// (Checking instead of restoring spares a copy of every object's metadata.)
pub fn handle(body: &[u8], convert: impl FnMut(Value, &str) -> conversion::Result<Value>) -> Result<Value, BadReview> {
    Ok(respond(read_request(body)?, convert))
}

/// [`handle`] on a request already read.
pub fn respond(request: ConversionRequest, mut convert: impl FnMut(Value, &str) -> conversion::Result<Value>) -> Value {
    answer(request, |i, object, desired| {
        convert_checked(i, object, desired, &mut convert)
    })
}

/// [`respond`] for a conversion that carries every object's `kind` and `metadata` over
/// untouched and always returns an object with `apiVersion` set: a generated
/// `<kind>_conversion::respond`, through `convert_value`. Such a conversion cannot fail
/// the API server's checks of a converted object's metadata (its labels and
/// annotations are compared with the original's, and only validated when they
/// changed), so they are not run: the handler takes each object's `metadata` out,
/// converts the rest and puts it back. The responses are those of [`respond`] for
/// every request whose objects have valid labels and annotations (which the API
/// server's objects have); objects without a `metadata` object, or already at the
/// desired version, take [`respond`]'s checked path.
#[doc(hidden)]
pub fn respond_keeping_metadata(
    request: ConversionRequest,
    mut convert: impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> Value {
    // The object's apiVersion, for a failure message (one buffer for all objects).
    let mut from = String::new();
    answer(request, |i, mut object, desired| {
        let metadata = match &mut object {
            Value::Object(map) if str_at_key(map, "apiVersion") != desired => {
                from.clear();
                from.push_str(str_at_key(map, "apiVersion"));
                match map.remove_entry("metadata") {
                    Some((key, Value::Object(meta))) => Some((key, meta)),
                    Some((key, other)) => {
                        map.insert(key, other);
                        None
                    }
                    None => None,
                }
            }
            _ => None,
        };
        let Some((key, meta)) = metadata else {
            return convert_checked(i, object, desired, &mut convert);
        };
        let error = match convert(object, desired) {
            Ok(conversion::Converted {
                object: Value::Object(mut out),
                ..
            }) => {
                if str_at_key(&out, "apiVersion") != desired {
                    out.insert("apiVersion".into(), Value::from(desired));
                }
                out.insert(key, Value::Object(meta));
                return Ok(Value::Object(out));
            }
            Ok(_) => "the conversion did not return a JSON object".to_string(),
            Err(e) => e.message,
        };
        let name = describe(str_at_key(&meta, "namespace"), str_at_key(&meta, "name"), &from);
        Err(format!("converting objects[{i}] ({name}): {error}"))
    })
}

/// The response to `request`, each object converted by `convert_object` (given its
/// index, the object and the desired version; an error is the review's failure
/// message), in order, until one fails.
fn answer(
    request: ConversionRequest,
    mut convert_object: impl FnMut(usize, Value, &str) -> Result<Value, String>,
) -> Value {
    let mut converted = Vec::with_capacity(request.objects.len());
    let mut failure = None;
    for (i, object) in request.objects.into_iter().enumerate() {
        match convert_object(i, object, &request.desired_api_version) {
            Ok(out) => converted.push(out),
            Err(message) => {
                failure = Some(message);
                break;
            }
        }
    }
    // Built by hand: `json!` would serialize the converted objects into a copy.
    let (objects, result) = match failure {
        None => (converted, json!({"status": "Success"})),
        Some(message) => (Vec::new(), json!({"status": "Failure", "message": message})),
    };
    let mut response = Map::new();
    response.insert("uid".into(), Value::String(request.uid));
    response.insert("convertedObjects".into(), Value::Array(objects));
    response.insert("result".into(), result);
    let mut review = Map::new();
    review.insert("apiVersion".into(), Value::String(request.review_version));
    review.insert("kind".into(), Value::from("ConversionReview"));
    review.insert("response".into(), Value::Object(response));
    Value::Object(review)
}

/// The `i`th object converted with `convert` and checked as the API server checks a
/// converted object; an error is the review's failure message, naming the object.
fn convert_checked(
    i: usize,
    object: Value,
    desired: &str,
    convert: &mut impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> Result<Value, String> {
    // What the converted object is checked against and the message names.
    let identity = Identity::of(&object);
    convert_one(object, &identity, desired, convert)
        .map_err(|e| format!("converting objects[{i}] ({}): {e}", identity.describe()))
}

/// The string at `key` of `map`, or `""`.
fn str_at_key<'v>(map: &'v Map<String, Value>, key: &str) -> &'v str {
    map.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `namespace/name, apiVersion v`, as failure messages name an object.
fn describe(namespace: &str, name: &str, api_version: &str) -> String {
    match namespace {
        "" => format!("{name}, apiVersion {api_version}"),
        ns => format!("{ns}/{name}, apiVersion {api_version}"),
    }
}

/// What the API server compares between an object and its conversion, and what a
/// failure message names: `apiVersion`, then [`identity`]'s four fields, kept in one
/// string (one allocation per object instead of five: this runs for every object of
/// every review).
struct Identity {
    text: String,
    /// Where each of the five fields ends in `text`.
    ends: [usize; 5],
}

/// The API server's word for each of [`identity`]'s fields.
const IDENTITY: [&str; 4] = ["kind", "name", "namespace", "UID"];

/// An object's `kind`, `metadata.name`, `metadata.namespace` and `metadata.uid`, each
/// `""` when absent.
fn identity(object: &Value) -> [&str; 4] {
    fn s(v: Option<&Value>) -> &str {
        v.and_then(Value::as_str).unwrap_or("")
    }
    let meta = object.get("metadata");
    [
        s(object.get("kind")),
        s(meta.and_then(|m| m.get("name"))),
        s(meta.and_then(|m| m.get("namespace"))),
        s(meta.and_then(|m| m.get("uid"))),
    ]
}

impl Identity {
    fn of(object: &Value) -> Identity {
        let [kind, name, namespace, uid] = identity(object);
        let fields = [str_at(object, &["apiVersion"]), kind, name, namespace, uid];
        let mut text = String::with_capacity(fields.iter().map(|f| f.len()).sum());
        let ends = fields.map(|f| {
            text.push_str(f);
            text.len()
        });
        Identity { text, ends }
    }

    fn field(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn api_version(&self) -> &str {
        self.field(0)
    }

    /// `kind`, `metadata.name`, `metadata.namespace`, `metadata.uid`.
    fn fields(&self) -> [&str; 4] {
        [self.field(1), self.field(2), self.field(3), self.field(4)]
    }

    /// `namespace/name, apiVersion v`.
    fn describe(&self) -> String {
        let [_, name, namespace, _] = self.fields();
        describe(namespace, name, self.api_version())
    }
}

fn convert_one(
    object: Value,
    identity: &Identity,
    desired: &str,
    convert: &mut impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> Result<Value, String> {
    if !object.is_object() {
        return Err("not a JSON object".into());
    }
    // An object already at the desired version goes through the conversion too, which
    // returns it as it is once it has checked its group and kind.
    let mut out = convert(object, desired).map_err(|e| e.message)?.object;
    let Value::Object(map) = &mut out else {
        return Err("the conversion did not return a JSON object".into());
    };
    // The generated conversions set it already; a hand-written one may not.
    if map.get("apiVersion").and_then(Value::as_str) != Some(desired) {
        map.insert("apiVersion".into(), Value::from(desired));
    }
    // Without the original labels and annotations, any present are checked. An object
    // already at the desired version is checked too: returned as it is, it must still
    // be one the API server accepts (it has metadata, valid labels).
    check_converted(identity.fields(), None, &out)?;
    Ok(out)
}

/// What the API server checks of each converted object (`validateConvertedObject` and
/// `restoreObjectMeta`), in its words: `expected` is the original's [`identity`], and
/// labels and annotations are checked where they differ from `original_meta`'s.
fn check_converted(
    expected: [&str; 4],
    original_meta: Option<&Map<String, Value>>,
    converted: &Value,
) -> Result<(), String> {
    for ((what, e), a) in IDENTITY.iter().zip(expected).zip(identity(converted)) {
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
        check_meta_field(field, original_meta, meta.get(field))?;
    }
    Ok(())
}

/// `restoreObjectMeta`'s checks of the converted `labels` or `annotations`: a map of
/// strings, and when it differs from the original's, valid labels or annotations.
fn check_meta_field(
    field: &str,
    original: Option<&Map<String, Value>>,
    converted: Option<&Value>,
) -> Result<(), String> {
    let response = match converted {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(format!(
                "invalid metadata.{field} of type {} in converted object",
                go_type(other)
            ));
        }
    };
    if let Some((k, v)) = response.iter().find(|(_, v)| !v.is_string()) {
        return Err(format!(
            "metadata.{field}[{k}] must be a string, but is {} in converted object",
            go_type(v)
        ));
    }
    let original_field = original.and_then(|m| m.get(field)).and_then(Value::as_object);
    if original_field != Some(response) {
        let strings = response
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default()));
        let errs = if field == "labels" {
            objectmeta::validate_labels(strings, "metadata.labels")
        } else {
            objectmeta::validate_annotations(strings, "metadata.annotation")
        };
        if !errs.is_empty() {
            return Err(aggregate(errs.iter().map(ToString::to_string).collect()));
        }
    }
    Ok(())
}

/// The string at `path` (`["metadata", "name"]`), or `""`.
fn str_at<'v>(v: &'v Value, path: &[&str]) -> &'v str {
    path.iter()
        .try_fold(v, |v, key| v.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
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
    let gvk = {
        let first = request.objects.first().unwrap_or(&Value::Null);
        let kind = str_at(first, &["kind"]);
        let kind = match request.objects.len() {
            1 => kind.to_string(),
            _ => format!("{kind}List"),
        };
        format!("{}, Kind={kind}", str_at(first, &["apiVersion"]))
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
        let expected = identity(original);
        let original_meta = original.get("metadata").and_then(Value::as_object);
        check_converted(expected, original_meta, &converted).map_err(|e| {
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
