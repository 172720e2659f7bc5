"""Every link the plugin generates goes through :class:`SiteUrls`.

MkDocs turns ``docs/a/b.md`` into ``a/b/`` (``use_directory_urls: true``, the default) or
``a/b.html`` (false); links in raw HTML are not rewritten by MkDocs, so the plugin must write
them the way MkDocs would. Paths given here are in the docs namespace: a page (``*.md``), a
folder (ending in ``/``) or any other file. Pure: no MkDocs imports.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit


@lru_cache(maxsize=65536)
def relative_path(target: str, folder: str) -> str:
    """``posixpath.relpath`` between two paths of the docs namespace (``""`` is its root).

    Both are rooted at ``/`` first: relpath makes relative paths absolute with the working
    directory, a system call for every link of every page. Cached: a big glossary asks for
    the same few thousand paths over and over."""
    return posixpath.relpath("/" + target, "/" + folder)


@dataclass(frozen=True)
class SiteUrls:
    """How the site lays out its URLs."""

    use_directory_urls: bool = True
    site_url: str | None = None  # the published address, for absolute URLs (JSON-LD, llms.txt)

    def page(self, src_uri: str) -> str:
        """The URL (relative to the site root) MkDocs gives a page with this source path."""
        stem, ext = posixpath.splitext(src_uri)
        if ext != ".md":
            return src_uri
        if posixpath.basename(stem) in ("index", "README"):
            folder = posixpath.dirname(stem)
            if self.use_directory_urls or not folder:
                return f"{folder}/" if folder else ""
            return f"{folder}/index.html"
        return f"{stem}/" if self.use_directory_urls else f"{stem}.html"

    @property
    def base_path(self) -> str:
        """The site's path on its host (``/onnx-glossary/``), from ``site_url``; ``/`` without."""
        path = urlsplit(self.site_url or "").path or "/"
        return path if path.endswith("/") else path + "/"

    def between(self, from_uri: str | None, to: str) -> str:
        """A relative URL from the page ``from_uri`` to a page, folder or file ``to``.

        A fragment (``#operators``) is kept. A folder stays a folder (it ends in ``/``), also
        without directory URLs: link its ``index.md`` to reach the page inside it.
        """
        path, _, fragment = to.partition("#")
        target = self.page(path)
        if from_uri is None:  # the host did not say which page: root-relative, under the sub-path
            return self.base_path + target + (f"#{fragment}" if fragment else "")
        source = self.page(from_uri)
        # The browser resolves against the page's folder: "a/b/" for directory URLs,
        # "a/" for "a/b.html".
        base = source if source.endswith("/") or not source else posixpath.dirname(source) + "/"
        rel = relative_path(target, base.rstrip("/"))
        if (target.endswith("/") or not target) and not rel.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
        return rel + (f"#{fragment}" if fragment else "")

    def linker(self, from_uri: str) -> Callable[[str], str]:
        """``between`` bound to one page: what templates call as ``url(...)``."""
        return lambda to: self.between(from_uri, to)

    def absolute(self, src_uri: str) -> str | None:
        """The page's published address, when the site has a ``site_url``."""
        if not self.site_url:
            return None
        base = self.site_url if self.site_url.endswith("/") else self.site_url + "/"
        return base + self.page(src_uri)
