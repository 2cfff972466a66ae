//! Transposition table. STUB.
