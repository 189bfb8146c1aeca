//! Version priority, as the API server orders a CRD's versions
//! (apimachinery `pkg/version/helpers.go`, `CompareKubeAwareVersionStrings`): kubectl
//! uses the highest-priority served version by default, discovery lists versions in
//! this order, and a deprecated version's default warning names the best one above it.
//!
//! Kube-like versions (`v2`, `v1beta1`, `v3alpha2`) rank above all others; among them
//! GA above beta above alpha, then the higher major, then the higher minor. Other
//! strings rank lexicographically, the smaller first (`foo1` above `foo10`).

use std::cmp::Ordering;

/// The stability level of a kube-like version, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stability {
    Alpha,
    Beta,
    Ga,
}

/// `parseKubeVersion`: `^v(\d+)(?:(alpha|beta)(\d+))?$`, the numbers as Go's
/// `strconv.Atoi` reads them (a number beyond int64 makes the string not kube-like).
fn parse_kube_version(v: &str) -> Option<(i64, Stability, i64)> {
    let rest = v.strip_prefix('v')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let major_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (major, rest) = rest.split_at(major_len);
    if !digits(major) {
        return None;
    }
    let major: i64 = major.parse().ok()?;
    if rest.is_empty() {
        return Some((major, Stability::Ga, 0));
    }
    let (stability, minor) = if let Some(minor) = rest.strip_prefix("alpha") {
        (Stability::Alpha, minor)
    } else if let Some(minor) = rest.strip_prefix("beta") {
        (Stability::Beta, minor)
    } else {
        return None;
    };
    if !digits(minor) {
        return None;
    }
    Some((major, stability, minor.parse().ok()?))
}

/// The priority of version `a` against `b`: `Greater` when `a` ranks higher (comes
/// first), as `CompareKubeAwareVersionStrings(a, b) > 0`.
pub fn compare(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse_kube_version(a), parse_kube_version(b)) {
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((a_major, a_stability, a_minor)), Some((b_major, b_stability, b_minor))) => {
            if a_stability != b_stability {
                a_stability.cmp(&b_stability)
            } else if a_major != b_major {
                // Go subtracts the two ints; with 19-digit majors that wraps, and the
                // sign of the wrapped difference is what the API server compares.
                a_major.wrapping_sub(b_major).cmp(&0)
            } else {
                a_minor.wrapping_sub(b_minor).cmp(&0)
            }
        }
    }
}

/// Sorts versions highest priority first.
pub fn sort_by_priority<S: AsRef<str>>(versions: &mut [S]) {
    versions.sort_by(|a, b| compare(b.as_ref(), a.as_ref()));
}

/// The highest-priority version of `versions`, the one kubectl uses when none is named.
pub fn preferred<'a>(versions: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    versions.into_iter().max_by(|a, b| compare(a, b))
}

/// A version of a CRD as the deprecation warning reads it.
#[derive(Clone, Copy, Debug)]
pub struct VersionFlags<'a> {
    /// The version's name (`v1beta1`).
    pub name: &'a str,
    /// `served`.
    pub served: bool,
    /// `deprecated`.
    pub deprecated: bool,
}

/// The warning the API server returns for a request to a deprecated version without
/// a `deprecationWarning` (`defaultDeprecationWarning`): `group/v1beta1 Kind is
/// deprecated`, followed by `; use group/v1 Kind` naming the highest-priority served,
/// non-deprecated version that ranks above the deprecated one, when there is one.
pub fn default_deprecation_warning(group: &str, kind: &str, deprecated: &str, versions: &[VersionFlags<'_>]) -> String {
    let mut message = format!("{group}/{deprecated} {kind} is deprecated");
    let better = versions
        .iter()
        .filter(|v| v.served && !v.deprecated && compare(deprecated, v.name) == Ordering::Less)
        .map(|v| v.name);
    if let Some(best) = preferred(better) {
        message.push_str(&format!("; use {group}/{best} {kind}"));
    }
    message
}

type Crd = k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// The served versions of a CRD, highest priority first: what generated kinds have as
/// `SERVED_VERSIONS`, for a CRD known at run time (derived kinds' `merge_crds`).
pub fn served_versions(crd: &Crd) -> Vec<String> {
    let mut served: Vec<String> = crd
        .spec
        .versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.clone())
        .collect();
    sort_by_priority(&mut served);
    served
}

