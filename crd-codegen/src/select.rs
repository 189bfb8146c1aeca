//! Which CRDs and versions to generate: a user of one kind of a 100-CRD project
//! should compile one kind, not a hundred.

use crate::diagnostic::Diagnostic;
use crate::ir;
use crate::load::Loaded;

/// Groups, kinds and versions to keep; an empty list keeps everything.
///
/// A CRD is kept when its group and its kind are selected; of a kept CRD, only the
/// selected versions are generated, and a CRD left without versions is dropped. A name
/// that selects nothing is an error, so that a typo does not silently generate nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// API groups (`gateway.networking.k8s.io`).
    pub groups: Vec<String>,
    /// Kinds (`HTTPRoute`), as in `spec.names.kind`.
    pub kinds: Vec<String>,
    /// Version names (`v1`, `v1beta1`).
    pub versions: Vec<String>,
}

impl Selection {
    /// Whether everything is selected.
    pub fn is_all(&self) -> bool {
        self.groups.is_empty() && self.kinds.is_empty() && self.versions.is_empty()
    }

    /// Drops what is not selected from `loaded` (its lowered CRDs; the CRD models stay
    /// whole), adding an error for each group, kind or version that matched nothing.
    pub fn apply(&self, loaded: &mut Loaded) {
        if self.is_all() {
            return;
        }
        for (field, list) in [
            (Field::Group, &self.groups),
            (Field::Kind, &self.kinds),
            (Field::Version, &self.versions),
        ] {
            let mut known: Vec<&str> = loaded.crds.iter().flat_map(|c| field.names(&c.ir)).collect();
            known.sort_unstable();
            known.dedup();
            for name in list.iter().filter(|n| !known.contains(&n.as_str())) {
                loaded.diagnostics.push(Diagnostic::fatal(
                    None,
                    None,
                    format!(
                        "no CustomResourceDefinition read has the {} {name:?} (known: {})",
                        field.label(),
                        known.join(", ")
                    ),
                ));
            }
        }
        let wanted = |list: &[String], name: &str| list.is_empty() || list.iter().any(|x| x == name);
        let read = loaded.crds.len();
        let defined_twice = crate::load::defined_twice_warnings(&loaded.crds);
        loaded
            .crds
            .retain(|c| wanted(&self.groups, &c.ir.group) && wanted(&self.kinds, &c.ir.names.kind));
        for c in &mut loaded.crds {
            c.ir.versions.retain(|v| wanted(&self.versions, &v.name));
        }
        loaded.crds.retain(|c| !c.ir.versions.is_empty());
        // A CRD defined twice is generated twice only if both are still selected.
        let still = crate::load::defined_twice_warnings(&loaded.crds);
        loaded
            .diagnostics
            .retain(|d| !defined_twice.contains(d) || still.contains(d));
        if loaded.crds.is_empty() && read > 0 && !loaded.has_errors() {
            loaded.diagnostics.push(Diagnostic::fatal(
                None,
                None,
                "no CustomResourceDefinition read has the selected groups, kinds and versions together",
            ));
        }
    }
}

#[derive(Clone, Copy)]
enum Field {
    Group,
    Kind,
    Version,
}

impl Field {
    fn label(self) -> &'static str {
        match self {
            Field::Group => "group",
            Field::Kind => "kind",
            Field::Version => "version",
        }
    }

    fn names(self, crd: &ir::Crd) -> Vec<&str> {
        match self {
            Field::Group => vec![crd.group.as_str()],
            Field::Kind => vec![crd.names.kind.as_str()],
            Field::Version => crd.versions.iter().map(|v| v.name.as_str()).collect(),
        }
    }
}
