"""The browser packages the site self-hosts (onnxruntime-web, coi-serviceworker), with
or without npm.

The wheel carries ``runtime-packages.json``: the name, version, registry path and ``integrity``
(the same SRI hash as ``package-lock.json``) of each package. For each package a build needs:

1. ``node_modules/<name>`` is used when present (``npm ci`` checked its integrity); its
   version must be the pinned one, else a warning says so.
2. Otherwise the npm tarball is read from a per-user cache, downloaded once from the registry
   npm is configured with (``npm_config_registry``, then ``.npmrc``, then registry.npmjs.org).
3. **Every build** hashes the cached tarball against the pinned integrity before taking any file
   from it (about 0.2 s for the 60 MB of tarballs), then brings the unpacked copy of the few files
   the site needs in line with the tarball, removing anything else found there. So a corrupted or
   edited cache is refused or repaired, never published. A size+mtime shortcut would skip
   that: ``touch -r`` restores an mtime, so it proves nothing about the bytes.

Pure: no MkDocs. Errors are :class:`RuntimeSetupError`, one line that says what to do.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .. import __version__
from ..browser.runtime import runtime_files
from ..common.problems import Problem, SetupError

MANIFEST = Path(__file__).resolve().parent.parent / "runtime-packages.json"
DEFAULT_REGISTRY = "https://registry.npmjs.org/"

#: What the site takes from each package (paths inside the package; ``*`` globs). The rest of
#: the tarball (source maps, other builds, 100+ MB) stays packed.
SITE_FILES: dict[str, tuple[str, ...]] = {
    "onnxruntime-web": ("package.json", *(f"dist/{name}" for name in runtime_files())),
    "coi-serviceworker": ("package.json", "coi-serviceworker.js"),
}


class RuntimeSetupError(SetupError):
    """The runtime packages cannot be provided; the message says how to provide them."""


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    tarball: str  # path under the registry URL, e.g. onnxruntime-web/-/onnxruntime-web-1.30.0.tgz
    integrity: str  # SRI, e.g. sha512-<base64>

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def stem(self) -> str:
        return f"{self.name.replace('/', '+')}-{self.version}"


def tarball_path(name: str, version: str) -> str:
    """The registry path of a package's tarball (npm's layout, scoped names included)."""
    return f"{name}/-/{name.rsplit('/', 1)[-1]}-{version}.tgz"


def manifest_from_lock(lock: Mapping[str, object], names: Iterable[str]) -> dict[str, object]:
    """The manifest's content for ``names``, read from a package-lock.json (lockfile v2/v3)."""
    entries = lock.get("packages")
    if not isinstance(entries, dict):
        raise ValueError("package-lock.json has no 'packages' table: use npm 7 or newer")
    packages = []
    for name in sorted(names):
        entry = entries.get(f"node_modules/{name}")
        if not isinstance(entry, dict) or "integrity" not in entry:
            raise ValueError(f"package-lock.json has no integrity for {name}: run npm install {name}")
        packages.append({"name": name, "version": entry["version"],
                         "tarball": tarball_path(name, entry["version"]), "integrity": entry["integrity"]})
    return {"about": "Browser packages the site self-hosts; written by scripts/runtime_manifest.py "
                     "from package-lock.json", "packages": packages}


def load_manifest(path: Path = MANIFEST) -> dict[str, Package]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {p["name"]: Package(p["name"], p["version"], p["tarball"], p["integrity"])
            for p in data["packages"]}


def registry_url(root: Path, environ: Mapping[str, str] | None = None, home: Path | None = None) -> str:
    """The registry npm would use: ``npm_config_registry``, the project's then the user's
    ``.npmrc``, else registry.npmjs.org."""
    environ = os.environ if environ is None else environ
    for key, value in environ.items():
        if key.lower() == "npm_config_registry" and value:
            return value
    for npmrc in (root / ".npmrc", (home or Path.home()) / ".npmrc"):
        if npmrc.is_file():
            for line in npmrc.read_text(encoding="utf-8", errors="replace").splitlines():
                key, _, value = line.partition("=")
                if key.strip() == "registry" and value.strip():
                    return os.path.expandvars(value.strip())
    return DEFAULT_REGISTRY


def default_cache() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("onnx-glossary", appauthor=False)) / "npm"


@dataclass
class Resolved:
    """Where each package's files are, and the warnings found on the way."""

    roots: dict[str, Path] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)


