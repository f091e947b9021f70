"""chemie.formats."""
