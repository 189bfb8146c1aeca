//! Field errors that print exactly like the API server's (`k8s.io/apimachinery`
//! `pkg/util/validation/field`).
//!
//! `<field path>: <type string>[: <bad value>][: <detail>]`, e.g.
//! `spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10`.

use crate::gofmt;
use serde_json::Value;
use std::fmt;

/// Why a field is invalid (Go's `field.ErrorType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    NotFound,
    Required,
    Duplicate,
    Invalid,
    NotSupported,
    Forbidden,
    TooLong,
    TooMany,
    TooFew,
    Internal,
    TypeInvalid,
    TooShort,
}

impl ErrorType {
    /// The words printed in messages (`ErrorType.String()`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TooShort => "Too short",
        }
    }

    /// The machine-readable cause type (`FieldValueRequired`, ...).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::TooShort => "FieldValueTooShort",
        }
    }

    /// Types whose value is never printed, whatever it is.
    fn omits_value(self) -> bool {
        matches!(
            self,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::TooShort | ErrorType::Internal
        )
    }
}

/// One field error.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub error_type: ErrorType,
    /// The field path as printed, e.g. `spec.items[1].name` (`<nil>` for the root).
    pub field: String,
    /// The bad value; `None` when it is omitted from the message.
    pub bad_value: Option<Value>,
    pub detail: String,
}

impl FieldError {
    pub fn new(
        error_type: ErrorType,
        field: impl Into<String>,
        bad_value: Option<Value>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            error_type,
            field: field.into(),
            bad_value,
            detail: detail.into(),
        }
    }

    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, field, None, detail)
    }

    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, field, None, detail)
    }

    pub fn invalid(field: impl Into<String>, value: Value, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Invalid, field, Some(value), detail)
    }

    pub fn type_invalid(field: impl Into<String>, value: Value, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::TypeInvalid, field, Some(value), detail)
    }

    pub fn duplicate(field: impl Into<String>, value: Value) -> Self {
        Self::new(ErrorType::Duplicate, field, Some(value), "")
    }

    pub fn internal(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, field, None, detail)
    }

    /// `field.NotSupported`: the detail lists the supported values, each `%q`-quoted.
    pub fn not_supported<S: AsRef<str>>(field: impl Into<String>, value: Value, supported: &[S]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| gofmt::quote(s.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, field, Some(value), detail)
    }

    /// `field.TooLong(path, _, max)`.
    pub fn too_long(field: impl Into<String>, max: i64) -> Self {
        let detail = match max {
            1 => "may not be more than 1 byte".to_string(),
            m if m >= 0 => format!("may not be more than {m} bytes"),
            _ => "value is too long".to_string(),
        };
        Self::new(ErrorType::TooLong, field, None, detail)
    }

    /// `field.TooMany(path, actual, max)`.
    pub fn too_many(field: impl Into<String>, actual: i64, max: i64) -> Self {
        let detail = match max {
            1 => "must have at most 1 item".to_string(),
            m if m >= 0 => format!("must have at most {m} items"),
            _ => "has too many items".to_string(),
        };
        let value = (actual >= 0).then(|| Value::from(actual));
        Self::new(ErrorType::TooMany, field, value, detail)
    }

    /// The message without the field (Go's `ErrorBody()`).
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.as_str());
        if let (false, Some(v)) = (self.error_type.omits_value(), &self.bad_value) {
            s.push_str(": ");
            s.push_str(&gofmt::bad_value(v));
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// Errors after which the API server does not run CEL rules (§1.4 of SEMANTICS.md).
    pub fn is_blocking(&self) -> bool {
        matches!(
            self.error_type,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// All errors found in one object or document.
pub type ErrorList = Vec<FieldError>;

/// The CEL rules a value fails, as `validate_cel` gives them (the signature
/// kube-derive's has): the errors in the API server's words, one per failure.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationErrors(pub ErrorList);

impl ValidationErrors {
    /// `Ok` without errors.
    pub fn result(errors: ErrorList) -> Result<(), ValidationErrors> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ValidationErrors(errors))
        }
    }
}

impl std::ops::Deref for ValidationErrors {
    type Target = [FieldError];
    fn deref(&self) -> &[FieldError] {
        &self.0
    }
}

