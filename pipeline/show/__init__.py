"""chemie.show."""
