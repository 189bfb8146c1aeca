//! CRD admission checks: what the API server's CRD validation rejects.
