"""Bundled example inputs."""
