//! `crdgen validate`: the seed examples with the API server's answers through the CLI
//! (exit codes, stdout, stderr), Lists and multi-document files, updates with --old,
//! and bad input.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn examples() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/spec/examples"))
}

fn ex(f: &str) -> String {
    examples().join(f).display().to_string()
}

fn crdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crdgen")).args(args).output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("crdgen-engine-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Every `admit` line of expected.jsonl, CEL rule errors included: a create that
/// breaks a rule, and updates with --old where a transition rule rejects the change.
#[test]
fn seed_examples() {
    let text = std::fs::read_to_string(examples().join("expected.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).unwrap();
        let req = &entry["request"];
        if req["op"] != "admit" {
            continue;
        }
        let seed = entry["seed"].as_str().unwrap();
        let crd = ex(req["crd"]["seed_file"].as_str().unwrap());
        let object = ex(req["object"]["seed_file"].as_str().unwrap());
        let mut args = vec!["validate", "-q", "--crd", &crd, "-o", "json"];
        let (new_file, old_file);
        if let Some(old) = req.get("oldObject") {
            // Updates carry metadata.resourceVersion: "1" on both objects.
            let patch = |f: &str| {
                let text = std::fs::read_to_string(examples().join(f)).unwrap();
                text.replace("metadata:\n", "metadata:\n  resourceVersion: \"1\"\n")
            };
            new_file = temp("new.yaml", &patch(req["object"]["seed_file"].as_str().unwrap()));
            old_file = temp("old.yaml", &patch(old["seed_file"].as_str().unwrap()));
            args.extend(["--old", &old_file, &new_file]);
        } else {
            args.push(&object);
        }
        let o = crdgen(&args);
        let errors: Vec<&str> = entry["expected"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        if errors.is_empty() {
            assert_eq!(o.status.code(), Some(0), "{seed}: {}", err(&o));
            let admitted: Value = serde_json::from_str(&out(&o)).unwrap();
            assert_eq!(admitted, entry["expected"]["object"], "{seed}");
            // Under the default `--validate=warn` each pruned field is a warning.
            let warnings: String = entry["expected"]["pruned"]
                .as_array()
                .map(|p| p.iter().map(|p| format!("Warning: unknown field {p}\n")).collect())
                .unwrap_or_default();
            assert_eq!(err(&o), warnings, "{seed}");
        } else {
            assert_eq!(o.status.code(), Some(1), "{seed}");
            let mut want = "The CronTab \"my-new-cron-object\" is invalid:".to_string();
            for e in errors {
                want.push_str("\n* ");
                want.push_str(e);
            }
            want.push('\n');
            assert_eq!(err(&o), want, "{seed}");
            assert_eq!(out(&o), "", "{seed}: invalid objects are not printed");
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// Rule errors print in the request-level form (exit 1); an update that leaves a
/// failing value unchanged is admitted, the failure printed as a warning (ratcheting).
#[test]
fn rules_on_create_and_update() {
    let crd = ex("cel-crd.yaml");
    let o = crdgen(&["validate", "--crd", &crd, &ex("cel-invalid.yaml")]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o),
        "The CronTab \"my-new-cron-object\" is invalid:\n* spec: Invalid value: failed rule: self.replicas <= self.maxReplicas\n"
    );
    let invalid = std::fs::read_to_string(examples().join("cel-invalid.yaml"))
        .unwrap()
        .replace("metadata:\n", "metadata:\n  resourceVersion: \"1\"\n");
    let same = temp("cel-same.yaml", &invalid);
    let o = crdgen(&["validate", "--crd", &crd, "--old", &same, &same]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        err(&o),
        format!(
            "Warning: spec: Invalid value: failed rule: self.replicas <= self.maxReplicas\n\
             {same}: document 1: CronTab \"my-new-cron-object\": valid update\n"
        )
    );
    // Changing the object makes the failure an error again.
    let changed = temp("cel-changed.yaml", &invalid.replace("replicas: 20", "replicas: 21"));
    let o = crdgen(&["validate", "--crd", &crd, "--old", &same, &changed]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o),
        "The CronTab \"my-new-cron-object\" is invalid:\n* spec: Invalid value: failed rule: self.replicas <= self.maxReplicas\n"
    );
}

/// `--old` with several old objects: each new object is compared with the old one of
/// its apiVersion, kind, namespace and name, whatever their order; of two old objects
/// with one key, the first counts.
#[test]
fn old_objects_are_found_by_key() {
    let crd = ex("cel-crd.yaml");
    let tab = |name: &str, namespace: &str, replicas: u32| {
        format!(
            "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {{name: {name}, namespace: {namespace}, resourceVersion: '1'}}\n\
             spec: {{replicas: {replicas}, minReplicas: 0, maxReplicas: 10}}\n"
        )
    };
    // `a` in namespace one broke the rule already (ratcheted); `a` in two did not.
    let old = [
        tab("a", "two", 5),
        tab("b", "one", 5),
        tab("a", "one", 20),
        tab("a", "one", 1),
    ]
    .join("---\n");
    let old = temp("old-by-key.yaml", &old);
    let new = temp(
        "new-by-key.yaml",
        &[tab("a", "one", 20), tab("b", "one", 6)].join("---\n"),
    );
    let o = crdgen(&["validate", "--crd", &crd, "--old", &old, &new]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        err(&o),
        format!(
            "Warning: spec: Invalid value: failed rule: self.replicas <= self.maxReplicas\n\
             {new}: document 1: CronTab \"a\": valid update\n\
             {new}: document 2: CronTab \"b\": valid update\n"
        )
    );
    // The same change in namespace two is refused: its old object kept the rule.
    let new = temp("new-by-key-two.yaml", &tab("a", "two", 20));
    let o = crdgen(&["validate", "--crd", &crd, "--old", &old, &new]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(
        err(&o),
        "The CronTab \"a\" is invalid:\n* spec: Invalid value: failed rule: self.replicas <= self.maxReplicas\n"
    );
}

#[test]
fn yaml_output_and_no_output() {
    let o = crdgen(&[
        "validate",
        "--crd",
        &ex("crontab-crd.yaml"),
        &ex("defaults-prune.yaml"),
        "--output",
        "yaml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.starts_with("apiVersion: stable.example.com/v1\nkind: CronTab\n"),
        "{text}"
    );
    assert!(text.contains("  replicas: 1\n"), "{text}");
    let o = crdgen(&["validate", "--crd", &ex("crontab-crd.yaml"), &ex("defaults-prune.yaml")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "");
}

#[test]
fn lists_and_documents() {
    let good = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 2\n";
    let bad = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: b\nspec:\n  replicas: 20\n";
    let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: stable.example.com/v1\n  kind: CronTab\n  metadata: {name: c}\n- apiVersion: stable.example.com/v1\n  kind: CronTab\n  metadata: {name: d, namespace: other}\n";
    let f = temp("multi.yaml", &format!("{good}---\n{bad}---\n{list}"));
    let o = crdgen(&["validate", "--crd", &ex("crontab-crd.yaml"), "-o", "json", &f]);
    assert_eq!(o.status.code(), Some(1));
    // Each object is named: valid, or why not (the items of a List by the List's
    // document).
    assert_eq!(
        err(&o),
        format!(
            "{f}: document 1: CronTab \"a\": valid\n\
             The CronTab \"b\" is invalid:\n* spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10\n\
             {f}: document 3: CronTab \"c\": valid\n\
             {f}: document 3: CronTab \"d\": valid\n"
        )
    );
    let printed: Vec<Value> = serde_json::Deserializer::from_str(&out(&o))
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let names: Vec<(&str, &str)> = printed
        .iter()
        .map(|v| {
            (
                v["metadata"]["name"].as_str().unwrap(),
                v["metadata"]["namespace"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("a", "default"), ("c", "default"), ("d", "other")]);
}

#[test]
fn bad_requests_are_invalid() {
    let f = temp(
        "badmeta.yaml",
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  labels: {x: 1}\n",
    );
    let o = crdgen(&["validate", "--crd", &ex("crontab-crd.yaml"), &f]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o),
        format!(
            "Error from server (BadRequest): error when creating {f:?}: CronTab in version \"v1\" cannot be handled as a CronTab: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string\n"
        )
    );
}

#[test]
fn bad_input_exits_2_naming_the_file() {
    let crd = ex("crontab-crd.yaml");
    // Missing object file.
    let o = crdgen(&["validate", "--crd", &crd, "/nonexistent/object.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("/nonexistent/object.yaml"), "{}", err(&o));
    // Malformed YAML.
    let f = temp("malformed.yaml", "apiVersion: [x\n");
    let o = crdgen(&["validate", "--crd", &crd, &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("malformed.yaml") && err(&o).contains("invalid YAML"),
        "{}",
        err(&o)
    );
    // Unknown kind.
    let f = temp(
        "unknown.yaml",
        "apiVersion: other.example.com/v1\nkind: Thing\nmetadata: {name: a}\n",
    );
    let o = crdgen(&["validate", "--crd", &crd, &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("unknown.yaml: document 1: no CustomResourceDefinition for kind \"Thing\" in version \"other.example.com/v1\""),
        "{}",
        err(&o)
    );
    // Missing old object.
    let empty_old = temp(
        "old-empty.yaml",
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: other}\n",
    );
    let o = crdgen(&["validate", "--crd", &crd, "--old", &empty_old, &ex("invalid.yaml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no old CronTab \"my-new-cron-object\" in namespace \"default\""),
        "{}",
        err(&o)
    );
    // Missing CRD and invalid CRD.
    let o = crdgen(&["validate", "--crd", "/nonexistent/crd.yaml", &ex("invalid.yaml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("/nonexistent/crd.yaml"), "{}", err(&o));
    let o = crdgen(&["validate", "--crd", &ex("nonstructural-1.yaml"), &ex("invalid.yaml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!err(&o).contains("panicked"));
}

fn fixture(f: &str) -> String {
    format!("{}/../tests/fixtures/{f}", env!("CARGO_MANIFEST_DIR"))
}

const TWO_CRONTABS: &str = "apiVersion: example.com/v2
kind: CronTab
metadata: {name: tz, namespace: default}
spec: {cronSpec: '0 3 * * *', timeZone: Europe/Paris, replicas: 2}
---
apiVersion: example.com/v1beta1
kind: CronTab
metadata: {name: old}
spec: {cronSpec: '* * * * */5', image: my-awesome-cron-image}
";

/// `crdgen convert` runs the None strategy: every object at the target version, the
/// fields the target drops named on stderr.
#[test]
fn convert_with_the_none_strategy() {
    let crd = fixture("versioned-crontab-crd.yaml");
    let objects = temp("two-crontabs.yaml", TWO_CRONTABS);
    let o = crdgen(&["convert", "--crd", &crd, "--to", "v1", &objects]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "apiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: tz\n  namespace: default\nspec:\n  cronSpec: \"0 3 * * *\"\n  replicas: 2\n---\napiVersion: example.com/v1\nkind: CronTab\nmetadata:\n  name: old\nspec:\n  cronSpec: \"* * * * */5\"\n  image: my-awesome-cron-image\n"
    );
    assert_eq!(
        err(&o),
        format!(
            "Warning: {objects}: document 1: converting CronTab \"tz\" from example.com/v2 to example.com/v1 dropped spec.timeZone\n"
        )
    );
    // `group/version` works too, and JSON output.
    let o = crdgen(&[
        "convert",
        "--crd",
        &crd,
        "--to",
        "example.com/v2",
        "-o",
        "json",
        &objects,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let docs: Vec<Value> = serde_json::Deserializer::from_str(&out(&o))
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(docs.len(), 2);
    assert!(docs.iter().all(|d| d["apiVersion"] == "example.com/v2"));
    assert_eq!(docs[0]["spec"]["timeZone"], "Europe/Paris");
    assert_eq!(err(&o), "");
}

#[test]
fn convert_refuses_webhook_crds_and_unknown_versions() {
    let objects = temp(
        "webhook-crontab.yaml",
        "apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: {name: a}\nhostPort: 'localhost:1234'\n",
    );
    let o = crdgen(&[
        "convert",
        "--crd",
        &format!(
            "{}/../examples/crds/crontab-conversion.yaml",
            env!("CARGO_MANIFEST_DIR")
        ),
        "--to",
        "v1",
        &objects,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o),
        format!(
            "error: {objects}: document 1: crontabs.example.com converts between versions with a webhook (conversion strategy Webhook); only the None strategy can be run offline\n"
        )
    );
    assert_eq!(out(&o), "");

    let o = crdgen(&[
        "convert",
        "--crd",
        &fixture("versioned-crontab-crd.yaml"),
        "--to",
        "v3",
        &objects,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        format!(
            "error: {objects}: document 1: crontabs.example.com has no version \"v3\" (versions: v1beta1, v1, v2)\n"
        )
    );
}

/// `validate` says what it checked: each valid object on a line of stderr (none with
/// `-q`); a file without objects is bad input, not a success.
#[test]
fn validate_names_what_it_checked_and_refuses_empty_files() {
    let crd = ex("crontab-crd.yaml");
    let object = ex("defaults-prune.yaml");
    let o = crdgen(&["validate", "--crd", &crd, "--validate=ignore", &object]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        err(&o),
        format!("{object}: document 1: CronTab \"my-new-cron-object\": valid\n")
    );
    let o = crdgen(&["validate", "-q", "--crd", &crd, "--validate=ignore", &object]);
    assert_eq!((o.status.code(), err(&o)), (Some(0), String::new()));

    for (name, text) in [
        ("empty.yaml", ""),
        ("comments.yaml", "# nothing\n---\n---\n"),
        ("empty-list.yaml", "apiVersion: v1\nkind: List\nitems: []\n"),
    ] {
        let empty = temp(name, text);
        let o = crdgen(&["validate", "--crd", &crd, &empty]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert_eq!(err(&o), format!("error: {empty}: no objects in it\n"), "{name}");
        // Beside a file with objects too.
        let o = crdgen(&["validate", "-q", "--crd", &crd, "--validate=ignore", &object, &empty]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert_eq!(err(&o), format!("error: {empty}: no objects in it\n"), "{name}");
    }
}

/// A `--crd` path without any CRD is named in a warning, so that the error about
/// the objects it was meant for is not the only clue.
#[test]
fn a_crd_path_without_a_crd_is_a_warning() {
    let not_a_crd = ex("defaults-prune.yaml");
    let object = ex("defaults-prune.yaml");
    let o = crdgen(&["validate", "--crd", &not_a_crd, &object]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        format!(
            "warning: {not_a_crd}: no CustomResourceDefinition in it\n\
             error: {object}: document 1: no CustomResourceDefinition for kind \"CronTab\" in version \"stable.example.com/v1\"\n"
        )
    );
    // Beside a path that has the CRD, still named, and the object is admitted.
    let o = crdgen(&[
        "validate",
        "-q",
        "--crd",
        &not_a_crd,
        "--crd",
        &ex("crontab-crd.yaml"),
        "--validate=ignore",
        &object,
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        err(&o),
        format!("warning: {not_a_crd}: no CustomResourceDefinition in it\n")
    );
    // The same for the other commands with --crd.
    for command in [vec!["get"], vec!["convert", "--to", "v1"]] {
        let mut args = command.clone();
        args.extend(["--crd", &not_a_crd, &object]);
        let o = crdgen(&args);
        assert_eq!(o.status.code(), Some(2), "{command:?}");
        assert!(
            err(&o).starts_with(&format!("warning: {not_a_crd}: no CustomResourceDefinition in it\n")),
            "{command:?}: {}",
            err(&o)
        );
    }
}

/// Runs crdgen with `stdin` on standard input.
fn crdgen_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // crdgen may exit before reading (bad arguments): a closed pipe is not a failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// `-` reads objects from standard input, YAML or JSON, for every command that takes
/// objects, named `STDIN` in messages as kubectl names it.
#[test]
fn objects_from_standard_input() {
    let crd = ex("crontab-crd.yaml");
    let yaml = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: from-stdin}\nspec: {replicas: 20}\n";
    let o = crdgen_stdin(&["validate", "--crd", &crd, "-"], yaml);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        err(&o),
        "The CronTab \"from-stdin\" is invalid:\n* spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10\n"
    );
    let json = r#"{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "j"}, "spec": {"replicas": 2}}"#;
    let o = crdgen_stdin(&["validate", "--crd", &crd, "-o", "json", "-"], json);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "STDIN: document 1: CronTab \"j\": valid\n");
    let admitted: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(admitted["spec"]["cronSpec"], "5 0 * * *", "defaulted");

    let o = crdgen_stdin(&["get", "--crd", &crd, "-"], json);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("NAME   AGE\nj      "), "{}", out(&o));

    let versioned = fixture("versioned-crontab-crd.yaml");
    let o = crdgen_stdin(
        &["convert", "--crd", &versioned, "--to", "v1", "-o", "json", "-"],
        TWO_CRONTABS,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).starts_with("Warning: STDIN: document 1: converting CronTab"),
        "{}",
        err(&o)
    );

    // An update with the old objects from standard input.
    let old = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: j, resourceVersion: '1'}\nspec: {replicas: 2}\n";
    let new = temp("stdin-new.yaml", &old.replace("replicas: 2", "replicas: 3"));
    let o = crdgen_stdin(&["validate", "--crd", &crd, "--old", "-", &new], old);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), format!("{new}: document 1: CronTab \"j\": valid update\n"));

    // Standard input is read once, and an empty one holds no objects.
    let o = crdgen_stdin(&["validate", "--crd", &crd, "-", "-"], yaml);
    assert_eq!(
        (o.status.code(), err(&o)),
        (Some(2), "error: -: standard input can be read only once\n".to_string())
    );
    let o = crdgen_stdin(&["validate", "--crd", &crd, "--old", "-", "-"], yaml);
    assert_eq!(o.status.code(), Some(2));
    let o = crdgen_stdin(&["validate", "--crd", &crd, "-"], "");
    assert_eq!(
        (o.status.code(), err(&o)),
        (Some(2), "error: STDIN: no objects in it\n".to_string())
    );
}

/// A request for a deprecated version gets the API server's warning, as kubectl
/// prints it.
#[test]
fn validate_warns_about_deprecated_versions() {
    let objects = temp("two-crontabs-validate.yaml", TWO_CRONTABS);
    let o = crdgen(&[
        "validate",
        "-q",
        "--crd",
        &fixture("versioned-crontab-crd.yaml"),
        &objects,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        err(&o),
        "Warning: example.com/v1beta1 CronTab is deprecated; use example.com/v2 CronTab\n"
    );
}

/// Files that start with a UTF-8 byte order mark, as some editors write them, read as
/// kubectl reads them: the mark skipped, in a CRD, a `.json` file and standard input.
#[test]
fn a_byte_order_mark_is_skipped() {
    let bom = "\u{feff}";
    let crd_text = std::fs::read_to_string(examples().join("crontab-crd.yaml")).unwrap();
    let crd = temp("bom-crd.yaml", &format!("{bom}{crd_text}"));
    let o = crdgen(&["check", &crd]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let object = r#"{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, "spec": {"cronSpec": "* * * * */5", "image": "i"}}"#;
    let json = temp("bom-object.json", &format!("{bom}{object}"));
    let o = crdgen(&["validate", "--crd", &crd, &json]);
    assert_eq!(err(&o), format!("{json}: document 1: CronTab \"x\": valid\n"));
    let o = crdgen_stdin(&["validate", "--crd", &crd, "-"], &format!("{bom}{object}"));
    assert_eq!(err(&o), "STDIN: document 1: CronTab \"x\": valid\n");
    assert_eq!(o.status.code(), Some(0));
}

/// `crdgen get`: the seed's printer-column example in `kubectl get`'s layout, the
/// defaulted replicas, `-o wide`, and AGE for objects created now.
#[test]
fn get_prints_the_printer_columns() {
    let crd = fixture("printer-columns.yaml");
    let objects = temp(
        "crontabs-get.yaml",
        "apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: my-new-cron-object}
spec: {cronSpec: '* * * * *', image: my-awesome-cron-image}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: b, creationTimestamp: '2026-01-01T00:00:00Z'}
spec: {cronSpec: '5 0 * * *', image: i, replicas: 3}
",
    );
    let o = crdgen(&["get", "--crd", &crd, &objects]);
    assert_eq!(err(&o), "");
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<String> = out(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "NAME                 SPEC        REPLICAS   AGE");
    // Created now: the default replicas, 0 seconds old.
    assert_eq!(lines[1], "my-new-cron-object   * * * * *   1          0s");
    // Created on 2026-01-01: an age in days (`329d`, `2d5h`) or years, whatever today is.
    let age = lines[2]
        .strip_prefix("b                    5 0 * * *   3          ")
        .unwrap();
    assert!(
        age.chars().all(|c| c.is_ascii_digit() || "dhy".contains(c)) && (age.contains('d') || age.contains('y')),
        "{age}"
    );

    let o = crdgen(&["get", "--crd", &crd, "-o", "wide", &objects]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out(&o).starts_with(
            "NAME                 SPEC        REPLICAS   IMAGE                   AGE\n\
             my-new-cron-object   * * * * *   1          my-awesome-cron-image   0s\n"
        ),
        "{}",
        out(&o)
    );
}

/// Objects of several kinds or versions: a table each, in the order they first come,
/// a blank line between, and each name as `<kind>.<group>/<name>`, as kubectl lists them.
#[test]
fn get_lists_several_kinds() {
    let crd = fixture("versioned-crontab-crd.yaml");
    let objects = temp(
        "several-kinds.yaml",
        &format!(
            "{TWO_CRONTABS}---\napiVersion: example.com/v2\nkind: CronTab\nmetadata: {{name: second}}\nspec: {{cronSpec: '1 * * * *'}}\n"
        ),
    );
    let o = crdgen(&["get", "--crd", &crd, &objects]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let table = out(&o);
    let names: Vec<&str> = table.lines().map(|l| l.split(' ').next().unwrap_or("")).collect();
    assert_eq!(
        names,
        [
            "NAME",
            "crontab.example.com/tz",
            "crontab.example.com/second",
            "",
            "NAME",
            "crontab.example.com/old"
        ],
        "{table}"
    );
}

/// A CRD without printer columns lists NAME and AGE; invalid objects are reported as
/// `validate` reports them; unknown kinds are bad input.
#[test]
fn get_defaults_errors_and_bad_input() {
    let crd = ex("crontab-crd.yaml");
    let objects = temp(
        "crontabs-get-2.yaml",
        "apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: my-new-cron-object}
spec: {cronSpec: '* * * * */5', image: my-awesome-cron-image}
",
    );
    let o = crdgen(&["get", "--crd", &crd, &objects]);
    assert_eq!(out(&o), "NAME                 AGE\nmy-new-cron-object   0s\n");
    assert_eq!(o.status.code(), Some(0));

    let o = crdgen(&["get", "--crd", &crd, &ex("invalid.yaml")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("The CronTab \"my-new-cron-object\" is invalid"),
        "{}",
        err(&o)
    );

    let unknown = temp(
        "unknown-kind.yaml",
        "apiVersion: example.com/v1\nkind: Nope\nmetadata: {name: x}\n",
    );
    let o = crdgen(&["get", "--crd", &crd, &unknown]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no CustomResourceDefinition for kind \"Nope\""),
        "{}",
        err(&o)
    );
}

/// `--validate` as kubectl's: unknown fields (metadata's first, then the pruned paths)
/// are warnings by default, refuse the object with `strict`, and pass silently with
/// `ignore` (or `false`, as on the seed page).
#[test]
fn validate_reports_unknown_fields() {
    let crd = ex("crontab-crd.yaml");
    let object = temp(
        "unknown-fields.yaml",
        "apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: my-new-cron-object, unknownMeta: 1}
spec: {cronSpec: '* * * * */5', image: my-awesome-cron-image, someRandomField: 42}
",
    );
    let o = crdgen(&["validate", "-q", "--crd", &crd, &object]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        err(&o),
        "Warning: unknown field \"metadata.unknownMeta\"\nWarning: unknown field \"spec.someRandomField\"\n"
    );
    for strict in ["--validate=strict", "--validate=true"] {
        let o = crdgen(&["validate", "--crd", &crd, strict, &object]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            err(&o),
            format!(
                "Error from server (BadRequest): error when creating {object:?}: CronTab in version \"v1\" cannot be handled as a CronTab: strict decoding error: unknown field \"metadata.unknownMeta\", unknown field \"spec.someRandomField\"\n"
            )
        );
    }
    for ignore in ["--validate=ignore", "--validate=false"] {
        let o = crdgen(&["validate", "--quiet", "--crd", &crd, ignore, "-o", "json", &object]);
        assert_eq!((o.status.code(), err(&o).as_str()), (Some(0), ""));
        let admitted: Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(admitted["spec"].get("someRandomField"), None);
        assert_eq!(admitted["metadata"].get("unknownMeta"), None);
    }
    let o = crdgen(&["validate", "--crd", &crd, "--validate=maybe", &object]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--subresource status` with `--old`: only the status is kept and validated.
#[test]
fn validate_through_the_status_subresource() {
    let crd = fixture("status-crd.yaml");
    let old = temp(
        "status-old.yaml",
        "apiVersion: status.example.com/v1
kind: CronTab
metadata: {name: c, resourceVersion: '7', generation: 2}
spec: {replicas: 2}
status: {replicas: 1}
",
    );
    let new = temp(
        "status-new.yaml",
        "apiVersion: status.example.com/v1
kind: CronTab
metadata: {name: c, resourceVersion: '7', labels: {a: b}}
spec: {replicas: 50}
status: {replicas: 3}
",
    );
    let o = crdgen(&[
        "validate",
        "--crd",
        &crd,
        "--old",
        &old,
        "--subresource",
        "status",
        "-o",
        "json",
        &new,
    ]);
    assert_eq!(
        (o.status.code(), err(&o)),
        (
            Some(0),
            format!("{new}: document 1: CronTab \"c\": valid status update\n")
        )
    );
    let admitted: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(admitted["spec"], serde_json::json!({"replicas": 2}));
    assert_eq!(admitted["status"], serde_json::json!({"replicas": 3}));
    assert_eq!(admitted["metadata"].get("labels"), None);
    assert_eq!(admitted["metadata"]["generation"], 2);
    // The main resource's update of the same object validates the spec.
    let o = crdgen(&["validate", "--crd", &crd, "--old", &old, &new]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("spec.replicas: Invalid value: 50"), "{}", err(&o));
    // A subresource needs the stored object.
    let o = crdgen(&["validate", "--crd", &crd, "--subresource", "status", &new]);
    assert_eq!(o.status.code(), Some(2));
}

/// The unknown fields of embedded resources' metadata come last, sorted, as the API
/// server's strict decoding lists them.
#[test]
fn validate_reports_unknown_fields_of_embedded_metadata() {
    let crd = format!("{}/tests/fixtures/embedded.yaml", env!("CARGO_MANIFEST_DIR"));
    let object = temp(
        "embedded-unknown.yaml",
        "apiVersion: embedded.example.com/v1
kind: Wrapper
metadata: {name: w}
spec:
  extra: 1
  template: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, zeta: 1, alpha: 2}, data: {a: b}}
  raw: {apiVersion: v1, kind: Secret, metadata: {name: s, unknownEmbeddedMeta: 3}}
",
    );
    let o = crdgen(&["validate", "--crd", &crd, "--validate=strict", &object]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).ends_with(
            "strict decoding error: unknown field \"spec.extra\", unknown field \"spec.raw.metadata.unknownEmbeddedMeta\", unknown field \"spec.template.metadata.alpha\", unknown field \"spec.template.metadata.zeta\"\n"
        ),
        "{}",
        err(&o)
    );
}

/// A reader that goes away (`crdgen generate ... | head`) ends the output quietly,
/// without a panic.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let crds = format!("{}/../../shared/crds/cert-manager", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(["generate", &crds])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
    assert_eq!(o.status.code(), Some(0));
}
