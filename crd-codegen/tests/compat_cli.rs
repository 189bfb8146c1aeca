//! `crdgen diff` as users run it: exit codes, `-o json`, a crdify configuration file,
//! `git:REF:PATH` on a scratch repository, and `--objects` held to what `crdgen
//! validate` says of each object.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn crdgen(args: &[&str], dir: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crdgen"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crdgen-compat-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        assert_eq!(out.matches(from).count(), 1, "{from:?} must occur once");
        out = out.replacen(from, to, 1);
    }
    out
}

/// The seed page's CronTab CRD.
fn crontab_crd() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/examples/crontab-crd.yaml");
    std::fs::read_to_string(path).ok()
}

const WIDGET: &str = r#"apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, pattern: '^[a-z]+$', description: the name}
              replicas: {type: integer, maximum: 10}
              mode: {type: string, enum: [Fast, Slow]}
              note: {type: string}
              hint: {type: string, nullable: true}
              size: {type: integer}
"#;

/// Every crdify rule its configuration can tune, each changed once.
fn widget_changed() -> String {
    edit(
        WIDGET,
        &[
            (
                "pattern: '^[a-z]+$', description: the name",
                "description: the widget's name",
            ),
            ("maximum: 10", "maximum: 5"),
            ("enum: [Fast, Slow]", "enum: [Fast, Slow, Medium]"),
            ("note: {type: string}", "note: {type: string, nullable: true}"),
            ("hint: {type: string, nullable: true}", "hint: {type: string}"),
            ("size: {type: integer}", "size: {type: integer, title: Size}"),
        ],
    )
}