/// The warning the API server returns with requests for `version` of `crd` when it is
/// deprecated (its `deprecationWarning`, else the default text); `None` when it is not.
pub fn deprecation_warning(crd: &Crd, version: &str) -> Option<String> {
    let v = crd.spec.versions.iter().find(|v| v.name == version)?;
    if !v.deprecated.unwrap_or(false) {
        return None;
    }
    if let Some(w) = &v.deprecation_warning {
        return Some(w.clone());
    }
    let flags: Vec<VersionFlags> = crd
        .spec
        .versions
        .iter()
        .map(|v| VersionFlags {
            name: &v.name,
            served: v.served,
            deprecated: v.deprecated.unwrap_or(false),
        })
        .collect();
    Some(default_deprecation_warning(
        &crd.spec.group,
        &crd.spec.names.kind,
        version,
        &flags,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed page's sorted list ("Version priority").
    const SEED_ORDER: [&str; 10] = [
        "v10",
        "v2",
        "v1",
        "v11beta2",
        "v10beta3",
        "v3beta1",
        "v12alpha1",
        "v11alpha2",
        "foo1",
        "foo10",
    ];

    #[test]
    fn sorts_the_seed_list_from_any_order() {
        let mut reversed: Vec<&str> = SEED_ORDER.iter().rev().copied().collect();
        sort_by_priority(&mut reversed);
        assert_eq!(reversed, SEED_ORDER);
        // Every rotation too: the order does not depend on the input's.
        for k in 0..SEED_ORDER.len() {
            let mut rotated = SEED_ORDER.to_vec();
            rotated.rotate_left(k);
            sort_by_priority(&mut rotated);
            assert_eq!(rotated, SEED_ORDER, "rotation {k}");
        }
    }

    #[test]
    fn pairwise_like_the_api_server() {
        for (i, a) in SEED_ORDER.iter().enumerate() {
            for (j, b) in SEED_ORDER.iter().enumerate() {
                assert_eq!(compare(a, b), j.cmp(&i), "{a} vs {b}");
            }
        }
        // The seed's two-version CRD: v1 is the default over v1beta1.
        assert_eq!(preferred(["v1beta1", "v1"]), Some("v1"));
        assert_eq!(preferred([]), None);
    }

    #[test]
    fn not_kube_like() {
        // A capital V, a leading letter, a missing minor, a suffix, a sign, a number
        // beyond int64: all compared as plain strings, below every kube-like version.
        for v in [
            "V1",
            "xv1",
            "v1beta",
            "v1beta1x",
            "v+1",
            "v99999999999999999999",
            "v1alpha",
            "v",
        ] {
            assert_eq!(parse_kube_version(v), None, "{v}");
            assert_eq!(compare(v, "v1alpha1"), Ordering::Less, "{v}");
        }
        assert_eq!(compare("abc", "abd"), Ordering::Greater);
        // Leading zeros are numbers as Atoi reads them.
        assert_eq!(parse_kube_version("v01"), Some((1, Stability::Ga, 0)));
        assert_eq!(compare("v01", "v1"), Ordering::Equal);
    }

    #[test]
    fn deprecation_warning() {
        let flags = |name, served, deprecated| VersionFlags {
            name,
            served,
            deprecated,
        };
        let versions = [
            flags("v1alpha1", true, true),
            flags("v1beta1", true, false),
            flags("v1", true, false),
            flags("v2", false, false),
            flags("v3", true, true),
        ];
        assert_eq!(
            default_deprecation_warning("example.com", "CronTab", "v1alpha1", &versions),
            "example.com/v1alpha1 CronTab is deprecated; use example.com/v1 CronTab"
        );
        // Nothing served and not deprecated ranks above v3.
        assert_eq!(
            default_deprecation_warning("example.com", "CronTab", "v3", &versions),
            "example.com/v3 CronTab is deprecated"
        );
    }
}
