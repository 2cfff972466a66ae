//! UCI text protocol over stdin/stdout, using `engine::Engine`. STUB.
