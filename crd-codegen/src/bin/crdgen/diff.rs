//! `crdgen diff OLD NEW`: the incompatible changes from one CRD to another
//! (`crd_codegen::compat`), and with `--objects` what they do to given objects.

use super::{exit_code, write_stdout};
use crd_codegen::compat::{self, ComparedCrd, Config, Evidence};
use crd_codegen::source::read_each_manifest;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(old: &str, new: &str, config: Option<&Path>, json: bool, objects: &[PathBuf]) -> ExitCode {
    let config = match config.map(Config::read) {
        None => Config::default(),
        Some(Ok((config, warnings))) => {
            warnings.iter().for_each(|w| eprintln!("warning: {w}"));
            config
        }
        Some(Err(errors)) => {
            errors.iter().for_each(|e| eprintln!("error: {e}"));
            return ExitCode::from(2);
        }
    };
    let read = |location: &str| match ComparedCrd::read(location) {
        Ok(crd) => {
            crd.warnings.iter().for_each(|w| eprintln!("{w}"));
            Some(crd)
        }
        Err(diagnostics) => {
            diagnostics.iter().for_each(|d| eprintln!("{d}"));
            None
        }
    };
    let (Some(old), Some(new)) = (read(old), read(new)) else {
        return ExitCode::from(2);
    };
    let findings = compat::diff(&old, &new, &config);
    if !json {
        write_stdout(&findings.iter().map(|f| format!("{f}\n")).collect::<String>());
    }

    // Objects are examined as they are read; in text an affected one is printed at
    // once, so memory holds one document however many the dump has.
    let (mut checked, mut affected, mut other_kinds) = (0usize, 0usize, 0usize);
    let mut affected_json = Vec::new();
    let mut unreadable = false;
    if !objects.is_empty() {
        let evidence = Evidence::new(&old, &new);
        let mut examine = |object| match evidence.examine(object) {
            None => other_kinds += 1,
            Some(report) => {
                checked += 1;
                if report.is_affected() {
                    affected += 1;
                    if json {
                        affected_json.push(report.to_json());
                    } else {
                        write_stdout(&format!("{report}\n"));
                    }
                }
            }
        };
        for e in read_each_manifest(objects, &mut examine) {
            eprintln!("{e}");
            unreadable = true;
        }
    }
    let unaffected = checked - affected;
    if json {
        let mut out = json!({"findings": findings.iter().map(|f| f.to_json()).collect::<Vec<_>>()});
        if !objects.is_empty() {
            out["objects"] = json!({
                "checked": checked,
                "affected": affected_json,
                "unaffected": unaffected,
                "otherKinds": other_kinds,
            });
        }
        write_stdout(&format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default()));
    } else if !objects.is_empty() {
        write_stdout(&format!(
            "objects: {checked} checked, {affected} affected, {unaffected} unaffected ({other_kinds} of other kinds skipped)\n"
        ));
    }
    let failed = findings.iter().any(|f| f.is_error()) || affected > 0;
    exit_code(unreadable, failed)
}
