"""Shared values: problems and findings, "did you mean", one YAML schema reader, paths, URLs."""
