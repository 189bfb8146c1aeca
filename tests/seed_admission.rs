//! The seed examples through the generated code: every `admit` line of
//! `expected.jsonl` gives exactly the API server's admitted object, pruned paths and
//! errors, the errors of the compiled CEL rules included.

use crd_runtime::schema::CustomResource;
use crd_tests::assert_seed_admissions;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
mod cel {
    crd_derive::crd_types!("../../shared/spec/examples/cel-crd.yaml");
}

#[test]
fn admit_lines_match_the_api_server() {
    use crontab::stable_example_com::v1::CronTab;
    let checked = assert_seed_admissions("crontab-crd.yaml", |new, old| match old {
        None => CronTab::admit_value(new, "default"),
        Some(old) => CronTab::admit_update_value(new, old, "default"),
    });
    assert_eq!(checked, 2);
    use cel::stable_example_com::v1::CronTab as CelCronTab;
    let checked = assert_seed_admissions("cel-crd.yaml", |new, old| match old {
        None => CelCronTab::admit_value(new, "default"),
        Some(old) => CelCronTab::admit_update_value(new, old, "default"),
    });
    assert_eq!(checked, 4);
}
