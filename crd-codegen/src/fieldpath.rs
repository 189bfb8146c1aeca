//! Owned field paths in the API server's notation (`spec.versions[0].schema`,
//! `properties[foo]`), for the CRD checks and for diagnostics.

use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Field(String),
    Index(usize),
    Key(String),
}

/// Go's `field.Path`, owned. Printing follows `field.Path.String()`.
///
/// A shared list from the last segment to the first: the schema checks build a path
/// for every node they visit and print few of them, so a child costs one small
/// allocation and a clone none, whatever the depth.
#[derive(Clone, Default)]
pub struct FieldPath(Option<Arc<Link>>);

struct Link {
    parent: FieldPath,
    seg: Seg,
}

impl FieldPath {
    /// The nil path (prints `<nil>`).
    pub fn root() -> Self {
        FieldPath(None)
    }

    pub fn new(name: &str) -> Self {
        FieldPath::root().child(name)
    }

    fn push(&self, seg: Seg) -> Self {
        FieldPath(Some(Arc::new(Link {
            parent: self.clone(),
            seg,
        })))
    }

    pub fn child(&self, name: &str) -> Self {
        self.push(Seg::Field(name.to_string()))
    }

    pub fn index(&self, i: usize) -> Self {
        self.push(Seg::Index(i))
    }

    pub fn key(&self, k: &str) -> Self {
        self.push(Seg::Key(k.to_string()))
    }

    /// The segments, first to last.
    pub fn segments(&self) -> Vec<&Seg> {
        let mut segs = Vec::new();
        let mut at = self;
        while let Some(link) = &at.0 {
            segs.push(&link.seg);
            at = &link.parent;
        }
        segs.reverse();
        segs
    }

    fn from_segments(segs: Vec<Seg>) -> Self {
        segs.into_iter().fold(FieldPath::root(), |p, seg| p.push(seg))
    }

    pub fn is_root(&self) -> bool {
        self.0.is_none()
    }

    /// Reads a printed path back (`a.b[0].c[key]`); numeric brackets become indices.
    /// Used only to find the line of an error, so ambiguities are harmless.
    pub fn parse(s: &str) -> Self {
        let mut segs = Vec::new();
        let mut cur = String::new();
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '.' => {
                    if !cur.is_empty() {
                        segs.push(Seg::Field(std::mem::take(&mut cur)));
                    }
                }
                '[' => {
                    if !cur.is_empty() {
                        segs.push(Seg::Field(std::mem::take(&mut cur)));
                    }
                    let mut inner = String::new();
                    for c in chars.by_ref() {
                        if c == ']' {
                            break;
                        }
                        inner.push(c);
                    }
                    segs.push(match inner.parse() {
                        Ok(i) => Seg::Index(i),
                        Err(_) => Seg::Key(inner),
                    });
                }
                c => cur.push(c),
            }
        }
        if !cur.is_empty() {
            segs.push(Seg::Field(cur));
        }
        FieldPath::from_segments(segs)
    }

    /// The path as document keys and indices, for [`crate::yaml::line_of`].
    pub fn document_segments(&self) -> Vec<String> {
        self.segments()
            .into_iter()
            .map(|s| match s {
                Seg::Field(n) | Seg::Key(n) => n.clone(),
                Seg::Index(i) => i.to_string(),
            })
            .collect()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            return f.write_str("<nil>");
        }
        for (i, s) in self.segments().into_iter().enumerate() {
            match s {
                Seg::Field(n) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(n)?;
                }
                Seg::Index(n) => write!(f, "[{n}]")?,
                Seg::Key(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FieldPath({self})")
    }
}

impl PartialEq for FieldPath {
    fn eq(&self, other: &Self) -> bool {
        self.segments() == other.segments()
    }
}

impl Eq for FieldPath {}

impl std::hash::Hash for FieldPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.segments().hash(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses_like_go() {
        let p = FieldPath::new("spec")
            .child("versions")
            .index(0)
            .child("schema")
            .child("openAPIV3Schema")
            .child("properties")
            .key("foo")
            .child("type");
        let s = p.to_string();
        assert_eq!(s, "spec.versions[0].schema.openAPIV3Schema.properties[foo].type");
        assert_eq!(FieldPath::parse(&s), p);
        assert_eq!(FieldPath::root().to_string(), "<nil>");
    }
}