impl IntoIterator for ValidationErrors {
    type Item = FieldError;
    type IntoIter = std::vec::IntoIter<FieldError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl std::fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// An object the API server would reject, printed the way `kubectl` shows it:
///
/// ```text
/// The CronTab "my-new-cron-object" is invalid:
/// * spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '...'
/// * spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
/// ```
///
/// `errors` are the API server's causes, in order, duplicates included (it checks
/// some things twice, such as an update's unchanged name); the printed
/// form shows each line once, as kubectl's `statusCausesToAggrError` does.
#[derive(Clone, Debug, PartialEq)]
pub struct InvalidObject {
    pub kind: String,
    pub name: String,
    pub errors: ErrorList,
}

impl fmt::Display for InvalidObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "The {} {} is invalid:", self.kind, gofmt::quote(&self.name))?;
        let mut seen = std::collections::HashSet::new();
        for line in self.errors.iter().map(FieldError::to_string) {
            if seen.insert(line.clone()) {
                write!(f, "\n* {line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for InvalidObject {}

/// A path to a value, built on the stack while walking an object, and rendered only
/// when an error is reported.
#[derive(Clone, Copy, Debug)]
pub enum Path<'a> {
    Root,
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
    Key(&'a Path<'a>, &'a str),
}

impl<'a> Path<'a> {
    #[inline]
    pub fn field(&'a self, name: &'a str) -> Path<'a> {
        Path::Field(self, name)
    }

    #[inline]
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path::Index(self, i)
    }

    #[inline]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub fn is_root(&self) -> bool {
        matches!(self, Path::Root)
    }

    /// As Go's `field.Path` prints it: `spec.items[1].labels[app]`; the root is `<nil>`.
    pub fn to_field_string(&self) -> String {
        if self.is_root() {
            return "<nil>".into();
        }
        let mut out = String::with_capacity(self.text_len());
        self.write(&mut out, true);
        out
    }

    /// As kube-openapi's validator writes paths: map keys are dotted like fields
    /// (`spec.labels.app`); the root is the empty string.
    pub fn to_openapi_string(&self) -> String {
        let mut out = String::with_capacity(self.text_len());
        self.write(&mut out, false);
        out
    }

    /// [`Path::to_openapi_string`] kept inline when short: what an OpenAPI error
    /// records, without an allocation for most paths.
    pub(crate) fn openapi_text(&self) -> ShortText {
        let mut out = ShortText::new();
        self.write(&mut out, false);
        out
    }

    /// About the printed length (indices counted as three digits), so that printing
    /// allocates once.
    fn text_len(&self) -> usize {
        match self {
            Path::Root => 0,
            Path::Field(parent, s) | Path::Key(parent, s) => parent.text_len() + s.len() + 2,
            Path::Index(parent, _) => parent.text_len() + 5,
        }
    }

    fn write(&self, out: &mut impl TextOut, keys_in_brackets: bool) {
        match self {
            Path::Root => {}
            Path::Field(parent, name) => {
                parent.write(out, keys_in_brackets);
                if !out.is_empty() {
                    out.push_ascii(b'.');
                }
                out.push_str(name);
            }
            Path::Key(parent, key) if !keys_in_brackets => {
                parent.write(out, keys_in_brackets);
                out.push_ascii(b'.');
                out.push_str(key);
            }
            Path::Key(parent, key) => {
                parent.write(out, keys_in_brackets);
                out.push_ascii(b'[');
                out.push_str(key);
                out.push_ascii(b']');
            }
            Path::Index(parent, i) => {
                parent.write(out, keys_in_brackets);
                out.push_ascii(b'[');
                push_decimal(out, *i);
                out.push_ascii(b']');
            }
        }
    }
}

/// Where [`Path::write`] writes.
trait TextOut {
    fn push_str(&mut self, s: &str);
    /// One ASCII byte (a separator or a digit).
    fn push_ascii(&mut self, b: u8);
    fn is_empty(&self) -> bool;
}

impl TextOut for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }

    fn push_ascii(&mut self, b: u8) {
        self.push(char::from(b))
    }

    fn is_empty(&self) -> bool {
        String::is_empty(self)
    }
}

/// `i` in decimal, without the formatting machinery (paths are written per error).
fn push_decimal(out: &mut impl TextOut, mut i: usize) {
    let mut digits = [b'0'; 20];
    let mut start = digits.len();
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (i % 10) as u8;
        start -= 1;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    for &d in digits.get(start..).unwrap_or_default() {
        out.push_ascii(d);
    }
}

/// A short text kept inline (up to [`ShortText::INLINE`] bytes; longer text moves to
/// the heap): an OpenAPI error's path and bad string value. An invalid object's
/// errors each keep both, and an allocation for each was a good part of what
/// collecting an error cost.
#[derive(Clone)]
pub(crate) struct ShortText(TextRepr);

#[derive(Clone)]
enum TextRepr {
    Inline { len: u8, bytes: [u8; ShortText::INLINE] },
    Heap(String),
}

impl ShortText {
    const INLINE: usize = 46;

    pub(crate) const fn new() -> Self {
        ShortText(TextRepr::Inline {
            len: 0,
            bytes: [0; ShortText::INLINE],
        })
    }

    pub(crate) fn copy_of(s: &str) -> Self {
        let mut text = ShortText::new();
        text.push_str(s);
        text
    }

    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            TextRepr::Inline { len, bytes } => bytes
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or_default(),
            TextRepr::Heap(s) => s,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            TextRepr::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or_default(),
            TextRepr::Heap(s) => s.as_bytes(),
        }
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        match &mut self.0 {
            TextRepr::Inline { len, bytes } => {
                let at = usize::from(*len);
                let end = at + s.len();
                if let (Some(slot), Ok(end_u8)) = (bytes.get_mut(at..end), u8::try_from(end)) {
                    slot.copy_from_slice(s.as_bytes());
                    *len = end_u8;
                } else {
                    let mut heap = String::with_capacity(end + 16);
                    heap.push_str(self.as_str());
                    heap.push_str(s);
                    self.0 = TextRepr::Heap(heap);
                }
            }
            TextRepr::Heap(h) => h.push_str(s),
        }
    }

    pub(crate) fn into_string(self) -> String {
        match self.0 {
            TextRepr::Heap(s) => s,
            inline => ShortText(inline).as_str().to_string(),
        }
    }
}

