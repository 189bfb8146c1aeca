//! The Kubernetes CEL semver library (apiserver `pkg/cel/library/semverlib.go`).
//!
//! ```text
//! semver("1.2.3")            -> Semver, error on bad input     => Semver::parse
//! semver("v01.2", true)      -> Semver (normalised)            => Semver::parse_normalized
//! isSemver(s[, normalize])   -> bool                           => is_semver
//! v.major() / minor() / patch()                                => Semver::major, ...
//! v.compareTo(w) / isGreaterThan(w) / isLessThan(w)            => Semver::compare_to, ...
//! ```
//!
//! Parsing is blang/semver v4 `Parse`: strict SemVer 2.0.0 (`MAJOR.MINOR.PATCH`, no leading
//! zeros in numbers or numeric pre-release identifiers, identifiers of `[0-9A-Za-z-]`), with
//! blang's error messages, which the CEL functions return unchanged. Precedence follows
//! SemVer: build metadata is ignored by comparison and equality.

use std::cmp::Ordering;
use std::fmt;

use crate::formats::go_quote;

/// One pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PreRelease {
    /// All digits, without leading zeros.
    Numeric(u64),
    /// Letters, digits and `-`, not all digits.
    AlphaNumeric(String),
}

impl PreRelease {
    /// Mirrors blang `NewPRVersion`.
    fn parse(s: &str) -> Result<PreRelease, String> {
        if s.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if s.bytes().all(|b| b.is_ascii_digit()) {
            if has_leading_zeroes(s) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(s)
                ));
            }
            return parse_uint(s).map(PreRelease::Numeric);
        }
        if is_alphanum(s) {
            return Ok(PreRelease::AlphaNumeric(s.to_string()));
        }
        Err(format!("Invalid character(s) found in prerelease {}", go_quote(s)))
    }

    /// Mirrors blang `PRVersion.Compare`: numeric identifiers sort before alphanumeric ones.
    fn compare(&self, other: &PreRelease) -> Ordering {
        match (self, other) {
            (PreRelease::Numeric(a), PreRelease::Numeric(b)) => a.cmp(b),
            (PreRelease::Numeric(_), PreRelease::AlphaNumeric(_)) => Ordering::Less,
            (PreRelease::AlphaNumeric(_), PreRelease::Numeric(_)) => Ordering::Greater,
            (PreRelease::AlphaNumeric(a), PreRelease::AlphaNumeric(b)) => a.cmp(b),
        }
    }
}

impl fmt::Display for PreRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreRelease::Numeric(n) => write!(f, "{n}"),
            PreRelease::AlphaNumeric(s) => f.write_str(s),
        }
    }
}

/// A semantic version, as the CEL type `kubernetes.Semver` holds it.
///
/// Mirrors blang/semver v4 `Version`. `==` and ordering ignore build metadata
/// (CEL `==` is `Version.EQ`, i.e. `Compare == 0`).
#[derive(Debug, Clone)]
pub struct Semver {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<PreRelease>,
    build: Vec<String>,
}

fn has_leading_zeroes(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

fn is_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn is_alphanum(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Go `strconv.ParseUint(s, 10, 64)` for a string known to hold only ASCII digits.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!("strconv.ParseUint: parsing {}: invalid syntax", go_quote(s)));
    }
    s.parse::<u64>()
        .map_err(|_| format!("strconv.ParseUint: parsing {}: value out of range", go_quote(s)))
}

