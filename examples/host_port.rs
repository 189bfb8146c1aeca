//! The seed's `host` and `port` (v1) <-> `hostPort` (v1beta1) hooks of the webhook
//! CronTab's generated conversion. Included by `webhook_server.rs` and by the
//! `conversion_review` fuzz target, each with the generated types in its parent's
//! `crontab` module.

use super::crontab::example_com::{cron_tab_conversion, v1, v1beta1};

/// The hooks the generated conversion asks for: the only fields the two versions do
/// not share.
pub struct HostPort;

impl cron_tab_conversion::Hooks for HostPort {
    fn v1beta1_host_port_from_v1(from: &v1::CronTab) -> Option<String> {
        match (&from.host, &from.port) {
            (Some(host), Some(port)) => Some(format!("{host}:{port}")),
            (Some(host), None) => Some(host.clone()),
            _ => None,
        }
    }

    fn v1_host_from_v1beta1(from: &v1beta1::CronTab) -> Option<String> {
        let host_port = from.host_port.as_deref()?;
        Some(
            host_port
                .split_once(':')
                .map_or(host_port, |(host, _)| host)
                .to_string(),
        )
    }

    fn v1_port_from_v1beta1(from: &v1beta1::CronTab) -> Option<String> {
        let (_, port) = from.host_port.as_deref()?.split_once(':')?;
        Some(port.to_string())
    }
}
