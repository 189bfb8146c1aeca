//! The conversion webhook's handler against reading its input (`cargo bench -p
//! crd-examples --bench conversion_review`): for reviews of 1, 10 and 100 CronTabs
//! (v1 → v1beta1 through the seed's hooks),
//!
//! - `review/handle/N`: the webhook example's handler on the request body: parse
//!   (`review::read_request`), convert every object (the generated `respond`: map,
//!   hooks, prune with the target schema; metadata carried over untouched), and write
//!   the response body as the server does;
//! - `review/handle_checked/N`: the same with `review::handle` and the generated
//!   `convert_value`, which checks each converted object's metadata as the API server
//!   will (for a conversion that may touch it);
//! - `review/parse/N`: `serde_json` parsing the same body into a `Value`.
//!
//! The target is `handle/10` at most 2x `parse/10`.

use crd_examples::webhook_server::{self, HostPort, crontab::example_com::cron_tab_conversion};
use crd_runtime::review;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("review");
    for n in [1, 10, 100] {
        let body = webhook_server::sample_review(n);
        // The handler succeeds on this body (checked, not assumed).
        let checked = review::handle(&body, cron_tab_conversion::convert_value::<HostPort>).unwrap();
        assert_eq!(checked["response"]["result"]["status"], "Success");
        let request = review::read_request(&body).unwrap();
        assert_eq!(cron_tab_conversion::respond::<HostPort>(request), checked);
        group.bench_function(format!("handle/{n}"), |b| {
            b.iter(|| {
                let request = review::read_request(black_box(&body)).unwrap();
                let response = cron_tab_conversion::respond::<HostPort>(request);
                webhook_server::response_body(&response, body.len())
            })
        });
        group.bench_function(format!("handle_checked/{n}"), |b| {
            b.iter(|| {
                let response = review::handle(black_box(&body), cron_tab_conversion::convert_value::<HostPort>);
                webhook_server::response_body(&response.unwrap(), body.len())
            })
        });
        group.bench_function(format!("parse/{n}"), |b| {
            b.iter(|| serde_json::from_slice::<Value>(black_box(&body)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