impl TextOut for ShortText {
    fn push_str(&mut self, s: &str) {
        ShortText::push_str(self, s)
    }

    #[inline]
    fn push_ascii(&mut self, b: u8) {
        if let TextRepr::Inline { len, bytes } = &mut self.0
            && let Some(slot) = bytes.get_mut(usize::from(*len))
        {
            *slot = b;
            *len += 1;
            return;
        }
        ShortText::push_str(self, char::from(b).encode_utf8(&mut [0; 4]))
    }

    fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }
}

impl PartialEq for ShortText {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl fmt::Debug for ShortText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_field_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_match_the_api_server() {
        let root = Path::Root;
        let spec = root.field("spec");
        let replicas = spec.field("replicas");
        let e = FieldError::invalid(
            replicas.to_field_string(),
            json!(15),
            "spec.replicas in body should be less than or equal to 10",
        );
        assert_eq!(
            e.to_string(),
            "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
        );
        let foo = spec.field("foo");
        assert_eq!(
            FieldError::required(foo.to_field_string(), "").to_string(),
            "spec.foo: Required value"
        );
        assert_eq!(
            FieldError::not_supported("spec.x", json!("c"), &["a", "b"]).to_string(),
            r#"spec.x: Unsupported value: "c": supported values: "a", "b""#
        );
        assert_eq!(
            FieldError::too_long("spec.name", 5).to_string(),
            "spec.name: Too long: may not be more than 5 bytes"
        );
        assert_eq!(
            FieldError::too_many("spec.list", 3, 2).to_string(),
            "spec.list: Too many: 3: must have at most 2 items"
        );
        assert_eq!(
            FieldError::invalid("<nil>", Value::Null, "x").to_string(),
            "<nil>: Invalid value: null: x"
        );
    }

    #[test]
    fn paths_print_both_ways() {
        let root = Path::Root;
        let spec = root.field("spec");
        let items = spec.field("items");
        let one = items.index(1);
        let labels = one.field("labels");
        let app = labels.key("app");
        assert_eq!(app.to_field_string(), "spec.items[1].labels[app]");
        assert_eq!(app.to_openapi_string(), "spec.items[1].labels.app");
        assert_eq!(root.to_field_string(), "<nil>");
        assert_eq!(root.to_openapi_string(), "");
    }

    /// The inline text of an error's path reads as the string does, below, at and
    /// past the inline length (where it moves to the heap mid-segment).
    #[test]
    fn path_text_is_the_openapi_string() {
        let root = Path::Root;
        assert_eq!(root.openapi_text().as_str(), "");
        let spec = root.field("spec");
        let first = spec.index(0);
        let big = first.index(usize::MAX);
        assert_eq!(big.openapi_text().as_str(), format!("spec[0][{}]", usize::MAX));
        // 41 bytes at `d`, 52 at `e` (past the inline length).
        let a = spec.field("aaaaaaaaaa");
        let b = a.field("bbbbbbbbbb");
        let c = b.index(12);
        let d = c.key("dddddddddd");
        let e = d.field("eeeeeeeeee");
        for path in [spec, a, b, c, d, e] {
            let text = path.openapi_text();
            assert_eq!(text.as_str(), path.to_openapi_string());
            assert_eq!(text.clone(), text);
            assert_eq!(text.into_string(), path.to_openapi_string());
        }
        assert_eq!(e.openapi_text().as_str().len(), 52);
        let mut required = spec.openapi_text();
        required.push_str(".");
        required.push_str(&"x".repeat(60));
        assert_eq!(required.as_str(), format!("spec.{}", "x".repeat(60)));
    }

    #[test]
    fn request_level_form() {
        let e = InvalidObject {
            kind: "CronTab".into(),
            name: "my-new-cron-object".into(),
            errors: vec![FieldError::required("spec.foo", "")],
        };
        assert_eq!(
            e.to_string(),
            "The CronTab \"my-new-cron-object\" is invalid:\n* spec.foo: Required value"
        );
        // The same cause twice (the registry's `BeforeUpdate` and the custom resource
        // validator both check that the name is unchanged) prints once.
        let twice = FieldError::invalid("metadata.name", json!("b"), "field is immutable");
        let e = InvalidObject {
            errors: vec![twice.clone(), FieldError::required("spec.foo", ""), twice],
            ..e
        };
        assert_eq!(
            e.to_string(),
            "The CronTab \"my-new-cron-object\" is invalid:\n\
             * metadata.name: Invalid value: \"b\": field is immutable\n\
             * spec.foo: Required value"
        );
    }
}
