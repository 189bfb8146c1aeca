//! The objects of the admission and CEL benchmarks: each valid, with invalid variants
//! that break schema checks only (so a JSON Schema validator finds the same faults).

use serde_json::{Value, json};

/// The seed page's CronTab.
pub fn crontab() -> Value {
    json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3},
    })
}

/// The CronTab with one fault, and with three.
pub fn crontab_invalid() -> (Value, Value) {
    let mut one = crontab();
    one["spec"]["replicas"] = json!(15);
    let mut many = one.clone();
    many["spec"]["cronSpec"] = json!("* * * *");
    many["spec"]["image"] = json!(7);
    (one, many)
}

/// A Certificate as an operator would write one.
pub fn certificate() -> Value {
    json!({
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": "example-com", "namespace": "sandbox", "labels": {"app": "web"}},
        "spec": {
            "secretName": "example-com-tls",
            "secretTemplate": {
                "annotations": {"my-secret-annotation-1": "foo", "my-secret-annotation-2": "bar"},
                "labels": {"my-secret-label": "foo"},
            },
            "duration": "2160h0m0s",
            "renewBefore": "360h0m0s",
            "subject": {"organizations": ["example"], "countries": ["NL"], "localities": ["Amsterdam"]},
            "commonName": "example.com",
            "isCA": false,
            "privateKey": {"algorithm": "RSA", "encoding": "PKCS1", "size": 2048, "rotationPolicy": "Always"},
            "usages": ["server auth", "client auth", "digital signature", "key encipherment"],
            "dnsNames": ["example.com", "www.example.com", "api.example.com"],
            "uris": ["spiffe://cluster.local/ns/sandbox/sa/example"],
            "ipAddresses": ["192.168.0.5"],
            "issuerRef": {"name": "ca-issuer", "kind": "Issuer", "group": "cert-manager.io"},
            "keystores": {"pkcs12": {"create": true, "passwordSecretRef": {"name": "p12", "key": "password"}}},
        },
    })
}

/// The Certificate with one fault, and with seven.
pub fn certificate_invalid() -> (Value, Value) {
    let mut one = certificate();
    one["spec"]["privateKey"]["algorithm"] = json!("DSA");
    let mut many = one.clone();
    let spec = &mut many["spec"];
    spec["isCA"] = json!("no");
    spec["usages"][1] = json!("any purpose at all");
    spec["privateKey"]["size"] = json!("2048");
    spec["privateKey"]["rotationPolicy"] = json!("Sometimes");
    spec["dnsNames"] = json!("example.com");
    spec["keystores"]["pkcs12"]["create"] = json!(1);
    (one, many)
}

/// A rule-heavy HTTPRoute of a few kilobytes: four rules with path, header, query
/// and method matches, header and rewrite filters, mirrors and weighted backends.
pub fn httproute() -> Value {
    let headers = |env: &str| json!([{"name": "x-env", "value": env}, {"type": "RegularExpression", "name": "x-user", "value": "^[a-z]+$"}]);
    let backends = |name: &str| {
        json!([
            {"name": name, "port": 8080, "weight": 90},
            {"name": format!("{name}-canary"), "port": 8080, "weight": 10},
        ])
    };
    json!({
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute",
        "metadata": {"name": "storefront", "namespace": "shop", "labels": {"app": "storefront", "tier": "edge"}},
        "spec": {
            "parentRefs": [
                {"name": "public-gateway", "namespace": "infra", "sectionName": "https"},
                {"name": "internal-gateway", "namespace": "infra", "sectionName": "http", "port": 8080},
            ],
            "hostnames": ["shop.example.com", "www.shop.example.com", "api.shop.example.com"],
            "rules": [
                {
                    "matches": [
                        {"path": {"type": "PathPrefix", "value": "/api/v1"}, "headers": headers("prod"), "method": "GET"},
                        {"path": {"type": "PathPrefix", "value": "/api/v2"}, "queryParams": [{"name": "beta", "value": "true"}]},
                    ],
                    "filters": [
                        {"type": "RequestHeaderModifier", "requestHeaderModifier": {
                            "set": [{"name": "x-api", "value": "storefront"}],
                            "add": [{"name": "x-trace", "value": "on"}],
                            "remove": ["x-debug"],
                        }},
                        {"type": "URLRewrite", "urlRewrite": {"hostname": "api.internal", "path": {"type": "ReplaceFullPath", "replaceFullPath": "/v1/items"}}},
                    ],
                    "backendRefs": backends("api"),
                },
                {
                    "matches": [{"path": {"type": "Exact", "value": "/checkout"}, "headers": headers("prod"), "method": "POST"}],
                    "filters": [
                        {"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "checkout-shadow", "port": 8080}}},
                        {"type": "ResponseHeaderModifier", "responseHeaderModifier": {"set": [{"name": "cache-control", "value": "no-store"}]}},
                    ],
                    "backendRefs": backends("checkout"),
                },
                {
                    "matches": [{"path": {"type": "PathPrefix", "value": "/old-shop"}}],
                    "filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https", "hostname": "shop.example.com", "statusCode": 301}}],
                },
                {
                    "matches": [
                        {"path": {"type": "PathPrefix", "value": "/"}, "headers": headers("canary")},
                        {"path": {"type": "PathPrefix", "value": "/static"}, "method": "GET"},
                    ],
                    "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {"add": [{"name": "x-route", "value": "web"}]}}],
                    "backendRefs": backends("web"),
                },
            ],
        },
    })
}

