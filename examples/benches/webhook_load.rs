//! The conversion webhook under load on loopback (`cargo bench -p crd-examples --bench
//! webhook_load`): 64 concurrent keep-alive HTTPS connections post reviews of 1, 10
//! and 100 CronTabs (v1 → v1beta1) for a fixed time each; the table gives requests
//! per second, p50 and p99 latency (client-side, from sending the request to the end
//! of the response body) and the process's peak memory (server and clients share the
//! process, so this bounds the server's). Not a timed test: it measures, it asserts
//! only that every response is a successful review.

// The test's server and client; the bench uses only part of it.
#[allow(dead_code)]
#[path = "../tests/support/mod.rs"]
mod support;

use crd_examples::webhook_server::sample_review;
use std::time::{Duration, Instant};

const CONNECTIONS: usize = 64;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is ignored.
    let seconds: u64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = support::start().await;
        println!("| objects per review | requests/s | p50 | p99 | peak RSS |");
        println!("|---|---|---|---|---|");
        for n in [1, 10, 100] {
            let body = sample_review(n);
            let deadline = Instant::now() + Duration::from_secs(seconds);
            let mut tasks = Vec::new();
            for _ in 0..CONNECTIONS {
                let mut sender = server.connect().await;
                let body = body.clone();
                tasks.push(tokio::spawn(async move {
                    let mut latencies = Vec::new();
                    while Instant::now() < deadline {
                        let start = Instant::now();
                        let (status, response) = support::send_on(&mut sender, "POST", "/convert", body.clone()).await;
                        latencies.push(start.elapsed());
                        assert!(status.is_success());
                        assert!(response.windows(9).any(|w| w == b"\"Success\""), "a failed review");
                    }
                    latencies
                }));
            }
            let started = Instant::now();
            let mut latencies = Vec::new();
            for t in tasks {
                latencies.extend(t.await.unwrap());
            }
            let elapsed = started.elapsed().as_secs_f64();
            latencies.sort();
            let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q) as usize];
            println!(
                "| {n} | {:.0} | {:.2} ms | {:.2} ms | {} |",
                latencies.len() as f64 / elapsed,
                at(0.50).as_secs_f64() * 1e3,
                at(0.99).as_secs_f64() * 1e3,
                peak_rss()
            );
        }
        server.stop().await;
    });
}

/// `VmHWM` of this process (Linux), or `?`.
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l[6..].trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}
