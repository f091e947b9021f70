"""chemie.rc."""
