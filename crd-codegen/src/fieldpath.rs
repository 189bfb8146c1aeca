//! Owned field paths in the API server's notation (`spec.versions[0].schema`,
//! `properties[foo]`), for the CRD checks and for diagnostics.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Field(String),
    Index(usize),
    Key(String),
}

/// Go's `field.Path`, owned. Printing follows `field.Path.String()`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(Vec<Seg>);

impl FieldPath {
    /// The nil path (prints `<nil>`).
    pub fn root() -> Self {
        FieldPath(Vec::new())
    }

    pub fn new(name: &str) -> Self {
        FieldPath(vec![Seg::Field(name.to_string())])
    }

    pub fn child(&self, name: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Field(name.to_string()));
        p
    }

    pub fn index(&self, i: usize) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Index(i));
        p
    }

    pub fn key(&self, k: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Key(k.to_string()));
        p
    }

    pub fn segments(&self) -> &[Seg] {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
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
        FieldPath(segs)
    }

    /// The path as document keys and indices, for [`crate::yaml::line_of`].
    pub fn document_segments(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|s| match s {
                Seg::Field(n) | Seg::Key(n) => n.clone(),
                Seg::Index(i) => i.to_string(),
            })
            .collect()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("<nil>");
        }
        for (i, s) in self.0.iter().enumerate() {
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
