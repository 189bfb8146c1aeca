//! The Kubernetes CEL URL library (`kubernetes.URL`).
//!
//! Mirrors `k8s.io/apiserver/pkg/cel/library/urls.go` and `pkg/cel/url.go`, which
//! wrap Go's `net/url`: `url(s)` first requires `url.ParseRequestURI(s)` to succeed
//! (an absolute URI or an absolute path, no fragment handling), then parses `s`
//! again with `url.Parse` (which splits off `#fragment`), and the accessors read
//! that second result. This module reproduces the parts of Go's `net/url` these
//! functions observe, as of Go 1.26 with its default settings: scheme syntax,
//! authority and userinfo, bracketed IPv6 literals (checked with `netip`), ports,
//! strict colons in `http`/`https` hosts, percent-decoding rules per component,
//! `EscapedPath` with its `RawPath` hint, `Query` (`ParseQuery`, with the
//! 10,000-parameter limit) and `String` (used for equality).
//!
//! Go strings are bytes: a percent-escape can decode to bytes that are not UTF-8
//! (`%ff`). Such bytes are kept internally; the accessors that return decoded text
//! (`getHost`, `getHostname`, `getQuery`) replace invalid UTF-8 with U+FFFD, as a
//! Rust `String` must be valid.

use std::collections::BTreeMap;
use std::fmt;

use crate::strings::{go_quote, go_quote_bytes};

/// A parsed URL, the value of CEL type `kubernetes.URL` (Go `*url.URL`).
///
/// Equality is Kubernetes' `URL.Equal`: the Go `String()` forms are equal.
#[derive(Debug, Clone, Default)]
pub struct Url {
    scheme: Vec<u8>,
    opaque: Vec<u8>,
    user: Option<Userinfo>,
    host: Vec<u8>,
    path: Vec<u8>,
    raw_path: Vec<u8>,
    omit_host: bool,
    force_query: bool,
    raw_query: Vec<u8>,
    fragment: Vec<u8>,
    raw_fragment: Vec<u8>,
}