/// The HTTPRoute with one fault, and with several (a redirect status of 307 is valid
/// in the standard channel, so three count).
pub fn httproute_invalid() -> (Value, Value) {
    let mut one = httproute();
    one["spec"]["rules"][0]["matches"][0]["method"] = json!("FETCH");
    let mut many = one.clone();
    many["spec"]["rules"][1]["backendRefs"][0]["port"] = json!(70000);
    many["spec"]["rules"][2]["filters"][0]["requestRedirect"]["statusCode"] = json!(307);
    many["spec"]["rules"][3]["matches"][0]["headers"][0]["type"] = json!("Glob");
    (one, many)
}

/// A Prometheus with the usual fields set.
pub fn prometheus() -> Value {
    json!({
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "Prometheus",
        "metadata": {"name": "k8s", "namespace": "monitoring", "labels": {"prometheus": "k8s"}},
        "spec": {
            "replicas": 2,
            "version": "v2.53.0",
            "image": "quay.io/prometheus/prometheus:v2.53.0",
            "serviceAccountName": "prometheus-k8s",
            "logLevel": "info",
            "logFormat": "logfmt",
            "scrapeInterval": "30s",
            "evaluationInterval": "30s",
            "retention": "15d",
            "externalLabels": {"cluster": "prod-eu-1"},
            "serviceMonitorSelector": {"matchLabels": {"team": "platform"}},
            "serviceMonitorNamespaceSelector": {"matchExpressions": [{"key": "monitoring", "operator": "In", "values": ["enabled"]}]},
            "podMonitorSelector": {},
            "ruleSelector": {"matchLabels": {"role": "alert-rules"}},
            "alerting": {"alertmanagers": [{"namespace": "monitoring", "name": "alertmanager-main", "port": "web", "apiVersion": "v2"}]},
            "resources": {"requests": {"memory": "400Mi", "cpu": "100m"}, "limits": {"memory": "2Gi"}},
            "securityContext": {"fsGroup": 2000, "runAsNonRoot": true, "runAsUser": 1000},
            "nodeSelector": {"kubernetes.io/os": "linux"},
            "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "monitoring", "effect": "NoSchedule"}],
            "storage": {"volumeClaimTemplate": {"spec": {
                "storageClassName": "fast",
                "accessModes": ["ReadWriteOnce"],
                "resources": {"requests": {"storage": "100Gi"}},
            }}},
            "remoteWrite": [{"url": "https://metrics.example.com/api/v1/write", "queueConfig": {"capacity": 10000, "maxShards": 50}}],
            "enableFeatures": ["exemplar-storage"],
        },
    })
}

/// The Prometheus with one fault, and with five.
pub fn prometheus_invalid() -> (Value, Value) {
    let mut one = prometheus();
    one["spec"]["logLevel"] = json!("verbose");
    let mut many = one.clone();
    let spec = &mut many["spec"];
    spec["replicas"] = json!("two");
    spec["logFormat"] = json!("text");
    spec["scrapeInterval"] = json!("30 seconds");
    spec["tolerations"][0]["effect"] = json!(3);
    (one, many)
}