/// One of the three version numbers, checked as blang does.
fn parse_number(s: &str, what: &str, capital: &str) -> Result<u64, String> {
    if !is_digits(s) {
        return Err(format!("Invalid character(s) found in {what} number {}", go_quote(s)));
    }
    if has_leading_zeroes(s) {
        return Err(format!(
            "{capital} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    parse_uint(s)
}

impl Semver {
    /// Parses a strict SemVer 2.0.0 version; the error is blang's message, e.g.
    /// `No Major.Minor.Patch elements found`.
    ///
    /// Mirrors blang/semver v4 `Parse` (CEL `semver(s)`).
    pub fn parse(s: &str) -> Result<Semver, String> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        let [major, minor, rest] = parts.as_slice() else {
            return Err("No Major.Minor.Patch elements found".into());
        };
        let major = parse_number(major, "major", "Major")?;
        let minor = parse_number(minor, "minor", "Minor")?;
        let mut patch_str = *rest;
        let mut build: Vec<&str> = Vec::new();
        let mut pre: Vec<&str> = Vec::new();
        if let Some((p, b)) = patch_str.split_once('+') {
            build = b.split('.').collect();
            patch_str = p;
        }
        if let Some((p, r)) = patch_str.split_once('-') {
            pre = r.split('.').collect();
            patch_str = p;
        }
        let patch = parse_number(patch_str, "patch", "Patch")?;
        let pre = pre.into_iter().map(PreRelease::parse).collect::<Result<Vec<_>, _>>()?;
        let mut builds = Vec::with_capacity(build.len());
        for b in build {
            if b.is_empty() {
                return Err("Build meta data is empty".into());
            }
            if !is_alphanum(b) {
                return Err(format!("Invalid character(s) found in build meta data {}", go_quote(b)));
            }
            builds.push(b.to_string());
        }
        Ok(Semver {
            major,
            minor,
            patch,
            pre,
            build: builds,
        })
    }

    /// Parses after normalising: one leading `v` is dropped, leading zeros are removed from
    /// the three dot-separated parts, and missing minor/patch parts become `0` (`"v01.1"` →
    /// `1.1.0`). A shortened version may not carry pre-release or build data.
    ///
    /// Mirrors apiserver `normalizeAndParse` (CEL `semver(s, true)`).
    pub fn parse_normalized(s: &str) -> Result<Semver, String> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s
            .splitn(3, '.')
            .map(|p| {
                if p.len() > 1 {
                    let t = p.trim_start_matches('0');
                    if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                        t.to_string()
                    } else {
                        format!("0{t}")
                    }
                } else {
                    p.to_string()
                }
            })
            .collect();
        if parts.len() < 3 {
            if parts.last().is_some_and(|p| p.contains('+') || p.contains('-')) {
                return Err("short version cannot contain PreRelease/Build meta data".into());
            }
            while parts.len() < 3 {
                parts.push("0".into());
            }
        }
        Semver::parse(&parts.join("."))
    }

    /// `semver(s, normalize)`: [`Semver::parse_normalized`] when `normalize`, else
    /// [`Semver::parse`].
    pub fn parse_with(s: &str, normalize: bool) -> Result<Semver, String> {
        if normalize {
            Semver::parse_normalized(s)
        } else {
            Semver::parse(s)
        }
    }

    /// `major()`: the major number as a CEL int (Go converts the `uint64`, wrapping).
    pub fn major(&self) -> i64 {
        self.major as i64
    }

    /// `minor()`: the minor number as a CEL int (wrapping like Go).
    pub fn minor(&self) -> i64 {
        self.minor as i64
    }

    /// `patch()`: the patch number as a CEL int (wrapping like Go).
    pub fn patch(&self) -> i64 {
        self.patch as i64
    }

    /// The three version numbers as parsed.
    pub fn numbers(&self) -> (u64, u64, u64) {
        (self.major, self.minor, self.patch)
    }

    /// The pre-release identifiers.
    pub fn pre_release(&self) -> &[PreRelease] {
        &self.pre
    }

    /// The build metadata identifiers.
    pub fn build(&self) -> &[String] {
        &self.build
    }

    /// `compareTo()`: -1, 0 or 1 by SemVer precedence (build metadata ignored).
    ///
    /// Mirrors blang `Version.Compare`.
    pub fn compare_to(&self, other: &Semver) -> i64 {
        match self.cmp(other) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// `isGreaterThan()`.
    pub fn is_greater_than(&self, other: &Semver) -> bool {
        self.compare_to(other) == 1
    }

    /// `isLessThan()`.
    pub fn is_less_than(&self, other: &Semver) -> bool {
        self.compare_to(other) == -1
    }
}

impl Ord for Semver {
    fn cmp(&self, o: &Semver) -> Ordering {
        let numbers = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if numbers != Ordering::Equal {
            return numbers;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            (false, false) => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = a.compare(b);
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

impl PartialOrd for Semver {
    fn partial_cmp(&self, o: &Semver) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Semver {
    fn eq(&self, o: &Semver) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Semver {}

impl fmt::Display for Semver {
    /// Mirrors blang `Version.String`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            write!(f, "{p}")?;
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Semver {
    type Err = String;
    fn from_str(s: &str) -> Result<Semver, String> {
        Semver::parse(s)
    }
}

/// `isSemver(s)` / `isSemver(s, normalize)`: whether `semver(s[, normalize])` would succeed.
///
/// Mirrors apiserver `isSemverNormalize`.
pub fn is_semver(s: &str, normalize: bool) -> bool {
    Semver::parse_with(s, normalize).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Semver {
        Semver::parse(s).unwrap()
    }

    #[test]
    fn cel_library_cases() {
        // apiserver pkg/cel/library/semver_test.go
        assert_eq!(v("1.2.3").to_string(), "1.2.3");
        assert_eq!(
            Semver::parse("v1.0").unwrap_err(),
            "No Major.Minor.Patch elements found"
        );
        assert!(is_semver("1.2.3-beta.1+build.1", false));
        for s in ["", "v1.0.0", " 1.0.0", "1. 0.0", "1.0.0 ", "01.01.01", "1", "1.1"] {
            assert!(!is_semver(s, false), "{s:?}");
        }
        for s in ["", " 1.0.0", "1. 0.0", "1.0.0 "] {
            assert!(!is_semver(s, true), "{s:?}");
        }
        for s in ["v1.0.0", "01.01.01", "1", "1.1"] {
            assert!(is_semver(s, true), "{s:?}");
        }
        assert_eq!(Semver::parse_normalized("v01.01").unwrap(), v("1.1.0"));
        assert!(v("1.2.3") == v("1.2.3"));
        assert!(v("1.2.3") != v("1.0.0"));
        assert!(v("1.0.0").is_less_than(&v("1.2.3")));
        assert!(!v("1.0.0").is_less_than(&v("1.0.0")));
        assert!(v("1.2.3").is_greater_than(&v("1.0.0")));
        assert!(!v("1.0.0").is_greater_than(&v("1.0.0")));
        assert_eq!(v("1.2.3").compare_to(&v("1.2.3")), 0);
        assert_eq!(v("1.0.0").compare_to(&v("1.2.3")), -1);
        assert_eq!(v("1.2.3").compare_to(&v("1.0.0")), 1);
        assert_eq!((v("1.2.3").major(), v("1.2.3").minor(), v("1.2.3").patch()), (1, 2, 3));
    }

    #[test]
    fn parse_errors() {
        let cases = [
            ("", "Version string empty"),
            ("1.2", "No Major.Minor.Patch elements found"),
            ("a.2.3", r#"Invalid character(s) found in major number "a""#),
            ("01.2.3", r#"Major number must not contain leading zeroes "01""#),
            (".2.3", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            (
                "99999999999999999999.2.3",
                r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
            ),
            ("1.b.3", r#"Invalid character(s) found in minor number "b""#),
            ("1.02.3", r#"Minor number must not contain leading zeroes "02""#),
            ("1.2.c", r#"Invalid character(s) found in patch number "c""#),
            ("1.2.03", r#"Patch number must not contain leading zeroes "03""#),
            ("1.2.", r#"strconv.ParseUint: parsing "": invalid syntax"#),
            ("1.2.3.4", r#"Invalid character(s) found in patch number "3.4""#),
            ("1.2.3-", "Prerelease is empty"),
            ("1.2.3-a..b", "Prerelease is empty"),
            (
                "1.2.3-01",
                r#"Numeric PreRelease version must not contain leading zeroes "01""#,
            ),
            ("1.2.3-a_b", r#"Invalid character(s) found in prerelease "a_b""#),
            (
                "1.2.3-99999999999999999999",
                r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
            ),
            ("1.2.3+", "Build meta data is empty"),
            ("1.2.3+a.", "Build meta data is empty"),
            ("1.2.3+a_b", r#"Invalid character(s) found in build meta data "a_b""#),
            ("1.2.3+é", r#"Invalid character(s) found in build meta data "é""#),
            ("1.2.3-é", r#"Invalid character(s) found in prerelease "é""#),
            ("١.2.3", r#"Invalid character(s) found in major number "١""#),
        ];
        for (s, e) in cases {
            assert_eq!(Semver::parse(s).unwrap_err(), e, "{s:?}");
        }
        assert_eq!(
            Semver::parse_normalized("1.2-rc").unwrap_err(),
            "short version cannot contain PreRelease/Build meta data"
        );
        assert_eq!(
            Semver::parse_normalized("").unwrap_err(),
            r#"strconv.ParseUint: parsing "": invalid syntax"#
        );
    }

    #[test]
    fn parse_ok_and_display() {
        for s in [
            "0.0.0",
            "1.2.3-alpha",
            "1.2.3-alpha.1",
            "1.2.3-0.3.7",
            "1.2.3-x.7.z.92",
            "1.2.3+20130313144700",
            "1.2.3-beta+exp.sha.5114f85",
            "1.2.3-rc-1+build-2",
            "1.2.3-0a",
            "18446744073709551615.0.0",
            "1.2.3+001",
            "1.2.3--",
        ] {
            assert_eq!(v(s).to_string(), s);
        }
        let big = v("18446744073709551615.9223372036854775808.0");
        assert_eq!(big.major(), -1);
        assert_eq!(big.minor(), i64::MIN);
        assert_eq!(big.numbers().0, u64::MAX);
        assert_eq!(
            v("1.2.3-rc.1+b.2").pre_release(),
            &[PreRelease::AlphaNumeric("rc".into()), PreRelease::Numeric(1)]
        );
        assert_eq!(v("1.2.3-rc.1+b.2").build(), &["b", "2"]);
        // normalisation
        for (s, want) in [
            ("v1.2.3", "1.2.3"),
            ("01.02.03", "1.2.3"),
            ("00.00.00", "0.0.0"),
            ("1", "1.0.0"),
            ("v1", "1.0.0"),
            ("1.2", "1.2.0"),
            ("1.2.03-rc.1", "1.2.3-rc.1"),
            ("1.2.00-rc", "1.2.0-rc"),
        ] {
            assert_eq!(Semver::parse_normalized(s).unwrap().to_string(), want, "{s:?}");
        }
        assert_eq!(
            Semver::parse_normalized("1.2.0a").unwrap_err(),
            r#"Invalid character(s) found in patch number "0a""#
        );
        assert!(Semver::parse_normalized("vv1.2.3").is_err());
        assert!(Semver::parse_with("v1", true).is_ok());
        assert!(Semver::parse_with("v1", false).is_err());
        assert_eq!("1.2.3".parse::<Semver>().unwrap(), v("1.2.3"));
    }

    #[test]
    fn precedence() {
        // SemVer 2.0.0 §11 example chain
        let chain = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.1.0",
            "2.0.0",
            "10.0.0",
        ];
        for w in chain.windows(2) {
            assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
            assert_eq!(v(w[1]).compare_to(&v(w[0])), 1);
        }
        assert_eq!(v("1.0.0+a"), v("1.0.0+b"));
        assert_eq!(v("1.0.0-rc.1+a").compare_to(&v("1.0.0-rc.1")), 0);
        assert!(v("1.0.0-B") < v("1.0.0-a")); // byte order
        assert!(v("1.0.0-1") < v("1.0.0-a"));
        assert!(v("1.0.0-a") < v("1.0.0-a.0"));
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let long = "9".repeat(10_000);
        for s in [
            "", ".", "..", "...", "v", "vv", "-", "+", "1.2.3-+", "1.2.3+-", "é.é.é", "\0", &long, "0.0.0-0", "1..",
            "..1",
        ] {
            let _ = Semver::parse(s);
            let _ = Semver::parse_normalized(s);
        }
    }
}
