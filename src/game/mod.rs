//! A game: history, SAN list, clocks, result, PGN read/write, autosave. STUB.
