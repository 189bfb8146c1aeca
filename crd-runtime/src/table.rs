//! Printer columns: the table `kubectl get` shows for custom resources.
//!
//! The API server computes each row (apiextensions-apiserver `tableconvertor.go`):
//! `NAME` first, then the version's `additionalPrinterColumns` (or, when it has none,
//! `Age` from `.metadata.creationTimestamp`, `serveDefaultColumnsIfEmpty`), each cell
//! from the column's JSONPath ([`crate::jsonpath`], missing keys allowed, the first
//! value only) and typed by the column: a value of another JSON type is no value,
//! `date` is shown as an age (`HumanDuration`). kubectl prints the table
//! (cli-runtime `tableprinter.go`): upper-case headers, columns of priority other than
//! 0 only with `-o wide`, cells cut at the first line break (`...` appended), laid out
//! by Go's `tabwriter` (minimum width 6, padding 3).
//!
//! Generated and derived kinds carry their columns as
//! [`CustomResource::PRINTER_COLUMNS`](crate::CustomResource::PRINTER_COLUMNS) and
//! print themselves with [`CustomResource::print_table`](crate::CustomResource::print_table);
//! `crdgen get` prints objects of CRDs read at run time with the same functions.

use crate::jsonpath::JsonPath;
use serde_json::Value;
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// One `additionalPrinterColumns` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrinterColumn<'a> {
    /// The header (printed in upper case).
    pub name: &'a str,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    pub type_: &'a str,
    /// An OpenAPI format hint (`int32`, `name`, ...); it does not change the cell.
    pub format: &'a str,
    /// What the column shows.
    pub description: &'a str,
    /// 0: shown by `kubectl get`; higher: only with `-o wide`.
    pub priority: i32,
    /// The JSONPath of the value, from the object's root (`.spec.replicas`).
    pub json_path: &'a str,
}

/// The columns the API server serves for a version without printer columns.
pub const DEFAULT_COLUMNS: &[PrinterColumn<'static>] = &[PrinterColumn {
    name: "Age",
    type_: "date",
    format: "",
    description: "",
    priority: 0,
    json_path: ".metadata.creationTimestamp",
}];

/// The columns served for a version with `columns` (`serveDefaultColumnsIfEmpty`).
pub fn served<'c, 'a>(columns: &'c [PrinterColumn<'a>]) -> &'c [PrinterColumn<'a>] {
    if columns.is_empty() { DEFAULT_COLUMNS } else { columns }
}

/// One cell of a row, as the API server sends it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// No value: the path selects nothing, or a value of another type than the
    /// column's (printed empty).
    None,
    /// A `string` column's text, or a `date` column's age.
    String(String),
    /// An `integer` column's value.
    Integer(i64),
    /// A `number` column's value.
    Number(f64),
    /// A `boolean` column's value.
    Bool(bool),
}

impl fmt::Display for Cell {
    /// As kubectl prints the cell (`fmt.Sprint` of the decoded value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::None => Ok(()),
            Cell::String(s) => f.write_str(s),
            Cell::Integer(i) => write!(f, "{i}"),
            // The API server writes the float as JSON and kubectl reads an integral one
            // back as an integer: both print as Go's `%v` does.
            Cell::Number(x) => f.write_str(&crate::gofmt::float_v(*x)),
            Cell::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A column whose JSONPath the API server cannot parse: it then serves no table for
/// the version (`unrecognized column definition ".spec[x]"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnError {
    /// The API server's message.
    pub message: String,
    /// Why the path does not parse.
    pub detail: String,
}

impl fmt::Display for ColumnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.detail)
    }
}

impl std::error::Error for ColumnError {}

