//! The `fieldPath` / selectable-field JSON-path syntax
//! (`crd_codegen::check::fieldpath_rule::valid_field_path`), ported from
//! `TestValidateFieldPath` (`pkg/apis/apiextensions/validation/validation_test.go`),
//! with the exact error texts of `ValidFieldPath`.

use crd_codegen::check::fieldpath_rule::valid_field_path;
use crd_codegen::check::structural::new_structural;
use crd_codegen::model::JsonSchemaProps;
use serde_json::json;

fn schema() -> JsonSchemaProps {
    serde_json::from_value(json!({
        "type": "object",
        "properties": {
            "foo": {"type": "object", "additionalProperties": {"type": "object", "properties": {"f1": {"type": "number"}}}},
            "a": {"type": "object", "properties": {
                "bbb": {"type": "object", "properties": {"c": {"type": "number"}, "34": {"type": "number"}}},
                "bbb.c": {"type": "object", "properties": {"a-b34": {"type": "number"}}}
            }},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}, "a-b.34": {"type": "number"}}}},
            "any": {"type": "object", "additionalProperties": true}
        }
    }))
    .unwrap()
}

#[test]
fn validate_field_path() {
    let ss = new_structural(&schema()).unwrap();
    // (name, path, Ok(field path as printed) or Err(error))
    let cases: &[(&str, &str, Result<&str, &str>)] = &[
        ("Valid .a", ".a", Ok("a")),
        ("Valid .a.b", ".a.bbb", Ok("a.bbb")),
        ("Valid .foo.f1", ".foo.f1", Ok("foo[f1]")),
        ("Invalid map syntax .a.b", ".a['bbb']", Ok("a.bbb")),
        ("Valid .a['bbb.c']", ".a['bbb.c']", Ok("a.bbb.c")),
        ("Valid .a['bbb.c'].a-b34", ".a['bbb.c'].a-b34", Ok("a.bbb.c.a-b34")),
        (
            "Valid .a['bbb.c']['a-b34']",
            ".a['bbb.c']['a-b34']",
            Ok("a.bbb.c.a-b34"),
        ),
        ("Valid .a.bbb.c", ".a.bbb.c", Ok("a.bbb.c")),
        ("Valid .a.bbb.34", ".a.bbb['34']", Ok("a.bbb.34")),
        ("Invalid map key", ".a.foo", Err("does not refer to a valid field")),
        (
            "Malformed map key",
            ".a.bbb[0]",
            Err("expected single quoted string but got 0"),
        ),
        ("number in field names", ".a.bbb.34", Ok("a.bbb.34")),
        ("Special field names", ".a.bbb['34']", Ok("a.bbb.34")),
        ("Valid .list", ".list", Ok("list")),
        (
            "Invalid .list[1]",
            ".list[1]",
            Err("expected single quoted string but got 1"),
        ),
        ("Unsopported .list.a", ".list.a", Err("does not refer to a valid field")),
        (
            "Unsupported .list['a-b.34']",
            ".list['a-b.34']",
            Err("does not refer to a valid field"),
        ),
        (
            "Invalid .list.a-b.34",
            ".list.a-b.34",
            Err("does not refer to a valid field"),
        ),
        ("Missing leading dot", "a", Err("expected [ or . but got: a")),
        ("Nonexistent field", ".c", Err("does not refer to a valid field")),
        ("Duplicate dots", ".a..b", Err("does not refer to a valid field")),
        (
            "Negative array index",
            ".list[-1]",
            Err("expected single quoted string but got -1"),
        ),
        (
            "Floating-point array index",
            ".list[1.0]",
            Err("expected single quoted string but got 1"),
        ),
        // Beyond the upstream table: the other messages of ValidFieldPath.
        ("trailing dot", ".a.", Err("unexpected end of JSON path")),
        ("open bracket", ".a[", Err("unexpected end of JSON path")),
        ("unclosed bracket", ".a['bbb'", Err("unexpected end of JSON path")),
        (
            "bracket followed by a name",
            ".a['bbb'].c['x'x",
            Err("does not refer to a valid field"),
        ),
        ("missing ]", ".a['bbb'.c", Err("expected ] but got .")),
        (
            "bad escape",
            ".a['b\\qb']",
            Err("invalid string literal: invalid escape char \\q"),
        ),
        ("escaped quote", ".foo['it\\'s']", Ok("foo[it's]")),
        (
            "unterminated quote",
            ".a['bbb",
            Err("expected single quoted string but got 'bbb"),
        ),
        ("below additionalProperties: true", ".any.x", Ok("any[x]")),
        (
            "nothing below additionalProperties: true",
            ".any.x.y",
            Err("does not refer to a valid field"),
        ),
        ("empty path", "", Ok("<nil>")),
    ];
    let mut failures = Vec::new();
    for (name, path, want) in cases {
        let got = valid_field_path(path, Some(&ss), true).map(|(p, _)| p.to_string());
        let want = want.map(str::to_string).map_err(str::to_string);
        if got != want {
            failures.push(format!("{name} ({path}): got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn selectable_fields_forbid_brackets_and_report_the_schema() {
    let ss = new_structural(&schema()).unwrap();
    assert_eq!(
        valid_field_path(".a['bbb']", Some(&ss), false).unwrap_err(),
        "array notation is not allowed"
    );
    let (p, found) = valid_field_path(".foo.x.f1", Some(&ss), false).unwrap();
    assert_eq!(p.to_string(), "foo[x].f1");
    assert_eq!(found.unwrap().generic.type_, "number");
    let (_, found) = valid_field_path(".any.x", Some(&ss), false).unwrap();
    assert!(found.is_none());
}
