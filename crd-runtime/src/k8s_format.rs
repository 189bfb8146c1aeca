//! The Kubernetes CEL `format` library and the apimachinery name validators it is built on.
//!
//! CEL (apiserver `pkg/cel/library/format.go`):
//!
//! ```text
//! format.named("dns1123Label")          -> optional(Format)    => named()
//! format.dns1123Label()                  -> Format              => Format::Dns1123Label
//! <Format>.validate("my-name")           -> optional(list(str)) => Format::validate()
//! ```
//!
//! `validate` gives `None` (CEL `optional.none()`) for a valid string and otherwise the list
//! of error strings, word for word as Go produces them.
//!
//! The plain validators ([`is_dns1123_label`], [`is_dns1123_subdomain`], [`is_dns1035_label`],
//! [`is_qualified_name`], [`is_valid_label_value`], ...) return the same error lists as the
//! apimachinery functions they mirror (empty when valid); CRD admission checks use them too.
//! They work on bytes, like Go, so lengths are byte lengths.

use crate::formats;

/// A named format of the CEL `format` library.
///
/// Mirrors apiserver `library.ConstantFormats` (values of type `kubernetes.NamedFormat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `format.dns1123Label()`
    Dns1123Label,
    /// `format.dns1123Subdomain()`
    Dns1123Subdomain,
    /// `format.dns1035Label()`
    Dns1035Label,
    /// `format.qualifiedName()`
    QualifiedName,
    /// `format.dns1123LabelPrefix()`
    Dns1123LabelPrefix,
    /// `format.dns1123SubdomainPrefix()`
    Dns1123SubdomainPrefix,
    /// `format.dns1035LabelPrefix()`
    Dns1035LabelPrefix,
    /// `format.labelValue()`
    LabelValue,
    /// `format.uri()`
    Uri,
    /// `format.uuid()`
    Uuid,
    /// `format.byte()`
    Byte,
    /// `format.date()`
    Date,
    /// `format.datetime()`
    Datetime,
}

/// strfmt `UUIDPattern` (its length is the cost estimate of `format.uuid()`).
const UUID_PATTERN: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
/// strfmt `DateTimePattern` (its length is the cost estimate of date and datetime).
const DATE_TIME_PATTERN: &str = "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";

impl Format {
    /// Every format, in the order of the Go documentation.
    pub const ALL: [Format; 13] = [
        Format::Dns1123Label,
        Format::Dns1123Subdomain,
        Format::Dns1035Label,
        Format::QualifiedName,
        Format::Dns1123LabelPrefix,
        Format::Dns1123SubdomainPrefix,
        Format::Dns1035LabelPrefix,
        Format::LabelValue,
        Format::Uri,
        Format::Uuid,
        Format::Byte,
        Format::Date,
        Format::Datetime,
    ];

