"""MkDocs plugin and Markdown extension: glossary terms, ONNX model pages, live examples.

The core modules (``frontmatter``, ``glossary``, ``model_facts``, ``reference``, ``render``,
``live_example``) import nothing from MkDocs, so they can be reused by another site generator;
``plugin`` is the thin MkDocs adapter and ``markdown_ext`` the Python-Markdown extension.
"""

__version__ = "0.1.0"
