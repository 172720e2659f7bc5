"""The shape sweep a live example offers: which input it resizes, along which free dims, to
which sizes (``data-sweep``, read by ``assets/live-example-sweep.mjs``).

A model whose one input with free dims has a single one (a batch axis) is swept over rows; a
picture whose height and width are free, over square sides. Any other model gets no sweep:
several inputs with free dims would have to agree on their sizes, and a dim without a name
cannot be pinned with ``freeDimensionOverrides``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

#: Rows of a batch axis, each a shape of its own.
SWEEP_ROWS = (1, 2, 4, 8, 16)
#: Sides of a square picture, in pixels: small, because the sweep is about shapes, and a
#: software adapter takes seconds a call at 128 px (edges on SwiftShader: 1.1 s).
SWEEP_SIDES = (32, 48, 64, 96, 128)


class _Tensor(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def shape(self) -> Sequence[int | str | None] | None: ...


class _Facts(Protocol):
    @property
    def inputs(self) -> Sequence[_Tensor]: ...


def sweep_spec(facts: _Facts, reference: Mapping[str, Any]) -> dict[str, Any] | None:
    """The sweep of a model, or None when it has none (see the module's docstring)."""
    free = [(tensor, [(axis, dim) for axis, dim in enumerate(tensor.shape or ())
                      if not isinstance(dim, int)]) for tensor in facts.inputs]
    free = [(tensor, dims) for tensor, dims in free if dims]
    if len(free) != 1:
        return None
    tensor, dims = free[0]
    names = [dim for _, dim in dims]
    if not all(isinstance(name, str) and name for name in names):
        return None
    picture = (reference.get("image") or {}).get("input") == tensor.name
    if len(dims) == 1:
        unit, sizes = "rows", SWEEP_ROWS
    elif len(dims) == 2 and picture:
        unit, sizes = "px", SWEEP_SIDES
    else:
        return None
    return {"input": tensor.name, "axes": [axis for axis, _ in dims],
            "dims": list(dict.fromkeys(names)), "sizes": list(sizes), "unit": unit}
