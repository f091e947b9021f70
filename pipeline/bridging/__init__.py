"""Bridging: relations between mentions that are not the same compound (stage package)."""
