"""chemie.components."""
