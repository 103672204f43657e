"""What RisingWave keeps in ``src/common`` and its protos' shared enums: plain data and facts both
the frontend and the meta node use (the fragment graph, rate-limited nodes, object kinds,
parallelism strategies, Rust numbers)."""