    /// The name used with `format.named(...)` and as the function `format.<key>()`.
    pub fn key(self) -> &'static str {
        match self {
            Format::Dns1123Label => "dns1123Label",
            Format::Dns1123Subdomain => "dns1123Subdomain",
            Format::Dns1035Label => "dns1035Label",
            Format::QualifiedName => "qualifiedName",
            Format::Dns1123LabelPrefix => "dns1123LabelPrefix",
            Format::Dns1123SubdomainPrefix => "dns1123SubdomainPrefix",
            Format::Dns1035LabelPrefix => "dns1035LabelPrefix",
            Format::LabelValue => "labelValue",
            Format::Uri => "uri",
            Format::Uuid => "uuid",
            Format::Byte => "byte",
            Format::Date => "date",
            Format::Datetime => "datetime",
        }
    }

    /// The Go `Format.Name` (two formats are equal in CEL when their names are).
    pub fn name(self) -> &'static str {
        match self {
            Format::Dns1123Label => "DNS1123Label",
            Format::Dns1123Subdomain => "DNS1123Subdomain",
            Format::Dns1035Label => "DNS1035Label",
            Format::QualifiedName => "QualifiedName",
            Format::Dns1123LabelPrefix => "DNS1123LabelPrefix",
            Format::Dns1123SubdomainPrefix => "DNS1123SubdomainPrefix",
            Format::Dns1035LabelPrefix => "DNS1035LabelPrefix",
            Format::LabelValue => "LabelValue",
            Format::Uri => "URI",
            Format::Uuid => "uuid",
            Format::Byte => "byte",
            Format::Date => "date",
            Format::Datetime => "datetime",
        }
    }

    /// The Go `Format.MaxRegexSize`, used by CEL cost estimation.
    pub fn max_regex_size(self) -> usize {
        match self {
            Format::Dns1123Label | Format::Dns1035Label => 30,
            Format::Dns1123LabelPrefix | Format::Dns1035LabelPrefix => 30,
            Format::Dns1123Subdomain | Format::Dns1123SubdomainPrefix => 60,
            Format::QualifiedName => 60,
            Format::LabelValue => 40,
            Format::Uri => 1103,
            Format::Uuid => UUID_PATTERN.len(),
            Format::Byte => 84,
            Format::Date | Format::Datetime => DATE_TIME_PATTERN.len(),
        }
    }

    /// `<Format>.validate(s)`: `None` when `s` is valid, else the Go error strings.
    ///
    /// Mirrors apiserver `library.formatValidate` with each format's `ValidateFunc`.
    pub fn validate(self, s: &str) -> Option<Vec<String>> {
        let errs = match self {
            Format::Dns1123Label => name_is_dns_label(s, false),
            Format::Dns1123Subdomain => name_is_dns_subdomain(s, false),
            Format::Dns1035Label => name_is_dns1035_label(s, false),
            Format::QualifiedName => is_qualified_name(s),
            Format::Dns1123LabelPrefix => name_is_dns_label(s, true),
            Format::Dns1123SubdomainPrefix => name_is_dns_subdomain(s, true),
            Format::Dns1035LabelPrefix => name_is_dns1035_label(s, true),
            Format::LabelValue => is_valid_label_value(s),
            Format::Uri => match formats::parse_request_uri(s) {
                Ok(()) => Vec::new(),
                Err(e) => vec![e],
            },
            Format::Uuid => fail_unless(formats::is_uuid(s), "does not match the UUID format"),
            Format::Byte => fail_unless(formats::is_base64(s), "invalid base64"),
            Format::Date => fail_unless(formats::is_date(s), "invalid date"),
            Format::Datetime => fail_unless(formats::is_date_time(s), "invalid datetime"),
        };
        (!errs.is_empty()).then_some(errs)
    }
}

fn fail_unless(ok: bool, msg: &str) -> Vec<String> {
    if ok { Vec::new() } else { vec![msg.to_string()] }
}

/// `format.named(name)`: the format called `name` (see [`Format::key`]), or `None`
/// (CEL `optional.none()`).
///
/// Mirrors apiserver `format.named` over `library.ConstantFormats`.
pub fn named(name: &str) -> Option<Format> {
    Format::ALL.into_iter().find(|f| f.key() == name)
}

// ---------------------------------------------------------------------------------------
// Error texts
// ---------------------------------------------------------------------------------------

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// Maximum length of a DNS-1123 label (and a DNS-1035 label).
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Maximum length of a DNS-1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
/// Maximum length of a label value and of the name part of a qualified name.
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

/// `must be no more than <n> characters`. Mirrors apimachinery `validation.MaxLenError`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `must be no more than <n> bytes`. Mirrors apimachinery `content.MaxLenError`.
fn max_len_bytes_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`, with Go's spacing.
/// Mirrors apimachinery `validation.RegexError`.
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(e);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(re);
    out.push_str("')");
    out
}

// ---------------------------------------------------------------------------------------
// Byte-level grammars
// ---------------------------------------------------------------------------------------

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
fn matches_dns1123_label(b: &[u8]) -> bool {
    let inner = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-';
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => *f != b'-' && *l != b'-' && b.iter().all(inner),
        _ => false,
    }
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`: labels split
/// by dots, in one pass (every custom resource's name goes through it).
fn matches_dns1123_subdomain(b: &[u8]) -> bool {
    // The byte before the current one, a dot at the start: a label starts after a
    // dot and must end before one.
    let mut prev = b'.';
    for &c in b {
        let fits = match c {
            b'a'..=b'z' | b'0'..=b'9' => true,
            b'-' => prev != b'.',
            b'.' => prev != b'.' && prev != b'-',
            _ => false,
        };
        if !fits {
            return false;
        }
        prev = c;
    }
    prev != b'.' && prev != b'-'
}

