"""Helpers shared by the test suites (static server, headless Chromium, standalone sites)."""
