// The corpus CRDs the fuzz targets admit objects against, relative to `shared/crds`
// (also read by `build.rs`, which compiles the differential ones).

/// Every kind the `admission` target creates and updates, with the reference engine:
/// rule-heavy, format-heavy, list-map and multi-version CRDs.
pub const ADMISSION_CRDS: &[&str] = &[
    "gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml",
    "gateway-api/standard/gateway.networking.k8s.io_gateways.yaml",
    "cert-manager/cert-manager.io_certificates.yaml",
    "cert-manager/cert-manager.io_issuers.yaml",
    "cluster-api/cluster.x-k8s.io_machinedrainrules.yaml",
    "cluster-api/cluster.x-k8s.io_machinehealthchecks.yaml",
    "prometheus-operator/monitoring.coreos.com_prometheusrules.yaml",
    "fluxcd/kustomize.toolkit.fluxcd.io_kustomizations.yaml",
    "keda/keda.sh_scaledobjects.yaml",
];

/// The kinds the `differential` target admits both with generated code and with the
/// reference engine.
pub const DIFFERENTIAL_CRDS: &[&str] = &[
    "gateway-api/standard/gateway.networking.k8s.io_httproutes.yaml",
    "cert-manager/cert-manager.io_certificates.yaml",
    "cluster-api/cluster.x-k8s.io_machinedrainrules.yaml",
];