#[derive(Debug, Clone)]
struct Userinfo {
    username: Vec<u8>,
    password: Option<Vec<u8>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Go `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

fn escape_error(s: &[u8]) -> String {
    format!("invalid URL escape {}", go_quote_bytes(s))
}

/// Go `unescape`: decodes `%XX` (and `+` in query components), with the
/// per-component checks and Go's `EscapeError` / `InvalidHostError` texts.
fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut n = 0;
    let mut has_plus = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                n += 1;
                if i + 2 >= s.len() || !s[i + 1].is_ascii_hexdigit() || !s[i + 2].is_ascii_hexdigit() {
                    let rest = &s[i..];
                    return Err(escape_error(&rest[..rest.len().min(3)]));
                }
                let three = &s[i..i + 3];
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && three != b"%25" {
                    return Err(escape_error(three));
                }
                if mode == Mode::Zone {
                    let v = (unhex(s[i + 1]) << 4) | unhex(s[i + 2]);
                    if three != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(three));
                    }
                }
                i += 3;
            }
            b'+' => {
                has_plus = mode == Mode::QueryComponent;
                i += 1;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote_bytes(&s[i..i + 1])
                    ));
                }
                i += 1;
            }
        }
    }
    if n == 0 && !has_plus {
        return Ok(s.to_vec());
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                out.push((unhex(s[i + 1]) << 4) | unhex(s[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Go `escape`.
fn escape(s: &[u8], mode: Mode) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push(b'+');
        } else if should_escape(c, mode) {
            out.push(b'%');
            out.push(HEX[usize::from(c >> 4)]);
            out.push(HEX[usize::from(c & 15)]);
        } else {
            out.push(c);
        }
    }
    out
}

/// Go `validEncoded`.
fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter().all(|&c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

/// Go `validOptionalPort`: empty, or `:` followed by ASCII digits.
fn valid_optional_port(port: &[u8]) -> bool {
    match port.split_first() {
        None => true,
        Some((&b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// Go `validUserinfo`.
fn valid_userinfo(s: &[u8]) -> bool {
    s.iter().all(|&c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            )
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind_byte(hay: &[u8], b: u8) -> Option<usize> {
    hay.iter().rposition(|&c| c == b)
}

fn find_byte(hay: &[u8], b: u8) -> Option<usize> {
    hay.iter().position(|&c| c == b)
}

/// Go `getScheme`.
fn get_scheme(raw: &[u8]) -> Result<(&[u8], &[u8]), String> {
    for (i, &c) in raw.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok((&[], raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".to_string());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok((&[], raw)),
        }
    }
    Ok((&[], raw))
}

/// Go `parseHost` (Go 1.26, `urlstrictcolons=1`).
fn parse_host(scheme: &[u8], host: &[u8]) -> Result<Vec<u8>, String> {
    let invalid_port = |p: &[u8]| format!("invalid port {} after host", go_quote_bytes(p));
    match rfind_byte(host, b'[') {
        Some(i) if i > 0 => Err("invalid IP-literal".to_string()),
        Some(_) => {
            let Some(close) = rfind_byte(host, b']') else {
                return Err("missing ']' in host".to_string());
            };
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(invalid_port(colon_port));
            }
            let colon_port = unescape(colon_port, Mode::Host)?;
            // `close >= 1`: the `[` at 0 is the last `[`, so `]` cannot be at 0.
            let hostname = host.get(1..close).unwrap_or(&[]);
            let unescaped = match find(hostname, b"%25") {
                Some(z) => {
                    let mut h = unescape(&hostname[..z], Mode::Host)?;
                    h.extend(unescape(&hostname[z..], Mode::Zone)?);
                    h
                }
                None => unescape(hostname, Mode::Host)?,
            };
            match parse_addr_is4(&unescaped) {
                Err(e) => return Err(format!("invalid host: {e}")),
                Ok(true) => return Err("invalid IP-literal".to_string()),
                Ok(false) => {}
            }
            let mut out = Vec::with_capacity(unescaped.len() + colon_port.len() + 2);
            out.push(b'[');
            out.extend(unescaped);
            out.push(b']');
            out.extend(colon_port);
            Ok(out)
        }
        None => {
            if let Some(mut i) = find_byte(host, b':') {
                let last = rfind_byte(host, b':').unwrap_or(i);
                if last != i && scheme != b"http" && scheme != b"https" {
                    i = last;
                }
                let colon_port = &host[i..];
                if !valid_optional_port(colon_port) {
                    return Err(invalid_port(colon_port));
                }
            }
            unescape(host, Mode::Host)
        }
    }
}

/// `netip.ParseAddr`: whether the address is IPv4, or Go's error.
fn parse_addr_is4(b: &[u8]) -> Result<bool, String> {
    crate::net::go_parse_addr_is4(b)
}

/// Go `parseAuthority`.
fn parse_authority(scheme: &[u8], authority: &[u8]) -> Result<(Option<Userinfo>, Vec<u8>), String> {
    let at = rfind_byte(authority, b'@');
    let host = match at {
        None => parse_host(scheme, authority)?,
        Some(i) => parse_host(scheme, &authority[i + 1..])?,
    };
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_string());
    }
    let user = match find_byte(userinfo, b':') {
        None => Userinfo {
            username: unescape(userinfo, Mode::UserPassword)?,
            password: None,
        },
        Some(c) => Userinfo {
            username: unescape(&userinfo[..c], Mode::UserPassword)?,
            password: Some(unescape(&userinfo[c + 1..], Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

/// Go `parse(rawURL, viaRequest)`; the error is the inner reason.
fn parse_inner(raw: &[u8], via_request: bool) -> Result<Url, String> {
    if raw.iter().any(|&b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_string());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_string());
    }
    let mut url = Url::default();
    if raw == b"*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.last() == Some(&b'?') && rest.iter().filter(|&&b| b == b'?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some(q) = find_byte(rest, b'?') {
        url.raw_query = rest[q + 1..].to_vec();
        rest = &rest[..q];
    }
    if !rest.starts_with(b"/") {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_vec();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_string());
        }
        let segment = match find_byte(rest, b'/') {
            Some(i) => &rest[..i],
            None => rest,
        };
        if segment.contains(&b':') {
            return Err("first path segment in URL cannot contain colon".to_string());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with(b"///")) && rest.starts_with(b"//") {
        let after = &rest[2..];
        let (authority, path) = match find_byte(after, b'/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, &b""[..]),
        };
        let (user, host) = parse_authority(&url.scheme, authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    } else if !url.scheme.is_empty() && rest.starts_with(b"/") {
        url.omit_host = true;
    }
    // setPath
    let path = unescape(rest, Mode::Path)?;
    url.raw_path = if escape(&path, Mode::Path) == rest {
        Vec::new()
    } else {
        rest.to_vec()
    };
    url.path = path;
    Ok(url)
}

/// Go `url.ParseRequestURI`, with `url.Error`'s text `parse "<s>": <reason>`.
pub fn parse_request_uri(s: &str) -> Result<Url, String> {
    parse_inner(s.as_bytes(), true).map_err(|e| format!("parse {}: {e}", go_quote(s)))
}

/// Go `url.Parse`, with `url.Error`'s text.
fn parse(s: &str) -> Result<Url, String> {
    let (u, frag) = match s.find('#') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    };
    let mut url = parse_inner(u.as_bytes(), false).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
    if frag.is_empty() {
        return Ok(url);
    }
    // setFragment
    let f = unescape(frag.as_bytes(), Mode::Fragment).map_err(|e| format!("parse {}: {e}", go_quote(s)))?;
    url.raw_fragment = if escape(&f, Mode::Fragment) == frag.as_bytes() {
        Vec::new()
    } else {
        frag.as_bytes().to_vec()
    };
    url.fragment = f;
    Ok(url)
}

/// `url(<string>) -> kubernetes.URL` (Kubernetes `stringToUrl`).
///
/// The string must be accepted by Go `url.ParseRequestURI` (an absolute URI such
/// as `https://example.com/path`, or an absolute path `/path`); it is then parsed
/// with `url.Parse`. Errors read
/// `URL parse error during conversion from string: parse "<s>": <reason>`.
pub fn url(s: &str) -> Result<Url, String> {
    let wrap = |e: String| format!("URL parse error during conversion from string: {e}");
    parse_request_uri(s).map_err(wrap)?;
    parse(s).map_err(wrap)
}

/// `isURL(<string>) -> bool` (Kubernetes `isURL`): whether Go
/// `url.ParseRequestURI` accepts the string. (So `isURL` can be true where `url()`
/// fails on an invalid `#fragment` escape.)
pub fn is_url(s: &str) -> bool {
    parse_request_uri(s).is_ok()
}

/// Go `splitHostPort` (the one behind `URL.Hostname` and `URL.Port`).
fn split_host_port(host_port: &[u8]) -> (&[u8], &[u8]) {
    let mut host = host_port;
    let mut port: &[u8] = &[];
    if let Some(colon) = rfind_byte(host, b':')
        && valid_optional_port(&host[colon..])
    {
        port = &host[colon + 1..];
        host = &host[..colon];
    }
    if host.len() >= 2 && host.starts_with(b"[") && host.ends_with(b"]") {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Url {
    /// `<URL>.getScheme()`: the scheme, lower-cased; `""` for a path.
    pub fn get_scheme(&self) -> String {
        text(&self.scheme)
    }

    /// `<URL>.getHost()`: Go `URL.Host`, `host[:port]` with IPv6 in brackets;
    /// `""` when absent.
    pub fn get_host(&self) -> String {
        text(&self.host)
    }

    /// `<URL>.getHostname()`: Go `URL.Hostname()`, without port and brackets.
    pub fn get_hostname(&self) -> String {
        text(split_host_port(&self.host).0)
    }

    /// `<URL>.getPort()`: Go `URL.Port()`, `""` when absent.
    pub fn get_port(&self) -> String {
        text(split_host_port(&self.host).1)
    }

    /// `<URL>.getEscapedPath()`: Go `URL.EscapedPath()`: the path as written when
    /// that is a valid encoding of it, else the path re-escaped.
    pub fn get_escaped_path(&self) -> String {
        text(&self.escaped_path())
    }

    /// `<URL>.getQuery()`: Go `URL.Query()`: `&`-separated `key=value` pairs,
    /// percent- and `+`-decoded, values of repeated keys in order. Pairs containing
    /// `;` or a bad escape are dropped; more than 10,000 pairs give an empty map.
    pub fn get_query(&self) -> BTreeMap<String, Vec<String>> {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let q = &self.raw_query;
        if q.iter().filter(|&&b| b == b'&').count() + 1 > 10_000 {
            return m;
        }
        if q.is_empty() {
            return m;
        }
        for part in q.split(|&b| b == b'&') {
            if part.contains(&b';') || part.is_empty() {
                continue;
            }
            let (k, v) = match find_byte(part, b'=') {
                Some(i) => (&part[..i], &part[i + 1..]),
                None => (part, &b""[..]),
            };
            let (Ok(k), Ok(v)) = (unescape(k, Mode::QueryComponent), unescape(v, Mode::QueryComponent)) else {
                continue;
            };
            m.entry(text(&k)).or_default().push(text(&v));
        }
        m
    }

    /// Go `URL.EscapedPath`.
    fn escaped_path(&self) -> Vec<u8> {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == b"*" {
            return b"*".to_vec();
        }
        escape(&self.path, Mode::Path)
    }

    /// Go `URL.EscapedFragment`.
    fn escaped_fragment(&self) -> Vec<u8> {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// Go `URL.String`.
    fn go_string(&self) -> Vec<u8> {
        let mut buf = Vec::new();
        if !self.scheme.is_empty() {
            buf.extend_from_slice(&self.scheme);
            buf.push(b':');
        }
        if !self.opaque.is_empty() {
            buf.extend_from_slice(&self.opaque);
        } else {
            let no_authority = self.host.is_empty() && self.user.is_none();
            // Go: (scheme != "" || host != "" || user != nil) && !(OmitHost && host == "" && user == nil)
            if !no_authority || (!self.scheme.is_empty() && !self.omit_host) {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.extend_from_slice(b"//");
                }
                if let Some(u) = &self.user {
                    buf.extend(escape(&u.username, Mode::UserPassword));
                    if let Some(p) = &u.password {
                        buf.push(b':');
                        buf.extend(escape(p, Mode::UserPassword));
                    }
                    buf.push(b'@');
                }
                if !self.host.is_empty() {
                    buf.extend(escape(&self.host, Mode::Host));
                }
            }
            let path = self.escaped_path();
            if path.first().is_some_and(|&c| c != b'/') && !self.host.is_empty() {
                buf.push(b'/');
            }
            if buf.is_empty() {
                let segment = match find_byte(&path, b'/') {
                    Some(i) => &path[..i],
                    None => &path[..],
                };
                if segment.contains(&b':') {
                    buf.extend_from_slice(b"./");
                }
            }
            buf.extend(path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push(b'?');
            buf.extend_from_slice(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push(b'#');
            buf.extend(self.escaped_fragment());
        }
        buf
    }
}

impl fmt::Display for Url {
    /// Go `URL.String()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&text(&self.go_string()))
    }
}

impl PartialEq for Url {
    /// Kubernetes `URL.Equal`: `d.URL.String() == other.URL.String()`.
    fn eq(&self, other: &Url) -> bool {
        self.go_string() == other.go_string()
    }
}

impl Eq for Url {}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        url(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn q(pairs: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    /// The examples of the Kubernetes library documentation (library/urls.go).
    #[test]
    fn kubernetes_doc_examples() {
        assert!(is_url("https://user:pass@example.com:80/path?query=val#fragment"));
        assert!(is_url("/absolute-path"));
        assert!(!is_url("https://a:b:c/"));
        assert!(!is_url("../relative-path"));
        u("https://user:pass@example.com:80/path?query=val#fragment");
        u("/absolute-path");
        assert_eq!(
            url("https://a:b:c/").unwrap_err(),
            r#"URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":b:c" after host"#
        );
        assert_eq!(
            url("../relative-path").unwrap_err(),
            r#"URL parse error during conversion from string: parse "../relative-path": invalid URI for request"#
        );
        assert_eq!(u("/path").get_scheme(), "");
        assert_eq!(u("https://example.com/").get_scheme(), "https");
        assert_eq!(u("https://example.com:80/").get_host(), "example.com:80");
        assert_eq!(u("https://example.com/").get_host(), "example.com");
        assert_eq!(u("https://[::1]:80/").get_host(), "[::1]:80");
        assert_eq!(u("https://[::1]/").get_host(), "[::1]");
        assert_eq!(u("/path").get_host(), "");
        assert_eq!(u("https://example.com:80/").get_hostname(), "example.com");
        assert_eq!(u("https://127.0.0.1:80/").get_hostname(), "127.0.0.1");
        assert_eq!(u("https://[::1]:80/").get_hostname(), "::1");
        assert_eq!(u("/path").get_hostname(), "");
        assert_eq!(u("https://example.com:80/").get_port(), "80");
        assert_eq!(u("https://example.com/").get_port(), "");
        assert_eq!(u("/path").get_port(), "");
        assert_eq!(u("https://example.com/path").get_escaped_path(), "/path");
        assert_eq!(
            u("https://example.com/path with spaces/").get_escaped_path(),
            "/path%20with%20spaces/"
        );
        assert_eq!(u("https://example.com").get_escaped_path(), "");
        assert_eq!(
            u("https://example.com/path?k1=a&k2=b&k2=c").get_query(),
            q(&[("k1", &["a"]), ("k2", &["b", "c"])])
        );
        assert_eq!(
            u("https://example.com/path?key with spaces=value with spaces").get_query(),
            q(&[("key with spaces", &["value with spaces"])])
        );
        assert_eq!(u("https://example.com/path?").get_query(), q(&[]));
        assert_eq!(u("https://example.com/path").get_query(), q(&[]));
    }

    #[test]
    fn parse_errors_follow_go() {
        let cases = [
            ("", "empty url"),
            ("a\nb", "net/url: invalid control character in URL"),
            ("/a\u{7f}", "net/url: invalid control character in URL"),
            (":foo", "missing protocol scheme"),
            ("example.com/path", "invalid URI for request"),
            ("?a=b", "invalid URI for request"),
            ("/a%zz", r#"invalid URL escape "%zz""#),
            ("/a%", r#"invalid URL escape "%""#),
            ("/a%1", r#"invalid URL escape "%1""#),
            ("/%zé", r#"invalid URL escape "%z\xc3""#),
            ("http://[::1/", "missing ']' in host"),
            ("http://[::1]x/", r#"invalid port "x" after host"#),
            ("http://[::1]:8a/", r#"invalid port ":8a" after host"#),
            ("http://[1.2.3.4]/", "invalid IP-literal"),
            ("http://a[::1]/", "invalid IP-literal"),
            (
                "http://[v1.x]/",
                r#"invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")"#,
            ),
            ("http://[fe80::1%en0]/", r#"invalid URL escape "%en""#),
            ("http://[fe80::1%25%0a]/", r#"invalid URL escape "%0a""#),
            ("http://x y/", r#"invalid character " " in host name"#),
            ("http://a{b}/", r#"invalid character "{" in host name"#),
            ("http://%41/", r#"invalid URL escape "%41""#),
            ("http://host:80:90/", r#"invalid port ":80:90" after host"#),
            ("http://::1:80/", r#"invalid port "::1:80" after host"#),
            ("http://host:8é/", r#"invalid port ":8é" after host"#),
            ("http://us er@host/", "net/url: invalid userinfo"),
            ("http://ü@host/", "net/url: invalid userinfo"),
            ("http://us%zzer@host/", r#"invalid URL escape "%zz""#),
            ("http://host/%", r#"invalid URL escape "%""#),
        ];
        for (input, why) in cases {
            let want = format!(
                "URL parse error during conversion from string: parse {}: {why}",
                go_quote(input)
            );
            assert_eq!(url(input).unwrap_err(), want, "{input:?}");
            assert!(!is_url(input), "{input:?}");
        }
        // ParseRequestURI keeps `#` in the path or query, Parse then rejects a bad
        // fragment escape: isURL is true, url() fails.
        assert!(is_url("/a?x#%zz"));
        assert_eq!(
            url("/a?x#%zz").unwrap_err(),
            r#"URL parse error during conversion from string: parse "/a?x#%zz": invalid URL escape "%zz""#
        );
    }

    #[test]
    fn accepted_urls_follow_go() {
        // Strict colons apply to http and https only; other schemes use the last colon.
        let pg = u("postgres://a:1,b:2/db");
        assert_eq!(pg.get_host(), "a:1,b:2");
        assert_eq!(pg.get_hostname(), "a:1,b");
        assert_eq!(pg.get_port(), "2");
        let z = u("http://[fe80::1%25en0]:8080/x");
        assert_eq!(z.get_host(), "[fe80::1%en0]:8080");
        assert_eq!(z.get_hostname(), "fe80::1%en0");
        assert_eq!(z.get_port(), "8080");
        assert_eq!(z.to_string(), "http://[fe80::1%25en0]:8080/x");
        assert_eq!(u("http://[::ffff:1.2.3.4]/").get_hostname(), "::ffff:1.2.3.4");
        assert_eq!(u("http://host:/").get_port(), "");
        assert_eq!(u("http://host:/").get_hostname(), "host");
        assert_eq!(u("HTTP://Example.COM/").get_scheme(), "http");
        assert_eq!(u("HTTP://Example.COM/").get_host(), "Example.COM");
        assert_eq!(u("http://h%C3%A9llo/").get_host(), "héllo");
        assert_eq!(u("http://héllo.com/").get_host(), "héllo.com");
        assert_eq!(u("http://héllo.com/").to_string(), "http://h%C3%A9llo.com/");
        assert_eq!(u("http://%ff/").get_host(), "\u{fffd}");
        let user = u("http://a@b:c%40d@host/");
        assert_eq!(user.get_host(), "host");
        assert_eq!(user.to_string(), "http://a%40b:c%40d@host/");
        // Opaque and odd-but-valid forms.
        let m = u("mailto:someone@example.com");
        assert_eq!(m.get_scheme(), "mailto");
        assert_eq!(m.get_host(), "");
        assert_eq!(m.get_escaped_path(), "");
        assert_eq!(m.to_string(), "mailto:someone@example.com");
        assert_eq!(u("https:").to_string(), "https:");
        assert_eq!(u("*").get_escaped_path(), "*");
        // ParseRequestURI reads `//host/path` as a path; the accessors use Parse.
        assert_eq!(u("//example.com/path").get_host(), "example.com");
        assert_eq!(u("//example.com/path").get_escaped_path(), "/path");
        assert_eq!(u("file:///etc/hosts").get_host(), "");
        assert_eq!(u("file:///etc/hosts").to_string(), "file:///etc/hosts");
        assert_eq!(u("http:///path").to_string(), "http:///path");
        // EscapedPath keeps a valid raw path and re-escapes an invalid one.
        assert_eq!(u("http://h/a%2fb").get_escaped_path(), "/a%2fb");
        assert_eq!(u("http://h/a%2Fb%20c").get_escaped_path(), "/a%2Fb%20c");
        assert_eq!(u("http://h/a%41b").get_escaped_path(), "/a%41b");
        assert_eq!(u("http://h/a b%2f").get_escaped_path(), "/a%20b/");
        assert_eq!(u("http://h/é").get_escaped_path(), "/%C3%A9");
        assert_eq!(
            u("http://h/a;b,c=d@e:f$g&h+i!j'k(l)m*n[o]").get_escaped_path(),
            "/a;b,c=d@e:f$g&h+i!j'k(l)m*n[o]"
        );
        assert_eq!(u("http://h/a{b}").get_escaped_path(), "/a%7Bb%7D");
        assert_eq!(u("http://h/?a#b c").to_string(), "http://h/?a#b%20c");
        assert_eq!(u("http://h/#a%2fb").to_string(), "http://h/#a%2fb");
    }

    #[test]
    fn query_follows_go() {
        let g = |s: &str| u(s).get_query();
        assert_eq!(g("/p?a=1;b=2"), q(&[]));
        assert_eq!(g("/p?a=1&b=2;c&d=4"), q(&[("a", &["1"]), ("d", &["4"])]));
        assert_eq!(g("/p?a=%zz&b=1"), q(&[("b", &["1"])]));
        assert_eq!(g("/p?a+b=c+d%2B"), q(&[("a b", &["c d+"])]));
        assert_eq!(
            g("/p?=x&a&&b=&a=2&"),
            q(&[("", &["x"]), ("a", &["", "2"]), ("b", &[""])])
        );
        assert_eq!(g("/p?a=b=c"), q(&[("a", &["b=c"])]));
        assert_eq!(g("/p?%C3%A9=%FF"), q(&[("é", &["\u{fffd}"])]));
        assert_eq!(g("/p?a=1#b=2"), q(&[("a", &["1"])]));
        let many = format!("/p?{}", "a=1&".repeat(9_999));
        assert_eq!(g(&many)["a"].len(), 9_999);
        let too_many = format!("/p?{}a=1", "a=1&".repeat(10_000));
        assert_eq!(g(&too_many), q(&[]));
    }

    #[test]
    fn equality_is_on_go_string() {
        assert_eq!(u("https://example.com/a b"), u("https://example.com/a%20b"));
        assert_ne!(u("https://example.com"), u("https://example.com/"));
        assert_eq!(u("HTTPS://example.com/"), u("https://example.com/"));
        assert_ne!(u("https://Example.com/"), u("https://example.com/"));
        assert_eq!(
            u("https://user:pass@example.com:80/path?query=val#fragment").to_string(),
            "https://user:pass@example.com:80/path?query=val#fragment"
        );
        assert_eq!(u("/a?").to_string(), "/a?");
        assert_eq!(u("/a:b").to_string(), "/a:b");
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let inputs = [
            "",
            "/",
            "//",
            "///",
            "*",
            "**",
            ":",
            "?",
            "#",
            "/#",
            "/?#",
            "a:",
            "a:/",
            "a://",
            "a://@",
            "a://[",
            "a://]",
            "a://[]",
            "a://[%25]",
            "a://[::1%25]",
            "a://[::1]%",
            "a://:",
            "http://:80",
            "http://@:80",
            "http://[::1]:",
            "/%",
            "/%%",
            "/%2",
            "/?%",
            "/#%",
            "/é%",
            "http://h/%E9",
            "http://%e9/",
            "http://[%e9]/",
            "é://x",
            "x://é@y",
        ];
        for s in inputs {
            let _ = is_url(s);
            if let Ok(v) = url(s) {
                let _ = (
                    v.get_scheme(),
                    v.get_host(),
                    v.get_hostname(),
                    v.get_port(),
                    v.get_escaped_path(),
                    v.get_query(),
                    v.to_string(),
                );
            }
        }
    }
}
