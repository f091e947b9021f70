"""Rule tables shipped with chemie (data, not code)."""
