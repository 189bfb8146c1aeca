//! The ConversionReview handler on arbitrary request bodies, converting with the
//! generated `None`-strategy conversions of a three-version CronTab: never a panic, and
//! every response it calls a success passes the API server's checks of a webhook's
//! response (`accept_response`).
#![no_main]

use crd_runtime::review;
use crd_runtime::schema::Resource;
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/conversion.rs"));
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
    let status = response.pointer("/response/result/status").and_then(|s| s.as_str());
    if status == Some("Success") {
        if let Err(e) = review::accept_response(&request, &response) {
            panic!("the API server would refuse our response: {e}\nrequest: {request:?}\nresponse: {response}");
        }
    }
});