/// `^[a-z]([-a-z0-9]*[a-z0-9])?$`
fn matches_dns1035_label(b: &[u8]) -> bool {
    matches_dns1123_label(b) && b[0].is_ascii_lowercase()
}

/// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`
fn matches_label_key_name(b: &[u8]) -> bool {
    let inner = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.');
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => f.is_ascii_alphanumeric() && l.is_ascii_alphanumeric() && b.iter().all(inner),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// apimachinery pkg/util/validation
// ---------------------------------------------------------------------------------------

fn dns1123_label_bytes(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(b) {
        if matches_dns1123_subdomain(b) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

fn dns1123_subdomain_bytes(b: &[u8], max_len: fn(usize) -> String) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(b) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

fn dns1035_label_bytes(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1035_label(b) {
        errs.push(regex_error(
            DNS1035_LABEL_ERR,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// Errors for a lowercase RFC 1123 label (at most 63 characters); empty when valid.
/// Mirrors apimachinery `validation.IsDNS1123Label`.
pub fn is_dns1123_label(s: &str) -> Vec<String> {
    dns1123_label_bytes(s.as_bytes())
}

/// Errors for a lowercase RFC 1123 subdomain (at most 253 characters); empty when valid.
/// Mirrors apimachinery `validation.IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(s: &str) -> Vec<String> {
    is_dns1123_subdomain_bytes(s.as_bytes())
}

/// [`is_dns1123_subdomain`] of bytes, as a Go string is: Go code may cut a string
/// inside a character, and check the pieces.
pub fn is_dns1123_subdomain_bytes(b: &[u8]) -> Vec<String> {
    dns1123_subdomain_bytes(b, max_len_error)
}

/// Errors for a DNS-1035 label (at most 63 characters); empty when valid.
/// Mirrors apimachinery `validation.IsDNS1035Label`.
pub fn is_dns1035_label(s: &str) -> Vec<String> {
    dns1035_label_bytes(s.as_bytes())
}

/// Errors for a qualified name / label key: `[prefix/]name` where the optional prefix is a
/// DNS subdomain and the name at most 63 bytes of `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
/// Mirrors apimachinery `validation.IsQualifiedName` (= `content.IsLabelKey`).
pub fn is_qualified_name(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let parts: Vec<&[u8]> = b.split(|&c| c == b'/').collect();
    let mut errs = Vec::new();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain_bytes(prefix, max_len_bytes_error)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(format!("name part {}", max_len_bytes_error(LABEL_VALUE_MAX_LENGTH)));
    }
    if !matches_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// Errors for a label value: empty, or at most 63 bytes of
/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
/// Mirrors apimachinery `validation.IsValidLabelValue` (= `content.IsLabelValue`).
pub fn is_valid_label_value(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut errs = Vec::new();
    if b.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_bytes_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !b.is_empty() && !matches_label_key_name(b) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

// ---------------------------------------------------------------------------------------
// apimachinery pkg/api/validation name functions
// ---------------------------------------------------------------------------------------

/// With `prefix` (a `generateName`), a trailing dash is allowed. Go replaces the last *two*
/// bytes by `a`, so this works on bytes.
fn mask_trailing_dash(b: &[u8], prefix: bool) -> std::borrow::Cow<'_, [u8]> {
    if prefix && b.len() > 1 && b.ends_with(b"-") {
        let mut v = b[..b.len() - 2].to_vec();
        v.push(b'a');
        v.into()
    } else {
        b.into()
    }
}

/// Errors for a name that must be a DNS-1123 label; `prefix` allows a trailing `-`.
/// Mirrors apimachinery `validation.NameIsDNSLabel`.
pub fn name_is_dns_label(s: &str, prefix: bool) -> Vec<String> {
    dns1123_label_bytes(&mask_trailing_dash(s.as_bytes(), prefix))
}

/// Errors for a name that must be a DNS-1123 subdomain; `prefix` allows a trailing `-`.
/// Mirrors apimachinery `validation.NameIsDNSSubdomain`.
pub fn name_is_dns_subdomain(s: &str, prefix: bool) -> Vec<String> {
    dns1123_subdomain_bytes(&mask_trailing_dash(s.as_bytes(), prefix), max_len_error)
}

/// Errors for a name that must be a DNS-1035 label; `prefix` allows a trailing `-`.
/// Mirrors apimachinery `validation.NameIsDNS1035Label`.
pub fn name_is_dns1035_label(s: &str, prefix: bool) -> Vec<String> {
    dns1035_label_bytes(&mask_trailing_dash(s.as_bytes(), prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const SUBDOMAIN_MSG: &str = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    const QNAME_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    fn errs(v: &[&str]) -> Option<Vec<String>> {
        Some(v.iter().map(|s| s.to_string()).collect())
    }

    /// The one-pass subdomain match is the regex's definition: dot-separated labels.
    #[test]
    fn subdomains_are_dot_separated_labels() {
        let alphabet = [b'a', b'0', b'-', b'.', b'A', b'_'];
        let (mut words, mut layer) = (vec![vec![]], vec![vec![]]);
        for _ in 0..5 {
            layer = (layer.iter())
                .flat_map(|w: &Vec<u8>| alphabet.iter().map(move |&c| [w.as_slice(), &[c]].concat()))
                .collect();
            words.extend(layer.iter().cloned());
        }
        let mut matching = 0;
        for w in &words {
            let labels = w.split(|&c| c == b'.').all(matches_dns1123_label);
            assert_eq!(matches_dns1123_subdomain(w), labels, "{:?}", String::from_utf8_lossy(w));
            matching += usize::from(labels);
        }
        assert!(matching > 200, "both answers occur: {matching}");
    }

    #[test]
    fn cel_format_library() {
        // apiserver pkg/cel/library/format_test.go
        let f = |k: &str| named(k).unwrap();
        assert_eq!(f("dns1123Label").validate("my-label-name"), None);
        assert_eq!(f("dns1123Subdomain").validate("apiextensions.k8s.io"), None);
        assert_eq!(f("qualifiedName").validate("apiextensions.k8s.io/v1beta1"), None);
        assert_eq!(f("dns1123LabelPrefix").validate("my-label-prefix-"), None);
        assert_eq!(f("dns1123SubdomainPrefix").validate("mysubdomain.prefix.-"), None);
        assert_eq!(f("dns1035LabelPrefix").validate("my-label-prefix-"), None);
        assert_eq!(f("uri").validate("http://example.com"), None);
        assert_eq!(f("uuid").validate("123e4567-e89b-12d3-a456-426614174000"), None);
        assert_eq!(f("byte").validate("aGVsbG8="), None);
        assert_eq!(f("date").validate("2021-01-01"), None);
        assert_eq!(f("datetime").validate("2021-01-01T00:00:00Z"), None);
        assert_eq!(f("dns1123Label").validate("contains a space"), errs(&[LABEL_MSG]));
        assert_eq!(
            f("dns1123Subdomain").validate("contains a space"),
            errs(&[SUBDOMAIN_MSG])
        );
        assert_eq!(f("dns1035Label").validate("contains a space"), errs(&[DNS1035_MSG]));
        assert_eq!(f("qualifiedName").validate("contains a space"), errs(&[QNAME_MSG]));
        assert_eq!(
            f("dns1123LabelPrefix").validate("contains a space-"),
            errs(&[LABEL_MSG])
        );
        assert_eq!(
            f("dns1123SubdomainPrefix").validate("contains a space-"),
            errs(&[SUBDOMAIN_MSG])
        );
        assert_eq!(
            f("dns1035LabelPrefix").validate("contains a space-"),
            errs(&[DNS1035_MSG])
        );
        assert_eq!(f("dns1123Subdomain").validate("example.com"), None);
        assert_eq!(f("dns1035Label").validate("my-label-name"), None);
        assert_eq!(f("qualifiedName").validate("my.name"), None);
        assert_eq!(f("byte").validate("aGVsbG8"), errs(&["invalid base64"]));
        assert_eq!(f("date").validate("2020-01-01"), None);
        assert_eq!(f("date").validate("2020-01-32"), errs(&["invalid date"]));
        assert_eq!(f("datetime").validate("2020-01-01T00:00:00Z"), None);
        assert_eq!(
            f("datetime").validate("2020-01-32T00:00:00Z"),
            errs(&["invalid datetime"])
        );
        assert_eq!(named("unknown"), None);
        assert_eq!(named("DNS1123Label"), None);
        assert_eq!(f("labelValue").validate("my-cool-label-Value"), None);
        assert_eq!(
            f("labelValue").validate("my-cool-label-Value!!\n\n!!!"),
            errs(&[LABEL_VALUE_MSG])
        );
        assert_eq!(f("uuid").validate("nope"), errs(&["does not match the UUID format"]));
        assert_eq!(
            f("uri").validate("example.com"),
            errs(&[r#"parse "example.com": invalid URI for request"#])
        );
        for fmt in Format::ALL {
            assert_eq!(named(fmt.key()), Some(fmt));
            assert!(fmt.key().len() <= 64);
        }
        assert_eq!(Format::Uuid.max_regex_size(), 70);
        assert_eq!(Format::Date.max_regex_size(), 71);
        assert_eq!(Format::Uri.name(), "URI");
    }

    #[test]
    fn dns1123_label() {
        let good = [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
        ];
        for v in good {
            assert!(is_dns1123_label(v).is_empty(), "{v}");
        }
        assert!(is_dns1123_label(&"a".repeat(63)).is_empty());
        let bad = [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1",
            "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        ];
        for v in bad {
            assert!(!is_dns1123_label(v).is_empty(), "{v}");
        }
        assert_eq!(
            is_dns1123_label(&"a".repeat(64)),
            vec!["must be no more than 63 characters".to_string()]
        );
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots".to_string()]);
        assert_eq!(
            is_dns1123_label(&format!("{}.b", "a".repeat(63))),
            vec![
                "must be no more than 63 characters".to_string(),
                "must not contain dots".to_string()
            ]
        );
        assert_eq!(is_dns1123_label("A"), vec![LABEL_MSG.to_string()]);
    }

    #[test]
    fn dns1123_subdomain() {
        let good = [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "abc.1",
            "a1.1",
            "a-1.1",
            "a--1--2--b.1",
            "0.a",
            "01.a",
            "012.a",
            "1a.a",
            "1-a.a",
            "0.1",
            "01.1",
            "012.1",
            "1a.1",
            "1-a.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
        ];
        for v in good {
            assert!(is_dns1123_subdomain(v).is_empty(), "{v}");
        }
        assert!(is_dns1123_subdomain(&"a".repeat(253)).is_empty());
        let bad = [
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
        ];
        for v in bad {
            assert_eq!(is_dns1123_subdomain(v), vec![SUBDOMAIN_MSG.to_string()], "{v}");
        }
        assert_eq!(
            is_dns1123_subdomain(&"a".repeat(254)),
            vec!["must be no more than 253 characters".to_string()]
        );
    }

    #[test]
    fn dns1035_label() {
        for v in ["a", "ab", "abc", "a1", "a-1", "a--1--2--b"] {
            assert!(is_dns1035_label(v).is_empty(), "{v}");
        }
        assert!(is_dns1035_label(&"a".repeat(63)).is_empty());
        let bad = [
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
        ];
        for v in bad {
            assert_eq!(is_dns1035_label(v), vec![DNS1035_MSG.to_string()], "{v}");
        }
        assert_eq!(
            is_dns1035_label(&"a".repeat(64)),
            vec!["must be no more than 63 characters".to_string()]
        );
    }

    #[test]
    fn qualified_name() {
        let good = [
            "simple".to_string(),
            "now-with-dashes".into(),
            "1-starts-with-num".into(),
            "1234".into(),
            "simple/simple".into(),
            "now-with-dashes/simple".into(),
            "now-with-dashes/now-with-dashes".into(),
            "now.with.dots/simple".into(),
            "now-with.dashes-and.dots/simple".into(),
            "1-num.2-num/3-num".into(),
            "1234/5678".into(),
            "1.2.3.4/5678".into(),
            "Uppercase_Is_OK_123".into(),
            "example.com/Uppercase_Is_OK_123".into(),
            "requests.storage-foo".into(),
            "a".repeat(63),
            format!("{}/{}", "a".repeat(253), "b".repeat(63)),
        ];
        for v in &good {
            assert!(is_qualified_name(v).is_empty(), "{v}");
        }
        let bad = [
            "nospecialchars%^=@".to_string(),
            "cantendwithadash-".into(),
            "-cantstartwithadash-".into(),
            "only/one/slash".into(),
            "Example.com/abc".into(),
            "example_com/abc".into(),
            "example.com/".into(),
            "/simple".into(),
            "a".repeat(64),
            format!("{}/abc", "a".repeat(254)),
        ];
        for v in &bad {
            assert!(!is_qualified_name(v).is_empty(), "{v}");
        }
        assert_eq!(
            is_qualified_name("a/b/c"),
            vec!["a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".to_string()]
        );
        assert_eq!(
            is_qualified_name("/a"),
            vec!["prefix part must be non-empty".to_string()]
        );
        assert_eq!(
            is_qualified_name("example.com/"),
            vec!["name part must be non-empty".to_string(), QNAME_MSG.to_string()]
        );
        assert_eq!(
            is_qualified_name(&format!("{}/a", "a".repeat(254))),
            vec!["prefix part must be no more than 253 bytes".to_string()]
        );
        assert_eq!(
            is_qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 bytes".to_string()]
        );
        assert_eq!(
            is_qualified_name("Example.com/abc"),
            vec![format!("prefix part {SUBDOMAIN_MSG}")]
        );
    }

    #[test]
    fn label_value() {
        let good = [
            "simple".to_string(),
            "now-with-dashes".into(),
            "1-starts-with-num".into(),
            "end-with-num-1".into(),
            "1234".into(),
            "a".repeat(63),
            String::new(),
        ];
        for v in &good {
            assert!(is_valid_label_value(v).is_empty(), "{v}");
        }
        let bad = [
            "nospecialchars%^=@".to_string(),
            "Tama-nui-te-rā.is.Māori.sun".into(),
            "\\backslashes\\are\\bad".into(),
            "-starts-with-dash".into(),
            "ends-with-dash-".into(),
            ".starts.with.dot".into(),
            "ends.with.dot.".into(),
        ];
        for v in &bad {
            assert_eq!(is_valid_label_value(v), vec![LABEL_VALUE_MSG.to_string()], "{v}");
        }
        assert_eq!(
            is_valid_label_value(&"a".repeat(64)),
            vec!["must be no more than 63 bytes".to_string()]
        );
    }

    #[test]
    fn prefixes() {
        // Go's maskTrailingDash drops the two last bytes and appends "a".
        assert!(name_is_dns_label("abc-", true).is_empty());
        assert!(name_is_dns_label("a-", true).is_empty());
        assert!(!name_is_dns_label("a-", false).is_empty());
        assert!(name_is_dns_label("-", true).len() == 1);
        assert!(name_is_dns_label("a.-", true).is_empty()); // "a" + "a"
        assert!(name_is_dns_subdomain("a.b-", true).is_empty());
        assert!(name_is_dns1035_label("1-", true).is_empty()); // masked to "a"
        assert!(!name_is_dns1035_label("12-", true).is_empty());
        assert!(name_is_dns_label("é-", true).len() == 1); // masking cuts inside a character
        assert_eq!(
            name_is_dns_label(&format!("{}-", "a".repeat(64)), true),
            vec!["must be no more than 63 characters".to_string()]
        );
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for v in ["", "-", "/", "//", "é", "é-", "\u{0}", "a/", "/a", "\u{10ffff}-"] {
            for f in Format::ALL {
                let _ = f.validate(v);
            }
        }
        let long = "x".repeat(100_000);
        for f in Format::ALL {
            let _ = f.validate(&long);
        }
    }
}