#[test]
fn exit_codes_and_json() {
    let dir = scratch("exit");
    let old = write(&dir, "old.yaml", WIDGET);
    let o = crdgen(&["diff", &old, &old], None);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));

    let new = write(&dir, "new.yaml", &widget_changed());
    let o = crdgen(&["diff", &old, &new], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        // Properties in the API server's order, by name.
        "v1 ^.spec.hint: nullable: removed\n\
         v1 ^.spec.mode: enum: values added: \"Medium\"\n\
         v1 ^.spec.name: pattern: removed: \"^[a-z]+$\"\n\
         v1 ^.spec.name: description: changed\n\
         v1 ^.spec.note: nullable: added\n\
         v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)\n\
         v1 ^.spec.size: unhandled: changed: title\n"
    );
    let o = crdgen(&["diff", &old, &new, "-o", "json"], None);
    let json: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["findings"][5],
        serde_json::json!({
            "version": "v1", "path": "^.spec.replicas", "rule": "maximum", "enforcement": "Error",
            "change": "decreased: 10 -> 5", "ratcheting": "ratcheted",
        })
    );
    assert_eq!(json["findings"].as_array().unwrap().len(), 7);

    // Bad input names the file and exits 2.
    let o = crdgen(&["diff", "/nonexistent/old.yaml", &new], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: /nonexistent/old.yaml: cannot read:"),
        "{}",
        stderr(&o)
    );
    let invalid = write(&dir, "invalid.yaml", &edit(WIDGET, &[("maximum: 10", "maximum: ten")]));
    let o = crdgen(&["diff", &old, &invalid], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid.yaml:") && stderr(&o).contains("properties[replicas].maximum"),
        "{}",
        stderr(&o)
    );
    let two = write(&dir, "two.yaml", &format!("{WIDGET}---\n{WIDGET}"));
    let o = crdgen(&["diff", &old, &two], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("error: {two}: holds 2 CustomResourceDefinitions; compare one at a time\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A configuration written as crdify's documentation shows it: enforcement per rule,
/// the enum, pattern and nullable policies, unhandledEnforcement.
#[test]
fn a_crdify_configuration() {
    let dir = scratch("config");
    let old = write(&dir, "old.yaml", WIDGET);
    let new = write(&dir, "new.yaml", &widget_changed());
    let config = write(
        &dir,
        "crdify.yaml",
        "validations:
  - name: maximum
    enforcement: Warn
  - name: description
    enforcement: None
  # allow adding new enum values
  - name: enum
    enforcement: Error
    configuration:
      additionPolicy: Allow
  - name: pattern
    enforcement: Error
    configuration:
      removalPolicy: Allow
  - name: nullable
    enforcement: Error
    configuration:
      additionPolicy: Allow
      removalPolicy: Allow
unhandledEnforcement: None
",
    );
    let o = crdgen(&["diff", "--config", &config, &old, &new], None);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str(), stderr(&o).as_str()),
        (
            Some(0),
            "warning: v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)\n",
            ""
        )
    );
    // Only the policies named are allowed: removing nullable is still an error.
    let partial = write(
        &dir,
        "partial.yaml",
        "validations:\n- name: nullable\n  enforcement: Error\n  configuration:\n    additionPolicy: Allow\n",
    );
    let o = crdgen(&["diff", "--config", &partial, &old, &new], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("nullable: added"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("v1 ^.spec.hint: nullable: removed\n"),
        "{}",
        stdout(&o)
    );

    let bad = write(&dir, "bad.yaml", "validations:\n- name: maximum\n  enforcement: warn\n");
    let o = crdgen(&["diff", "--config", &bad, &old, &new], None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {bad}: validations[0].enforcement: unknown enforcement \"warn\"; must be Error, Warn or None\n"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `conversion: Ignore`: served versions converted by a webhook are not compared with
/// each other.
#[test]
fn conversion_ignore() {
    let dir = scratch("conversion");
    let version = |name: &str, storage: bool, fields: &str| {
        format!(
            "  - name: {name}\n    served: true\n    storage: {storage}\n    schema: {{openAPIV3Schema: {{type: object, properties: {{spec: {{type: object, properties: {{{fields}}}}}}}}}}}\n"
        )
    };
    let crd = |v1_fields: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: gadgets.example.com}}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: gadgets, kind: Gadget}}\n  conversion: {{strategy: Webhook, webhook: {{clientConfig: {{url: 'https://convert.example.com/'}}, conversionReviewVersions: [v1]}}}}\n  versions:\n{}{}",
            version("v1beta1", false, "a: {type: string}, b: {type: string}"),
            version("v1", true, v1_fields)
        )
    };
    let old = write(&dir, "old.yaml", &crd("a: {type: string}, b: {type: string}"));
    let new = write(&dir, "new.yaml", &crd("a: {type: string}, b: {type: integer}"));
    let o = crdgen(&["diff", &old, &new], None);
    assert_eq!(
        stdout(&o),
        "v1 ^.spec.b: type: changed: \"string\" -> \"integer\" (ratcheted)\nv1beta1 -> v1 ^.spec.b: type: changed: \"string\" -> \"integer\"\n"
    );
    let config = write(&dir, "crdify.yaml", "conversion: Ignore\n");
    let o = crdgen(&["diff", "--config", &config, &old, &new], None);
    assert_eq!(
        stdout(&o),
        "v1 ^.spec.b: type: changed: \"string\" -> \"integer\" (ratcheted)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `git:REF:PATH` reads the released CRD from a tag of the repository the command runs
/// in, with the `git` binary.
#[test]
fn old_crd_from_git() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("git not found; skipping");
        return;
    }
    let repo = scratch("git");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
            .args(args)
            .current_dir(&repo)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    git(&["init", "-q"]);
    write(&repo, "crds/widget.yaml", WIDGET);
    git(&["add", "crds/widget.yaml"]);
    git(&["commit", "-q", "-m", "release"]);
    git(&["tag", "v1.0.0"]);
    write(
        &repo,
        "crds/widget.yaml",
        &edit(WIDGET, &[("maximum: 10", "maximum: 5")]),
    );

    let o = crdgen(
        &["diff", "git:v1.0.0:crds/widget.yaml", "crds/widget.yaml"],
        Some(&repo),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "v1 ^.spec.replicas: maximum: decreased: 10 -> 5 (ratcheted)\n"
    );
    // Both sides may come from git.
    let o = crdgen(
        &["diff", "git:v1.0.0:crds/widget.yaml", "git:HEAD:crds/widget.yaml"],
        Some(&repo),
    );
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));

    let o = crdgen(&["diff", "git:v9:crds/widget.yaml", "crds/widget.yaml"], Some(&repo));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: git:v9:crds/widget.yaml: git show failed: fatal:"),
        "{}",
        stderr(&o)
    );
    let o = crdgen(&["diff", "git:v1.0.0", "crds/widget.yaml"], Some(&repo));
    assert_eq!(
        stderr(&o),
        "error: git:v1.0.0: expected git:REF:PATH, such as git:v1.2.0:crds/crd.yaml\n"
    );
    std::fs::remove_dir_all(&repo).unwrap();
}

/// One object, as a stored object: a resource version, in the default namespace.
fn cron_tab(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {{name: {name}, namespace: default, resourceVersion: '12'}}\nspec: {spec}\n"
    )
}

