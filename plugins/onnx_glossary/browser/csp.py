"""A Content-Security-Policy for a built static site, as a ``<meta>`` tag in every page.

GitHub Pages sends no headers, so the policy travels inside the page: a ``<meta
http-equiv="Content-Security-Policy">`` placed right after ``<meta charset>``, before any
script. Scripts load from the site's own origin; the only inline scripts allowed are those the
build wrote, by the SHA-256 of their text.

One policy serves the whole site. It lists the inline scripts of every page, not only the
page's own: Material's instant navigation keeps the first page's document, and with it that
page's policy, while it swaps in the next page's content and runs the inline scripts found
there. The same policy on every page also means one header value for hosts that send headers.

Pure: no MkDocs. The plugin calls :func:`apply_to_site` after a build; ``onnx-glossary csp
SITE`` does the same for a site another host (Zensical) built.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: Every directive but script-src, whose hashes differ by site. No other origin, ever.
FIXED_DIRECTIVES = (
    ("default-src", "'self'"),
    # Material sets style attributes and injects <style> elements at run time; a diagram
    # carries its own <style> (which drawing fits the column).
    ("style-src", "'self' 'unsafe-inline'"),
    # The reader's own picture is shown from a blob: URL; canvases export data: URLs.
    ("img-src", "'self' data: blob:"),
    ("font-src", "'self'"),
    ("worker-src", "'self' blob:"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
)

#: Script types a browser executes, and so checks against script-src (the HTML standard's
#: JavaScript MIME types, plus modules and import maps). Anything else is a data block.
_JAVASCRIPT_TYPES = frozenset({
    "", "module", "importmap", "speculationrules",
    *(f"{prefix}/{name}" for prefix in ("application", "text") for name in (
        "ecmascript", "javascript", "x-ecmascript", "x-javascript")),
    *(f"text/{name}" for name in ("javascript1.0", "javascript1.1", "javascript1.2",
                                  "javascript1.3", "javascript1.4", "javascript1.5", "jscript",
                                  "livescript")),
})

_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?')
_CHARSET = re.compile(r"<meta\s+charset\s*=\s*[\"']?[\w-]+[\"']?\s*/?>", re.IGNORECASE)
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


def is_executable(attributes: dict[str, str]) -> bool:
    """Whether a ``<script>`` with these attributes runs (hence whether CSP governs it)."""
    kind = attributes.get("type")
    if kind is None:
        language = attributes.get("language")
        kind = f"text/{language}" if language else ""
    return kind.strip().lower() in _JAVASCRIPT_TYPES


#: Where the text "<script" need not open a script: comments, and the raw text of <script> and
#: <style>. Everywhere else in a built page markdown has escaped "<".
_TOKEN = re.compile(r"<!--|<(script|style)(?=[\s/>])", re.IGNORECASE)
#: The rest of a start tag, up to its ">" (which quoted attribute values may contain).
_TAG_REST = re.compile(r"""(?:"[^"]*"|'[^']*'|[^"'>])*>""")
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
_END_TAG = {name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE) for name in ("script", "style")}


def _attributes(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, double, single, bare in _ATTRIBUTE.findall(text):
        found.setdefault(name.lower(), html.unescape(double or single or bare))  # first one wins
    return found


def inline_scripts(page: str) -> list[str]:
    """The text of every inline script of ``page`` that a browser would execute, in order.

    Scripts with ``src`` and data blocks (JSON-LD, Material's ``application/json`` config)
    are left out: a browser checks neither against script-src's hashes. A scan for the few
    places a script can start, not a full HTML parser: ten times quicker on a built site.
    """
    # The browser's parser turns CR LF and CR into LF before it hashes anything.
    source = page.replace("\r\n", "\n").replace("\r", "\n")
    found = []
    at = 0
    while (token := _TOKEN.search(source, at)) is not None:
        if token.group(1) is None:  # a comment; "<!-->" and "<!--->" are empty ones
            end = source.find("-->", token.start() + 2)
            at = len(source) if end < 0 else end + 3
            continue
        rest = _TAG_REST.match(source, token.end())
        if rest is None:
            break
        name = token.group(1).lower()
        close = _END_TAG[name].search(source, rest.end())
        content_end = close.start() if close else len(source)
        attributes = _attributes(source[token.end():rest.end() - 1])
        if name == "script" and "src" not in attributes and is_executable(attributes):
            found.append(source[rest.end():content_end])
        at = content_end
    return found


def script_hash(text: str) -> str:
    """The CSP source for one inline script: ``'sha256-<base64 of SHA-256(UTF-8 text)>'``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def policy(scripts: Iterable[str]) -> str:
    """The policy that allows exactly these inline scripts (deduplicated, sorted)."""
    hashes = sorted({script_hash(text) for text in scripts})
    script_src = " ".join(["'self'", "'wasm-unsafe-eval'", *hashes])
    directives = [FIXED_DIRECTIVES[0], ("script-src", script_src), *FIXED_DIRECTIVES[1:]]
    return "; ".join(f"{name} {value}" for name, value in directives)


def meta_tag(value: str) -> str:
    # The quotes of 'self' stay as they are: an attribute in double quotes needs only & < > ".
    return f'<meta http-equiv="Content-Security-Policy" content="{_attribute(value)}">'


def _attribute(value: str) -> str:
    return html.escape(value, quote=False).replace('"', "&quot;")


def with_policy(page: str, value: str) -> str:
    """``page`` with its policy tag (replaced, if it had one) right after ``<meta charset>``,
    else right after ``<head>``. A page without ``</head>`` is returned unchanged."""
    head_end = page.lower().find("</head>")
    if head_end < 0:
        return page
    head = _META.sub("", page[:head_end], count=1)
    page = head + page[head_end:]
    anchor = _CHARSET.search(head) or _HEAD.search(head)
    if anchor is None:
        return page
    return f"{page[:anchor.end()]}\n{meta_tag(value)}{page[anchor.end():]}"


@dataclass(frozen=True)
class Applied:
    policy: str
    pages: int
    scripts: int  # distinct inline scripts allowed


def apply_to_site(site: Path) -> Applied:
    """Give every ``.html`` file under ``site`` one policy made from all their inline scripts.

    Running it again on the same site gives the same files.
    """
    paths = sorted(site.rglob("*.html"))
    pages = {path: path.read_text(encoding="utf-8") for path in paths}
    scripts = {text for page in pages.values() for text in inline_scripts(page)}
    value = policy(scripts)
    for path, page in pages.items():
        updated = with_policy(page, value)
        if updated != page:
            path.write_text(updated, encoding="utf-8")
    return Applied(value, len(pages), len(scripts))
