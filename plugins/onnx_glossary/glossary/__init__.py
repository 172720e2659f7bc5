"""Term files -> Term objects -> a validated GlossaryIndex, links to terms, editorial checks."""
