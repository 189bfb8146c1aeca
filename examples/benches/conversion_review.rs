//! The conversion webhook's handler against reading its input (`cargo bench -p
//! crd-examples --bench conversion_review`): for reviews of 1, 10 and 100 CronTabs
//! (v1 → v1beta1 through the seed's hooks),
//!
//! - `review/handle/N`: the whole handler on the request body: parse, convert every
//!   object (map, hooks, prune with the target schema), check metadata as the API
//!   server will, and write the response body as the server does;
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
        let response = review::handle(&body, cron_tab_conversion::convert_value::<HostPort>).unwrap();
        assert_eq!(response["response"]["result"]["status"], "Success");
        group.bench_function(format!("handle/{n}"), |b| {
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
