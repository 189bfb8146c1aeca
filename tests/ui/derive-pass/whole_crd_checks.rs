//! What the derive cannot see alone, the test it emits finds: a default that breaks
//! a nested type's bounds, and a rule naming a field a nested type does not have, with
//! the API server's messages. (The emitted test is `#[cfg(test)]`; here the check it
//! runs is called directly.)

use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    #[crd(default = json!({"name": "x", "count": 20}))]
    pub part: Option<Part>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Gadget", rule(rule = "self.part.size > 0"))]
pub struct GadgetSpec {
    pub part: Part,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Part {
    pub name: String,
    #[crd(maximum = 10)]
    pub count: Option<i64>,
}

fn main() {
    let widget = serde_json::to_value(Widget::crd()).unwrap();
    assert_eq!(
        crd_codegen::derive::check_crd_value(&widget),
        ["spec.validation.openAPIV3Schema.properties[spec].properties[part].default.count: Invalid value: 20: count in body should be less than or equal to 10"]
    );
    let gadget = serde_json::to_value(Gadget::crd()).unwrap();
    let errors = crd_codegen::derive::check_crd_value(&gadget);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].ends_with("compilation failed: ERROR: <input>:1:10: undefined field 'size'\n | self.part.size > 0\n | .........^"),
        "{}",
        errors[0]
    );
    // The emitted test fails with them.
    assert!(std::panic::catch_unwind(|| crd_codegen::derive::assert_valid_crd(&gadget)).is_err());
}
