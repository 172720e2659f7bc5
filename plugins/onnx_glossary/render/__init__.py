"""Rendering: Jinja templates for term, model and index pages, cards, widgets and snippets."""
