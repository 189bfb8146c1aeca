//! Proc-macros.