/// What `crdgen validate` says of the objects in `file`: its stderr without the
/// warnings, split per refused object (each refusal starts with `The CronTab`), and
/// the unknown fields it warns about.
fn validate(crd: &str, old: Option<&str>, file: &str) -> (Vec<String>, Vec<String>) {
    let mut args = vec!["validate", "--crd", crd];
    if let Some(old) = old {
        args.extend(["--old", old]);
    }
    args.push(file);
    let o = crdgen(&args, None);
    let text = stderr(&o);
    let unknown = text
        .lines()
        .filter_map(|l| l.strip_prefix("Warning: unknown field "))
        .map(|f| f.trim_matches('"').to_string())
        .collect();
    let refusals = text
        .split("The CronTab ")
        .skip(1)
        .map(|r| format!("The CronTab {}", r.trim_end()))
        .map(|r| {
            r.lines()
                .filter(|l| !l.starts_with("Warning:"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    (refusals, unknown)
}

/// Three planted changes of the seed CronTab (a removed field, a tightened bound, a new
/// required field): the objects `--objects` reports, and their messages, are what
/// `crdgen validate` says (create; `--old` the same file: update), and unaffected
/// objects are not listed.
#[test]
fn objects_evidence_matches_validate() {
    let Some(old_text) = crontab_crd() else {
        eprintln!("../shared not found; skipping");
        return;
    };
    let dir = scratch("objects");
    let old = write(&dir, "old.yaml", &old_text);
    let planted = [
        (
            "removed-field",
            vec![("                image:\n                  type: string\n", "")],
            vec![
                ("a", "{cronSpec: '* * * * */5', image: nginx, replicas: 2}"),
                ("b", "{cronSpec: '* * * * */5', replicas: 2}"),
            ],
            vec!["a"],
        ),
        (
            "tightened-bound",
            vec![("maximum: 10", "maximum: 5")],
            vec![("a", "{cronSpec: '* * * * */5', replicas: 8}"), ("b", "{replicas: 3}")],
            vec!["a"],
        ),
        (
            "new-required-field",
            vec![(
                "              type: object\n              properties:\n                cronSpec:",
                "              type: object\n              required: [owner]\n              properties:\n                owner: {type: string}\n                cronSpec:",
            )],
            vec![
                // Breaks `required`; the update is ratcheted.
                ("a", "{replicas: 2}"),
                // Its preserved unknown field keeps `spec` from being unchanged: the
                // update is refused too.
                ("b", "{replicas: 2, json: {extra: 1}}"),
                ("c", "{owner: ops, replicas: 2}"),
            ],
            vec!["a", "b"],
        ),
    ];
    for (name, edits, objects, affected) in planted {
        let new = write(&dir, &format!("{name}.yaml"), &edit(&old_text, &edits));
        let mut reported = Vec::new();
        for (object, spec) in &objects {
            let file = write(&dir, &format!("{name}-{object}.yaml"), &cron_tab(object, spec));
            let o = crdgen(&["diff", &old, &new, "-o", "json", "--objects", &file], None);
            let json: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)));
            let objects = &json["objects"];
            assert_eq!(objects["checked"], 1, "{name}/{object}");
            let Some(report) = objects["affected"].as_array().unwrap().first() else {
                // Unaffected: validate admits it, and no field is lost.
                let (creates, unknown) = validate(&new, None, &file);
                let (updates, _) = validate(&new, Some(&file), &file);
                assert!(
                    creates.is_empty() && updates.is_empty() && unknown.is_empty(),
                    "{name}/{object}"
                );
                continue;
            };
            reported.push(*object);
            let text = |v: &Value| v.as_str().map(String::from);
            let (creates, unknown_new) = validate(&new, None, &file);
            let (updates, _) = validate(&new, Some(&file), &file);
            assert_eq!(text(&report["create"]), creates.first().cloned(), "{name}/{object}");
            assert_eq!(text(&report["update"]), updates.first().cloned(), "{name}/{object}");
            let (_, unknown_old) = validate(&old, None, &file);
            let lost: Vec<&String> = unknown_new.iter().filter(|f| !unknown_old.contains(f)).collect();
            assert_eq!(
                report["pruned"].as_array().unwrap().len(),
                lost.len(),
                "{name}/{object}"
            );
            for (reported, lost) in report["pruned"].as_array().unwrap().iter().zip(lost) {
                assert_eq!(reported.as_str(), Some(lost.as_str()));
            }
        }
        assert_eq!(reported, affected, "{name}");

        // All the objects in one dump, read from standard input: the affected ones
        // are listed, the others counted.
        let dump: String = objects
            .iter()
            .map(|(object, spec)| cron_tab(object, spec))
            .collect::<Vec<_>>()
            .join("---\n");
        let mut child = Command::new(env!("CARGO_BIN_EXE_crdgen"))
            .args(["diff", &old, &new, "--objects", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(dump.as_bytes()).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(1));
        let text = stdout(&o);
        for (object, _) in &objects {
            let listed = text.contains(&format!("CronTab \"{object}\" in namespace \"default\""));
            assert_eq!(listed, affected.contains(object), "{name}/{object}:\n{text}");
        }
        assert!(text.ends_with(&format!(
            "objects: {} checked, {} affected, {} unaffected (0 of other kinds skipped)\n",
            objects.len(),
            affected.len(),
            objects.len() - affected.len()
        )));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
