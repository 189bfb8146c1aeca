//! Generated admission against the reference engine on fuzzer-chosen objects, for
//! rule-heavy corpus kinds (gateway-api HTTPRoute, cert-manager Certificate, cluster-api
//! MachineDrainRule): any disagreement (admitted object, pruned paths, errors,
//! warnings, rule cost) is a crash.
#![no_main]

use crd_fuzz::{DIFFERENTIAL_CRDS, Kinds, admit, dispatch, load_crds, read_input};
use crd_runtime::schema::Resource;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

#[allow(dead_code)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/differential.rs"));
}

static KINDS: LazyLock<(Kinds, Vec<&'static Resource>)> = LazyLock::new(|| {
    let kinds = Kinds::new(&load_crds(DIFFERENTIAL_CRDS));
    let compiled = (kinds.kinds.iter())
        .map(|k| {
            Resource::find(generated::RESOURCES, &k.api_version, &k.kind)
                .unwrap_or_else(|| panic!("{} {} is not compiled in", k.api_version, k.kind))
        })
        .collect();
    (kinds, compiled)
});

fuzz_target!(|data: &[u8]| {
    let (kinds, compiled) = &*KINDS;
    let Some(input) = read_input(data, kinds.kinds.len()) else {
        return;
    };
    let kind = &kinds.kinds[input.kind];
    let engine = admit(kinds.schema(kind), &input);
    let resource = compiled[input.kind];
    let generated = dispatch(
        &input,
        resource.admit,
        resource.admit_update,
        resource.admit_status_update,
    );
    assert!(
        engine == generated,
        "{} {} {:?} disagree on\n{}\n-- engine:\n{engine:#?}\n-- generated:\n{generated:#?}",
        kind.api_version,
        kind.kind,
        input.operation,
        input.object
    );
});
