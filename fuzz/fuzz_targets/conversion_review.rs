//! The ConversionReview handler on arbitrary request bodies: never a panic, and every
//! response it calls a success passes the API server's checks of a webhook's response
//! (`accept_response`). Two conversions:
//!
//! - the generated `None`-strategy conversions of a three-version CronTab, through
//!   `review::respond`;
//! - the seed's webhook CronTab (hub and spoke, with hooks), through its generated
//!   `respond`, which skips the metadata checks, compared with `review::respond` and
//!   the same conversion: the responses are equal, except where the request's own
//!   labels or annotations are invalid (the checked handler refuses them; the API
//!   server, seeing them unchanged, does not).
#![no_main]

use crd_runtime::review::{self, ConversionRequest};
use crd_runtime::schema::Resource;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[allow(dead_code)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/conversion.rs"));
}

#[allow(dead_code)]
mod crontab {
    include!(concat!(env!("OUT_DIR"), "/webhook_conversion.rs"));
}

use crontab::example_com::cron_tab_conversion;

// The webhook example's hooks.
#[path = "../../examples/host_port.rs"]
mod host_port;
use host_port::HostPort;

fn status(response: &Value) -> Option<&str> {
    response.pointer("/response/result/status").and_then(|s| s.as_str())
}

fn check_accepted(request: &ConversionRequest, response: &Value) {
    if status(response) == Some("Success") {
        if let Err(e) = review::accept_response(request, response) {
            panic!("the API server would refuse our response: {e}\nrequest: {request:?}\nresponse: {response}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(request) = review::read_request(data) else {
        return;
    };
    let response = review::respond(request.clone(), |object, desired| {
        let kind = object.get("kind").and_then(|k| k.as_str()).unwrap_or("").to_string();
        match Resource::find(generated::RESOURCES, desired, &kind) {
            Some(resource) => (resource.convert)(object),
            None => Err(crd_runtime::conversion::ConversionError::new(format!(
                "no kind {kind:?} in {desired}"
            ))),
        }
    });
    check_accepted(&request, &response);

    let fast = cron_tab_conversion::respond::<HostPort>(request.clone());
    check_accepted(&request, &fast);
    let checked = review::respond(request.clone(), cron_tab_conversion::convert_value::<HostPort>);
    if fast != checked {
        let message = checked
            .pointer("/response/result/message")
            .and_then(|m| m.as_str())
            .unwrap_or("");
        let unchanged_metadata_refused = status(&fast) == Some("Success")
            && (message.contains("metadata.labels") || message.contains("metadata.annotation"));
        assert!(
            unchanged_metadata_refused,
            "the generated respond and the checked handler disagree\nrequest: {request:?}\nfast: {fast}\nchecked: {checked}"
        );
    }
});
