//! The ratatui front end. STUB.