/// The paths of `columns`, parsed.
fn parse_paths(columns: &[PrinterColumn<'_>]) -> Result<Vec<JsonPath>, ColumnError> {
    columns
        .iter()
        .map(|c| {
            JsonPath::parse(c.json_path).map_err(|detail| ColumnError {
                message: format!("unrecognized column definition {:?}", c.json_path),
                detail,
            })
        })
        .collect()
}

/// `object`'s row for the served `columns` (see [`served`]) at the time `now`:
/// its name, then one cell per column.
pub fn row(columns: &[PrinterColumn<'_>], object: &Value, now: SystemTime) -> Result<Vec<Cell>, ColumnError> {
    let paths = parse_paths(columns)?;
    Ok(row_with(columns, &paths, object, now))
}

fn row_with(columns: &[PrinterColumn<'_>], paths: &[JsonPath], object: &Value, now: SystemTime) -> Vec<Cell> {
    let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let mut cells = vec![Cell::String(name.to_string())];
    for (column, path) in columns.iter().zip(paths) {
        let cell = match path.find(object) {
            Ok(values) => match values.first() {
                Some(value) => cell(column.type_, value, now),
                None => Cell::None,
            },
            Err(_) => Cell::None,
        };
        cells.push(cell);
    }
    cells
}

/// `cellForJSONValue`, and jsonpath's printing for `string` columns.
fn cell(type_: &str, value: &Value, now: SystemTime) -> Cell {
    match (type_, value) {
        // `PrintResults`: maps and lists as compact JSON, null as text/template's
        // `<no value>`, scalars as `fmt.Fprint`.
        ("string", Value::Object(_) | Value::Array(_)) => Cell::String(crate::gofmt::json(value)),
        ("string", Value::Null) => Cell::String("<no value>".into()),
        ("string", Value::String(s)) => Cell::String(s.clone()),
        ("string", Value::Bool(b)) => Cell::String(b.to_string()),
        ("string", Value::Number(n)) => Cell::String(match n.as_i64() {
            Some(i) => i.to_string(),
            None => crate::gofmt::float_v(n.as_f64().unwrap_or(0.0)),
        }),
        ("integer", Value::Number(n)) => match n.as_i64() {
            Some(i) => Cell::Integer(i),
            // Go's int64(float64) truncates; out of range it is undefined, and amd64
            // gives the minimum.
            None => {
                let f = n.as_f64().unwrap_or(0.0);
                Cell::Integer(if f.is_finite() && f.abs() < 9.223_372_036_854_775e18 {
                    f as i64
                } else {
                    i64::MIN
                })
            }
        },
        ("number", Value::Number(n)) => Cell::Number(n.as_f64().unwrap_or(0.0)),
        ("boolean", Value::Bool(b)) => Cell::Bool(*b),
        ("date", Value::String(s)) => Cell::String(age(s, now)),
        _ => Cell::None,
    }
}

/// A `date` cell: `metav1.Time.UnmarshalQueryParameter`, then
/// `ConvertToHumanReadableDateType`.
fn age(timestamp: &str, now: SystemTime) -> String {
    if timestamp.is_empty() || timestamp == "null" {
        return "<unknown>".into();
    }
    let Some((secs, nanos, _)) = crate::time::go_parse_rfc3339(timestamp) else {
        return "<invalid>".into();
    };
    // Go's zero time, 0001-01-01T00:00:00Z.
    const ZERO: i64 = -62_135_596_800;
    if secs == ZERO && nanos == 0 {
        return "<unknown>".into();
    }
    let now = match now.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::from(d.as_secs() as i64) * 1_000_000_000 + i128::from(d.subsec_nanos()),
        Err(e) => -(e.duration().as_nanos() as i128),
    };
    let then = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
    human_duration(now - then)
}

/// apimachinery's `duration.HumanDuration` of a duration in nanoseconds.
pub fn human_duration(nanos: i128) -> String {
    let seconds = nanos / 1_000_000_000;
    if seconds < -1 {
        return "<invalid>".into();
    } else if seconds < 0 {
        return "0s".into();
    } else if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    } else if hours < 48 {
        return format!("{hours}h");
    } else if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    } else if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// A table of objects of one kind and version, laid out as `kubectl get` prints it
/// (`-o wide` with `wide`): the rows of `objects` for the served `columns`, at `now`.
pub fn print<'v>(
    columns: &[PrinterColumn<'_>],
    objects: impl IntoIterator<Item = &'v Value>,
    wide: bool,
    now: SystemTime,
) -> Result<String, ColumnError> {
    let mut table = Table::new(columns)?;
    for object in objects {
        table.push(object, now);
    }
    Ok(table.print(wide))
}

/// A table filled a row at a time, as [`print()`] fills it: for objects that come one by
/// one and need not be kept (`crdgen get` over a large file keeps the rows only).
#[derive(Clone, Debug)]
pub struct Table<'a> {
    columns: Vec<PrinterColumn<'a>>,
    paths: Vec<JsonPath>,
    rows: Vec<Vec<Cell>>,
}

