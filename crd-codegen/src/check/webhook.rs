//! The conversion webhook's client config (`k8s.io/apiserver/pkg/util/webhook/validation.go`:
//! `ValidateWebhookURL`, `ValidateWebhookService`).
//!
//! `ValidateWebhookURL` reads the URL with Go's `net/url.Parse`. Only what that
//! function observes is reproduced here: the scheme, the host, whether user
//! information is present, the fragment and the raw query, and `url.Parse`'s common
//! errors (control characters, a missing scheme before `:`, a colon in the first
//! path segment, an invalid port, an unclosed `[` host, invalid `%` escapes in
//! the host). Approximations: the user information is printed as written (Go
//! re-escapes it), and the host's percent-encoding rules are not checked in detail.

use crate::fieldpath::FieldPath;
use crd_runtime::FieldError;
use crd_runtime::gofmt;
use serde_json::Value;

const FORM: &str = "; desired format: https://host[/path]";

struct ParsedUrl {
    scheme: String,
    host: String,
    user: Option<String>,
    fragment: String,
    raw_query: String,
}

/// Go's `url.Parse`, reduced to what the webhook checks read; the error is Go's
/// `url.Error` text.
fn parse_url(raw: &str) -> Result<ParsedUrl, String> {
    let (u, frag) = match raw.split_once('#') {
        Some((u, f)) => (u, Some(f)),
        None => (raw, None),
    };
    let wrap = |e: &str| format!("parse {}: {e}", gofmt::quote(u));
    if u.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err(wrap("net/url: invalid control character in URL"));
    }
    let mut url = ParsedUrl {
        scheme: String::new(),
        host: String::new(),
        user: None,
        fragment: String::new(),
        raw_query: String::new(),
    };
    if u == "*" {
        return Ok(url);
    }
    // getScheme
    let mut rest = u;
    for (i, c) in u.char_indices() {
        if c.is_ascii_alphabetic() {
            continue;
        }
        if c.is_ascii_digit() || c == '+' || c == '-' || c == '.' {
            if i == 0 {
                break;
            }
            continue;
        }
        if c == ':' {
            if i == 0 {
                return Err(wrap("missing protocol scheme"));
            }
            url.scheme = u[..i].to_ascii_lowercase();
            rest = &u[i + 1..];
        }
        break;
    }
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // Opaque URL: no host.
            return finish(url, frag, raw);
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err(wrap("first path segment in URL cannot contain colon"));
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let after = &rest[2..];
        let authority = after.split('/').next().unwrap_or("");
        let host = match authority.rfind('@') {
            Some(i) => {
                url.user = Some(authority[..i].to_string());
                &authority[i + 1..]
            }
            None => authority,
        };
        url.host = parse_host(host).map_err(|e| wrap(&e))?;
    }
    finish(url, frag, raw)
}

fn finish(mut url: ParsedUrl, frag: Option<&str>, raw: &str) -> Result<ParsedUrl, String> {
    if let Some(f) = frag {
        url.fragment = percent_decode(f).map_err(|e| format!("parse {}: {e}", gofmt::quote(raw)))?;
    }
    Ok(url)
}

/// Go's `parseHost`, reduced: brackets and the port.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", gofmt::quote(colon_port)));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", gofmt::quote(colon_port)));
        }
    }
    if host.contains('%') {
        return percent_decode(host);
    }
    Ok(host.to_string())
}

/// Go's `validOptionalPort`: empty, or `:` followed by digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || (port.starts_with(':') && port[1..].bytes().all(|b| b.is_ascii_digit()))
}

