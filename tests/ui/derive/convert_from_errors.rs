// Conversions between derived versions are checked by the compiler: a field the
// other version does not have, or whose type differs, is an error at that field until
// it is mapped (`convert(field = ...)`) or computed (`convert(with = ...)`); a
// `convert` that names no known source is an error at the attribute.

mod v1 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v1", kind = "Widget", storage = false)]
    pub struct WidgetSpec {
        pub size: String,
    }
}

mod v2 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v2", kind = "Widget", convert_from = "super::v1::WidgetSpec")]
    pub struct WidgetSpec {
        pub size: i64,
        pub colour: Option<String>,
    }
}

mod v3 {
    use crd_derive::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "example.com", version = "v3", kind = "Widget", storage = false)]
    pub struct WidgetSpec {
        #[crd(convert(from = "super::v1::WidgetSpec", field = "size"))]
        pub size: String,
    }
}

fn main() {}
