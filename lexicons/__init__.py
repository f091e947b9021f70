"""Word lists shipped with chemie, each with its provenance."""