/// Percent-decoding with Go's `invalid URL escape "%zz"` error.
fn percent_decode(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b.get(i + 1..i + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
            let Some(hex) = hex else {
                let end = (i + 3).min(b.len());
                return Err(format!(
                    "invalid URL escape {}",
                    gofmt::quote(&String::from_utf8_lossy(&b[i..end]))
                ));
            };
            let v = u8::from_str_radix(std::str::from_utf8(hex).unwrap_or("00"), 16).unwrap_or(0);
            out.push(v);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go's `ValidateWebhookURL(path, url, forceHttps=true)`.
pub(crate) fn validate_webhook_url(path: &FieldPath, url: &str) -> Vec<FieldError> {
    let p = path.to_string();
    let mut errs = Vec::new();
    match parse_url(url) {
        Err(e) => errs.push(FieldError::required(p, format!("url must be a valid URL: {e}{FORM}"))),
        Ok(u) => {
            if u.scheme != "https" {
                errs.push(FieldError::invalid(
                    p.clone(),
                    Value::from(u.scheme.as_str()),
                    format!("'https' is the only allowed URL scheme{FORM}"),
                ));
            }
            if u.host.is_empty() {
                errs.push(FieldError::invalid(
                    p.clone(),
                    Value::from(u.host.as_str()),
                    format!("host must be specified{FORM}"),
                ));
            }
            if let Some(user) = &u.user {
                errs.push(FieldError::invalid(
                    p.clone(),
                    Value::from(user.as_str()),
                    "user information is not permitted in the URL",
                ));
            }
            if !u.fragment.is_empty() {
                errs.push(FieldError::invalid(
                    p.clone(),
                    Value::from(u.fragment.as_str()),
                    "fragments are not permitted in the URL",
                ));
            }
            if !u.raw_query.is_empty() {
                errs.push(FieldError::invalid(
                    p,
                    Value::from(u.raw_query.as_str()),
                    "query parameters are not permitted in the URL",
                ));
            }
        }
    }
    errs
}

/// Go's `ValidateWebhookService(fldPath, namespace, name, path, port)`, its
/// parameters in its order (the CRD check passes them swapped, as the API server
/// does). The port defaults to 443 (v1 defaulting).
pub(crate) fn validate_webhook_service(
    path: &FieldPath,
    namespace: &str,
    name: &str,
    url_path: Option<&str>,
    port: Option<i32>,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push(FieldError::required(path.child("name").to_string(), ""));
    }
    if namespace.is_empty() {
        errs.push(FieldError::required(path.child("namespace").to_string(), ""));
    }
    let port = port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        errs.push(FieldError::invalid(
            path.child("port").to_string(),
            Value::from(port),
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(url_path) = url_path else {
        return errs;
    };
    if url_path == "/" || url_path.is_empty() {
        return errs;
    }
    let p = path.child("path").to_string();
    let bad = |detail: String| FieldError::invalid(p.clone(), Value::from(url_path), detail);
    if url_path == "//" {
        errs.push(bad("segment[0] may not be empty".into()));
        return errs;
    }
    if !url_path.starts_with('/') {
        errs.push(bad("must start with a '/'".into()));
    }
    // In bytes, as Go slices strings: the first byte is cut off whatever it is, even
    // part of a character.
    let mut to_check = &url_path.as_bytes()[1..];
    if let Some(stripped) = to_check.strip_suffix(b"/") {
        to_check = stripped;
    }
    for (i, step) in to_check.split(|&b| b == b'/').enumerate() {
        if step.is_empty() {
            errs.push(bad(format!("segment[{i}] may not be empty")));
            continue;
        }
        for failure in crd_runtime::k8s_format::is_dns1123_subdomain_bytes(step) {
            errs.push(bad(format!("segment[{i}]: {failure}")));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_checks() {
        let p = FieldPath::new("url");
        let msgs = |u: &str| -> Vec<String> { validate_webhook_url(&p, u).iter().map(|e| e.to_string()).collect() };
        assert!(msgs("https://example.com/convert").is_empty());
        assert_eq!(
            msgs("http://example.com"),
            vec![
                "url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"
            ]
        );
        assert_eq!(
            msgs("https://u:p@example.com?x=1#f"),
            vec![
                "url: Invalid value: \"u:p\": user information is not permitted in the URL",
                "url: Invalid value: \"f\": fragments are not permitted in the URL",
                "url: Invalid value: \"x=1\": query parameters are not permitted in the URL",
            ]
        );
        assert_eq!(
            msgs(":foo"),
            vec![
                "url: Required value: url must be a valid URL: parse \":foo\": missing protocol scheme; desired format: https://host[/path]"
            ]
        );
        assert_eq!(
            msgs("https://example.com:x"),
            vec![
                "url: Required value: url must be a valid URL: parse \"https://example.com:x\": invalid port \":x\" after host; desired format: https://host[/path]"
            ]
        );
    }
}
