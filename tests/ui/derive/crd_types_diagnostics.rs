// `crd_types!` reports a CRD's problems as compiler errors (one per problem, no
// doubled `error:`), and its warnings as compiler warnings: here an unknown field
// that would otherwise vanish, beside an invalid CRD that makes the build fail.
// (Paths are relative to the trybuild project under target/tests/trybuild.)

mod misspelt {
    crd_derive::crd_types!("../../../../tests/ui/crd-types/misspelt-crd.yaml");
}

mod invalid {
    crd_derive::crd_types!("../../../../tests/ui/crd-types/invalid-crd.yaml");
}

fn main() {}