def resolve(names: Iterable[str], *, node_modules: Path, explicit: bool, root: Path,
            cache: Path | None = None, registry: str | None = None,
            manifest: Mapping[str, Package] | None = None,
            inform: Callable[[str], None] = lambda message: None) -> Resolved:
    """The package folders for ``names``: from ``node_modules`` when there, else the cache."""
    manifest = manifest or load_manifest()
    cache = cache or default_cache()
    wanted = sorted(set(names))
    resolved = Resolved()
    absent = []
    for name in wanted:
        package = manifest[name]
        installed = node_modules / name
        if (installed / "package.json").is_file():
            version = json.loads((installed / "package.json").read_text(encoding="utf-8")).get("version")
            if version != package.version:
                resolved.warnings.append(Problem(
                    str(installed), None,
                    f"holds {name} {version}, but this plugin is made for {package.version}: "
                    f"run 'npm install --save-exact {package.spec}' (or remove {installed} and let the "
                    "plugin download its pinned copy)"))
            resolved.roots[name] = installed
        else:
            absent.append(package)
    if absent and explicit:
        specs = " ".join(p.spec for p in absent)
        raise RuntimeSetupError(f"{node_modules} (the plugin's node_modules option) has no "
                                f"{', '.join(p.name for p in absent)}: run 'npm ci' or 'npm install "
                                f"--save-exact {specs}' there, or drop the option so that the plugin "
                                "downloads its pinned copies")
    missing = [p for p in absent if not (cache / "tarballs" / f"{p.stem}.tgz").is_file()]
    if missing:
        registry = registry or registry_url(root)
        inform(f"downloading {' '.join(p.spec for p in missing)} from {registry} into {cache} "
               f"(once; later builds reuse {'them' if len(missing) > 1 else 'it'})")
        _download_all(missing, registry, cache)
    for package in absent:
        resolved.roots[package.name] = unpack(package, cache)
    return resolved


def _download_all(packages: list[Package], registry: str, cache: Path) -> None:
    failures = []
    for package in packages:
        try:
            download(package, registry, cache)
        except urllib.error.HTTPError as error:
            failures.append((package, f"it answered HTTP {error.code} for {error.url}"))
        except (urllib.error.URLError, OSError) as error:
            failures.append((package, str(getattr(error, "reason", None) or error)))
    if failures:
        specs = " ".join(p.spec for p, _ in failures)
        noun, verb, them = ("packages", "are", "them") if len(failures) > 1 else ("package", "is", "it")
        raise RuntimeSetupError(
            f"the browser runtime {noun} {specs} {verb} not in the cache {cache / 'tarballs'}, and "
            f"the npm registry {registry} could not be reached ({failures[0][1]}): either let this "
            "build reach the registry once (or set npm_config_registry, or registry= in .npmrc, "
            f"to a mirror), or install {them} with 'npm install --save-exact {specs}' next to "
            f"mkdocs.yml (or point the plugin's node_modules option at a folder holding {them})")


def download(package: Package, registry: str, cache: Path, timeout: float = 60.0) -> Path:
    """Fetch a tarball into the cache; a file that fails its integrity is deleted, not kept."""
    url = registry.rstrip("/") + "/" + package.tarball
    target = cache / "tarballs" / f"{package.stem}.tgz"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    request = urllib.request.Request(url, headers={"User-Agent": f"onnx-glossary/{__version__}"})
    digest = _hasher(package.integrity)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, partial.open("wb") as out:
            while chunk := response.read(1 << 20):
                digest.update(chunk)
                out.write(chunk)
        if not _matches(digest, package.integrity):
            raise RuntimeSetupError(f"{url} sent a file that does not match the integrity pinned for "
                                    f"{package.spec} (corrupted or tampered on the way): it was refused "
                                    "and not cached; check the registry or proxy, then build again")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def unpack(package: Package, cache: Path) -> Path:
    """Check the cached tarball, then make its unpacked site files match it exactly."""
    import tarfile  # only when a package is fetched: a build that has them skips the import

    tarball = cache / "tarballs" / f"{package.stem}.tgz"
    folder = cache / "unpacked" / package.stem / package.name
    digest = _hasher(package.integrity)
    with tarball.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    if not _matches(digest, package.integrity):
        tarball.unlink(missing_ok=True)
        shutil.rmtree(folder.parent, ignore_errors=True)
        raise RuntimeSetupError(f"{tarball} does not match the integrity pinned for {package.spec} "
                                "(corrupted or tampered): it was refused and deleted, nothing from it "
                                "was published; build again to download it afresh")
    patterns = SITE_FILES.get(package.name, ("package.json",))
    kept: set[Path] = set()
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            inner = PurePosixPath(member.name)
            relative = PurePosixPath(*inner.parts[1:])  # npm tarballs hold one top folder
            if (not member.isfile() or ".." in relative.parts
                    or not any(fnmatch.fnmatchcase(str(relative), p) for p in patterns)):
                continue
            source = archive.extractfile(member)
            data = source.read() if source else b""
            target = folder / relative
            kept.add(target)
            if not (target.is_file() and target.stat().st_size == len(data)
                    and target.read_bytes() == data):
                target.parent.mkdir(parents=True, exist_ok=True)
                temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
                temporary.write_bytes(data)
                os.replace(temporary, target)
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in kept:
            path.unlink()  # not from the tarball: never publish it
    return folder


def _hasher(integrity: str) -> hashlib._Hash:
    algorithm = integrity.split()[0].partition("-")[0]
    if algorithm not in ("sha512", "sha384", "sha256"):
        raise RuntimeSetupError(f"unsupported integrity '{integrity[:20]}...' in the runtime manifest")
    return hashlib.new(algorithm)


def _matches(digest: hashlib._Hash, integrity: str) -> bool:
    expected = {token.partition("-")[2] for token in integrity.split()
                if token.startswith(digest.name + "-")}
    return base64.b64encode(digest.digest()).decode("ascii") in expected