impl<'a> Table<'a> {
    /// An empty table of the served `columns`; an error when the API server could not
    /// parse one of their paths.
    pub fn new(columns: &[PrinterColumn<'a>]) -> Result<Self, ColumnError> {
        Ok(Table {
            columns: columns.to_vec(),
            paths: parse_paths(columns)?,
            rows: Vec::new(),
        })
    }

    /// Adds `object`'s row, at the time `now`.
    pub fn push(&mut self, object: &Value, now: SystemTime) {
        self.rows.push(row_with(&self.columns, &self.paths, object, now));
    }

    /// Puts `prefix` before every name, as kubectl does (`<kind>.<group>/`) when it
    /// lists several kinds.
    pub fn prefix_names(&mut self, prefix: &str) {
        for row in &mut self.rows {
            if let Some(Cell::String(name)) = row.first_mut() {
                name.insert_str(0, prefix);
            }
        }
    }

    /// The table as kubectl prints it (`-o wide` with `wide`); empty without rows.
    pub fn print(&self, wide: bool) -> String {
        if self.rows.is_empty() {
            // kubectl prints nothing for no rows (and "No resources found" on stderr).
            return String::new();
        }
        let shown: Vec<bool> = std::iter::once(true)
            .chain(self.columns.iter().map(|c| wide || c.priority == 0))
            .collect();
        let header = std::iter::once("NAME".to_string()).chain(self.columns.iter().map(|c| c.name.to_uppercase()));
        let mut lines: Vec<Vec<String>> = vec![visible(header, &shown)];
        for row in &self.rows {
            lines.push(visible(row.iter().map(printed), &shown));
        }
        tabwriter(&lines)
    }
}

fn visible(cells: impl Iterator<Item = String>, shown: &[bool]) -> Vec<String> {
    cells.zip(shown).filter(|(_, s)| **s).map(|(c, _)| c).collect()
}

/// A cell as the table printer writes it: cut at the first `\f`, `\n` or `\r`.
fn printed(cell: &Cell) -> String {
    let text = cell.to_string();
    match text.find(['\u{c}', '\n', '\r']) {
        Some(i) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// Go's `tabwriter` as kubectl configures it (minwidth 6, padding 3, padded with
/// spaces): every column but the last as wide as its widest cell plus 3, at least 6.
fn tabwriter(lines: &[Vec<String>]) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for line in lines {
        for (i, cell) in line.iter().enumerate().take(line.len().saturating_sub(1)) {
            widths[i] = widths[i].max((cell.chars().count() + 3).max(6));
        }
    }
    let mut out = String::new();
    for line in lines {
        for (i, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < line.len() {
                out.extend(std::iter::repeat_n(' ', widths[i] - cell.chars().count()));
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    const SEC: i128 = 1_000_000_000;

    #[test]
    fn human_durations() {
        for (secs, text) in [
            (-3, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (7, "7s"),
            (119, "119s"),
            (120, "2m"),
            (330, "5m30s"),
            (600, "10m"),
            (179 * 60, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 60, "3h1m"),
            (8 * 3600, "8h"),
            (47 * 3600, "47h"),
            (48 * 3600, "2d"),
            (50 * 3600, "2d2h"),
            (8 * 86400, "8d"),
            (400 * 86400, "400d"),
            (730 * 86400, "2y"),
            (731 * 86400, "2y1d"),
            (8 * 365 * 86400, "8y"),
        ] {
            assert_eq!(human_duration(secs * SEC), text, "{secs}s");
        }
    }

    fn columns() -> Vec<PrinterColumn<'static>> {
        let col = |name, type_, json_path, priority| PrinterColumn {
            name,
            type_,
            format: "",
            description: "",
            priority,
            json_path,
        };
        vec![
            col("Spec", "string", ".spec.cronSpec", 0),
            col("Replicas", "integer", ".spec.replicas", 0),
            col("Image", "string", ".spec.image", 1),
            col("Age", "date", ".metadata.creationTimestamp", 0),
        ]
    }

    /// The seed page's example: `NAME SPEC REPLICAS AGE`, 7 seconds after creation.
    #[test]
    fn the_seed_printer_columns() {
        let created = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let object = json!({
            "apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object", "creationTimestamp": "2023-11-14T22:13:20Z"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 1},
        });
        let mut object_seed = object.clone();
        object_seed["spec"]["cronSpec"] = json!("* * * * *");
        let now = created + Duration::from_secs(7);
        assert_eq!(
            print(&columns(), [&object_seed], false, now).unwrap(),
            "NAME                 SPEC        REPLICAS   AGE\nmy-new-cron-object   * * * * *   1          7s\n"
        );
        assert_eq!(
            print(&columns(), [&object], true, now).unwrap(),
            "NAME                 SPEC          REPLICAS   IMAGE                   AGE\n\
             my-new-cron-object   * * * * */5   1          my-awesome-cron-image   7s\n"
        );
        assert_eq!(
            row(&columns(), &object, now).unwrap(),
            [
                Cell::String("my-new-cron-object".into()),
                Cell::String("* * * * */5".into()),
                Cell::Integer(1),
                Cell::String("my-awesome-cron-image".into()),
                Cell::String("7s".into()),
            ]
        );
    }

    #[test]
    fn cells_of_the_wrong_type_are_empty() {
        let now = UNIX_EPOCH;
        for (type_, value, expected) in [
            ("integer", json!("1"), Cell::None),
            ("integer", json!(2.7), Cell::Integer(2)),
            ("number", json!(2), Cell::Number(2.0)),
            ("boolean", json!("true"), Cell::None),
            ("boolean", json!(false), Cell::Bool(false)),
            ("string", json!(1.5), Cell::String("1.5".into())),
            (
                "string",
                json!({"b": 1, "a": "<"}),
                Cell::String(r#"{"a":"\u003c","b":1}"#.into()),
            ),
            ("string", json!(null), Cell::String("<no value>".into())),
            ("date", json!(5), Cell::None),
            ("date", json!("yesterday"), Cell::String("<invalid>".into())),
            ("date", json!(""), Cell::String("<unknown>".into())),
            ("date", json!("0001-01-01T00:00:00Z"), Cell::String("<unknown>".into())),
            ("date", json!("1970-01-01T00:00:10Z"), Cell::String("<invalid>".into())),
        ] {
            assert_eq!(cell(type_, &value, now), expected, "{type_} {value}");
        }
        assert_eq!(Cell::Number(1e21).to_string(), "1e+21");
        assert_eq!(Cell::Number(2.0).to_string(), "2");
    }

    #[test]
    fn defaults_line_breaks_and_bad_paths() {
        assert_eq!(served(&[]), DEFAULT_COLUMNS);
        let object = json!({"metadata": {"name": "a"}, "spec": {"cronSpec": "line one\nline two"}});
        assert_eq!(
            print(&columns()[..1], [&object], false, UNIX_EPOCH).unwrap(),
            "NAME   SPEC\na      line one...\n"
        );
        let bad = [PrinterColumn {
            json_path: ".spec[x]",
            ..columns()[0]
        }];
        assert_eq!(
            row(&bad, &object, UNIX_EPOCH).unwrap_err().message,
            "unrecognized column definition \".spec[x]\""
        );
        assert_eq!(print(&columns(), [], false, UNIX_EPOCH).unwrap(), "");
    }
}
