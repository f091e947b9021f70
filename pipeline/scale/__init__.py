"""chemie.scale."""
