"""The hosts: thin adapters from MkDocs, Python-Markdown and the command line to Site."""
