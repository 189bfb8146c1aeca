//! Hostile input is refused within bounds: the limits of docs/REFERENCE.md's "Hostile input"
//! section, each with its message. Memory is measured by this binary's allocator
//! (peak bytes allocated while reading).

use crd_codegen::source::parse_text;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Tests that measure run one at a time.
static MEASURING: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `f`'s result, how long it took and the most memory it held beyond what was live
/// before.
fn measured<T>(f: impl FnOnce() -> T) -> (T, Duration, usize) {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let out = f();
    let elapsed = start.elapsed();
    (out, elapsed, PEAK.load(Ordering::Relaxed).saturating_sub(before))
}

/// The classic billion laughs (about 500 bytes): nine levels of ten aliases each,
/// 10^9 strings when expanded.
fn billion_laughs() -> String {
    let mut text =
        String::from("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..=9 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    text
}

const MB: usize = 1 << 20;

#[test]
fn billion_laughs_is_refused_in_under_a_second_and_100_mb() {
    let text = billion_laughs();
    assert!(text.len() < 600);
    let (result, elapsed, peak) = measured(|| parse_text(Path::new("laughs.yaml"), text));
    let e = result.expect_err("refused");
    assert_eq!(
        e.to_string(),
        "error: laughs.yaml:4: invalid YAML: document contains excessive aliasing (column 18)"
    );
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert!(peak < 100 * MB, "{} MB", peak / MB);
}

/// About the most aliasing go-yaml allows (98% of a document of 400,000 nodes: a
/// list of 100 strings under 3,900 keys) is read, within the same bounds.
#[test]
fn the_aliasing_go_yaml_allows_stays_bounded() {
    let list: Vec<String> = (0..100).map(|i| format!("s{i}")).collect();
    let mut text = format!("k0: &l [{}]\n", list.join(","));
    for i in 1..3900 {
        text.push_str(&format!("k{i}: *l\n"));
    }
    let (result, elapsed, peak) = measured(|| parse_text(Path::new("many.yaml"), text));
    let docs = result.expect("read");
    assert_eq!(docs[0].value["k3899"][99], "s99");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert!(peak < 100 * MB, "{} MB", peak / MB);
}

#[test]
fn deep_nesting_is_refused() {
    let text = "- ".repeat(100_000) + "x";
    let (result, elapsed, peak) = measured(|| parse_text(Path::new("deep.yaml"), text));
    assert_eq!(
        result.expect_err("refused").to_string(),
        "error: deep.yaml:1: invalid YAML: exceeded max depth of 1000 (column 2001)"
    );
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert!(peak < 100 * MB, "{} MB", peak / MB);
}

/// `crdgen validate` names the file and exits 2 (bad input).
#[test]
fn crdgen_validate_refuses_the_bomb() {
    let dir = std::env::temp_dir().join(format!("crdgen-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bomb = dir.join("laughs.yaml");
    std::fs::write(&bomb, billion_laughs()).unwrap();
    let crd = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/spec/examples/crontab-crd.yaml"
    );
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(["validate", "--crd", crd])
        .arg(&bomb)
        .output()
        .unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("laughs.yaml:4: invalid YAML: document contains excessive aliasing"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A document over the API server's 3 MiB request limit is refused (YAML and JSON),
/// one just under it is read; argo-workflows' largest corpus CRD is 2.9 MB. A YAML
/// document's size includes its `---` line.
#[test]
fn documents_over_3_mib_are_refused() {
    let limit = crd_codegen::yaml::MAX_DOCUMENT_SIZE;
    let doc = |size: usize| {
        let mut text = String::from("a: \"");
        text.push_str(&"x".repeat(size - 6));
        text.push_str("\"\n");
        assert_eq!(text.len(), size);
        text
    };
    let small = format!("{}---\n{}", doc(1000), doc(limit - 4));
    assert_eq!(parse_text(Path::new("ok.yaml"), small).unwrap().len(), 2);
    let big = format!("{}---\n{}", doc(1000), doc(limit - 3));
    assert_eq!(
        parse_text(Path::new("big.yaml"), big).expect_err("refused").to_string(),
        "error: big.yaml:2: invalid YAML: document too large: 3145729 bytes, the API server accepts at most 3145728 bytes (column 1)"
    );
    // Bytes, not characters: 1.6 million two-byte characters are over the limit
    // (`---` line 4 bytes, `a: "` 4, the string 3,200,000, `"` and the newline 2).
    let wide = format!(
        "{}---
a: \"{}\"\n",
        doc(1000),
        "é".repeat(1_600_000)
    );
    assert_eq!(
        parse_text(Path::new("wide.yaml"), wide)
            .expect_err("refused")
            .to_string(),
        "error: wide.yaml:2: invalid YAML: document too large: 3200010 bytes, the API server accepts at most 3145728 bytes (column 1)"
    );
    let json = format!("{{\"a\": \"{}\"}}", "x".repeat(limit));
    assert_eq!(
        parse_text(Path::new("big.json"), json)
            .expect_err("refused")
            .to_string(),
        "error: big.json:1: document too large: 3145737 bytes, the API server accepts at most 3145728 bytes"
    );
}

/// Files are read as UTF-8 (as the API server reads JSON and YAML), and no file larger
/// than 64 MiB is read whole.
#[test]
fn files_must_be_utf8_and_bounded() {
    let dir = std::env::temp_dir().join(format!("crdgen-hostile-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let latin1 = dir.join("latin1.yaml");
    std::fs::write(&latin1, b"name: caf\xe9\n").unwrap();
    let e = crd_codegen::source::read_file(&latin1).expect_err("refused");
    assert!(
        e.to_string()
            .ends_with("latin1.yaml: not UTF-8: invalid byte at offset 9"),
        "{e}"
    );

    let huge = dir.join("huge.yaml");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(crd_codegen::source::MAX_FILE_SIZE + 1).unwrap();
    let (result, _, peak) = measured(|| crd_codegen::source::read_file(&huge));
    assert!(
        result
            .expect_err("refused")
            .to_string()
            .ends_with("huge.yaml: file too large: more than 67108864 bytes")
    );
    // Refused by its size, before reading.
    assert!(peak < MB, "{} MB", peak / MB);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bytes generated on the fly: `count` copies of `doc` separated by `---` lines, so
/// that a stream of any length costs no memory to provide.
struct Repeated {
    doc: &'static [u8],
    count: usize,
    at: usize,
}

impl std::io::Read for Repeated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let unit = [self.doc, b"---\n"].concat();
        let total = unit.len() * self.count;
        let n = buf.len().min(total - self.at);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = unit[(self.at + i) % unit.len()];
        }
        self.at += n;
        Ok(n)
    }
}

/// Manifests are streamed: reading 5,000 documents holds about one at a time, and a
/// document of any size in a stream is refused without being built whole.
#[test]
fn manifests_are_read_in_bounded_memory() {
    let doc = b"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {replicas: 2, image: \xc3\xa9}\n";
    let stream = Repeated {
        doc,
        count: 5_000,
        at: 0,
    };
    let mut objects = 0;
    let (result, _, peak) = measured(|| {
        crd_codegen::source::read_manifest_from(Path::new("many.yaml"), stream, |o| {
            assert_eq!(o.doc, objects + 1);
            objects += 1;
        })
    });
    result.unwrap();
    assert_eq!(objects, 5_000);
    assert!(peak < MB, "{} KB", peak / 1024);

    // One document of 8 MB (a mapping of 420,000 keys): refused with its size, its
    // values built only to the limit (about 26 MB of them; the whole document's would
    // take twice as much).
    let big = BigMapping {
        keys: 420_000,
        next: 0,
        pending: Vec::new(),
    };
    let (result, _, peak) = measured(|| crd_codegen::source::read_manifest_from(Path::new("big.yaml"), big, |_| {}));
    let message = result.expect_err("refused").to_string();
    assert!(
        message.starts_with("error: big.yaml:1: invalid YAML: document too large: 7"),
        "{message}"
    );
    assert!(peak < 36 * MB, "{} MB", peak / MB);
}

/// One YAML document of `keys` entries, generated on the fly.
struct BigMapping {
    keys: usize,
    next: usize,
    pending: Vec<u8>,
}

impl std::io::Read for BigMapping {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.len() < buf.len() && self.next < self.keys {
            self.pending.extend(format!("key{:08}: value\n", self.next).bytes());
            self.next += 1;
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Integers beyond 64 bits are floats, and floats beyond `f64` are strings, as
/// go-yaml reads them; nothing overflows or panics.
#[test]
fn number_extremes_read_as_go_yaml_reads_them() {
    let text = "a: 99999999999999999999999\nb: -9223372036854775809\nc: 18446744073709551615\nd: 1e400\ne: 1e-400\nf: 0x7FFFFFFFFFFFFFFFFF\n";
    let docs = parse_text(Path::new("n.yaml"), text.into()).unwrap();
    let v = &docs[0].value;
    assert_eq!(v["a"], serde_json::json!(1e23));
    assert_eq!(v["b"], serde_json::json!(-9223372036854775809.0));
    assert_eq!(v["c"], serde_json::json!(18446744073709551615u64));
    assert_eq!(v["d"], "1e400");
    assert_eq!(v["e"], serde_json::json!(0.0));
    assert_eq!(v["f"], "0x7FFFFFFFFFFFFFFFFF");
}

/// Patterns computed at run time (CEL `matches`, `find`, `findAll` on a pattern that is
/// not a literal) come from a process-wide cache of 512 entries. Large compiled patterns
/// are not kept: before, 512 patterns of up to 128 MiB each could be, and the cel fuzz
/// target grew past 2 GB.
#[test]
fn large_run_time_patterns_are_not_kept() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let before = LIVE.load(Ordering::Relaxed);
    for i in 0..30 {
        // A class of every letter, repeated: some megabytes of program each.
        let pattern = format!("^\\pL{{200}}x{{{i}}}$");
        let re = crd_runtime::regex::cached(&pattern).unwrap();
        assert!(!re.is_match("abc"));
    }
    // A small pattern is kept and found again.
    let small = crd_runtime::regex::cached("^a+$").unwrap();
    assert!(std::sync::Arc::ptr_eq(
        &small,
        &crd_runtime::regex::cached("^a+$").unwrap()
    ));
    let kept = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    assert!(kept < 16 << 20, "{} MB kept", kept >> 20);
}
