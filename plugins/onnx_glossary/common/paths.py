"""Where the package's own files are, and how a path is shown in a message."""

from __future__ import annotations

from pathlib import Path

#: The installed package's folder: its templates, assets, theme and runtime-packages.json.
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def shown_path(path: Path | str, root: Path) -> str:
    """``path`` relative to the project root for messages; as given when it lies elsewhere."""
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()
