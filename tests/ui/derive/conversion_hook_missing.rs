// A conversion webhook's hooks are checked by the compiler: an implementation that
// leaves out a field the versions do not share does not build, and neither does a
// conversion with a type that implements no hooks.
// (Paths are relative to the trybuild project under target/tests/trybuild.)

mod crontab {
    crd_derive::crd_types!("../../../../examples/crds/crontab-conversion.yaml");
}

use crontab::example_com::{cron_tab_conversion, v1, v1beta1};

struct Forgetful;

impl cron_tab_conversion::Hooks for Forgetful {
    fn v1_host_from_v1beta1(from: &v1beta1::CronTab) -> Option<String> {
        from.host_port.clone()
    }
    fn v1_port_from_v1beta1(_: &v1beta1::CronTab) -> Option<String> {
        None
    }
}

struct NoHooks;

fn main() {
    let spoke = v1::CronTab::default();
    let _ = cron_tab_conversion::convert::<NoHooks, v1beta1::CronTab>(&spoke);
}
