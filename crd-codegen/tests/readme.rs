//! README.md's claims that can be checked here: the CLI usage it shows is `crdgen`'s,
//! the examples it names exist, the files it (and `docs/`) links or names exist, and
//! the snippets `scripts/newcomer.sh` builds are marked. (The snippets themselves are
//! built and tested by that script.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn readme() -> String {
    read("README.md")
}

/// The lines of the fenced block that follows the line `marker`.
fn block_after<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| l.trim() != marker).skip(1);
    let fence = lines.next().unwrap_or_else(|| panic!("no block after {marker}"));
    assert!(fence.starts_with("```"), "{marker} is not followed by a code block");
    lines.take_while(|l| !l.starts_with("```")).collect()
}

fn crdgen(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_crdgen")).args(args).output().unwrap();
    assert!(o.status.success(), "crdgen {args:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// The CLI block lists every command `crdgen --help` lists, in its order, each with
/// the usage line of `crdgen <command> --help`.
#[test]
fn the_cli_usage_is_crdgens() {
    let help = crdgen(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 6, "{help}");
    let want: Vec<String> = commands
        .iter()
        .map(|c| {
            let help = crdgen(&[c, "--help"]);
            let usage = help.lines().find_map(|l| l.strip_prefix("Usage: "));
            usage
                .unwrap_or_else(|| panic!("no usage in crdgen {c} --help"))
                .to_string()
        })
        .collect();
    let readme = readme();
    let shown: Vec<String> = block_after(&readme, "<!-- crdgen usage -->")
        .iter()
        .map(|l| l.split(" # ").next().unwrap_or("").trim_end().to_string())
        .collect();
    assert_eq!(shown, want);
}

/// Every example README names (`cargo run --example NAME`, and the names of the
/// examples table) is an example of `examples/Cargo.toml`.
#[test]
fn the_examples_exist() {
    let manifest = read("examples/Cargo.toml");
    let examples: Vec<&str> = manifest
        .split("[[example]]")
        .skip(1)
        .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("name = ")))
        .map(|n| n.trim_matches('"'))
        .collect();
    let readme = readme();
    let mut named: Vec<&str> = readme
        .split("--example ")
        .skip(1)
        .filter_map(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
        .filter(|n| *n != "NAME")
        .collect();
    // The examples table: a row per example, its name in the first cell.
    let table = readme
        .split("| example | what it shows |")
        .nth(1)
        .expect("the examples table");
    named.extend(
        table
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("| `"))
            .filter_map(|l| l.split('`').nth(1)),
    );
    assert!(named.len() >= 6, "{named:?}");
    for name in named {
        assert!(
            examples.contains(&name),
            "README names the example {name}, which examples/Cargo.toml does not have"
        );
    }
}

/// Every relative link of README.md and the documents in `docs/` leads to a file or
/// directory, and so does every repository path they name in backticks.
#[test]
fn the_files_named_exist() {
    let mut documents = vec![PathBuf::from("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path.strip_prefix(root()).unwrap().to_path_buf());
        }
    }
    let mut checked = 0;
    for document in &documents {
        let text = read(document.to_str().unwrap());
        let dir = root().join(document).parent().unwrap().to_path_buf();
        for link in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
            let target = link.split('#').next().unwrap();
            if link.starts_with("http") || link.starts_with('#') || target.is_empty() {
                continue;
            }
            assert!(
                dir.join(target).exists(),
                "{}: the link {link} leads nowhere",
                document.display()
            );
            checked += 1;
        }
        let prefixes = [
            "examples/",
            "crd-runtime/",
            "crd-codegen/",
            "crd-derive/",
            "tests/",
            "scripts/",
            "docs/",
            ".ci/",
        ];
        for quoted in text.split('`').skip(1).step_by(2) {
            let path = quoted.trim_end_matches('/');
            let is_path = prefixes.iter().any(|p| quoted.starts_with(p))
                && !path.contains(' ')
                && !path.contains('*')
                && !path.contains('<');
            if is_path {
                assert!(
                    root().join(path).exists(),
                    "{}: `{quoted}` does not exist",
                    document.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} paths checked");
}

/// The snippets `scripts/newcomer.sh` builds into a crate per route are marked, each
/// route with its `Cargo.toml` lines and `src/main.rs` (and the build.rs route its
/// `build.rs`), and use the path form.
#[test]
fn the_newcomer_snippets_are_marked() {
    let readme = readme();
    for (route, files) in [
        ("build-rs", &["Cargo.toml", "build.rs", "src/main.rs"][..]),
        ("crd-types", &["Cargo.toml", "src/main.rs"]),
        ("derive", &["Cargo.toml", "src/main.rs"]),
    ] {
        for file in files {
            let block = block_after(&readme, &format!("<!-- newcomer {route} {file} -->"));
            assert!(!block.is_empty(), "{route} {file}");
            if *file == "Cargo.toml" {
                assert!(
                    block.iter().any(|l| l.contains("path = \"../crd-rs/crd-runtime\"")),
                    "{route}: the path form"
                );
            }
        }
    }
    let script = read("scripts/newcomer.sh");
    assert!(
        script.contains("<!-- newcomer $route $file -->"),
        "the script reads the markers"
    );
}
