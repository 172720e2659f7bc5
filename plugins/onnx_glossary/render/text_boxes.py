"""Text lines boxed from a DB text detector's probability map, for the build's answer
thumbnail: a small, upright version of the widget's box step (``assets/text-boxes.mjs``, which
redoes rapidocr's DBPostProcess and is the one readers run).

The same steps and values (rapidocr-onnxruntime 1.4.4's config.yaml): the map above 0.3, the
mask widened by a 2x2 square, 8-connected regions, each region's rectangle kept when its shorter
side is at least 3 px and the map averages at least 0.5 inside, then pushed outwards by
area x 1.6 / perimeter. Here the rectangles are upright (the JS fits the smallest rotated
one), which is all a 96 px thumbnail of printed lines needs; tests/test_text_boxes.py checks
that both give the same boxes on the shipped sample. Pure: numpy, no MkDocs.
"""

from __future__ import annotations

from collections.abc import Sequence

THRESH, BOX_THRESH, UNCLIP_RATIO, MIN_SIZE = 0.3, 0.5, 1.6, 3


def text_boxes(probability: Sequence[float], width: int, height: int) -> list[tuple[int, int, int, int]]:
    """The boxes ``[x0, y0, x1, y1]`` of the lines in a ``height`` x ``width`` map (row-major),
    in reading order of each region's first pixel."""
    import numpy as np

    plane = np.asarray(probability, dtype=np.float32)[:width * height].reshape(height, width)
    mask = plane > np.float32(THRESH)
    grown = mask.copy()  # each pixel also lights its right, lower and lower-right neighbours
    grown[:, 1:] |= mask[:, :-1]
    grown[1:, :] |= mask[:-1, :]
    grown[1:, 1:] |= mask[:-1, :-1]
    boxes = []
    for ys, xs in _regions(grown):
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        w, h = x1 - x0, y1 - y0
        if min(w, h) < MIN_SIZE or float(plane[y0:y1 + 1, x0:x1 + 1].mean()) < BOX_THRESH:
            continue
        d = w * h * UNCLIP_RATIO / (2 * (w + h))
        if min(w, h) + 2 * d < MIN_SIZE + 2:
            continue
        boxes.append((max(0, round(x0 - d)), max(0, round(y0 - d)),
                      min(width, round(x1 + d)), min(height, round(y1 + d))))
    return boxes


def _regions(mask: object) -> list[tuple[list[int], list[int]]]:
    """The 8-connected regions of a boolean array, each as its pixels' rows and columns."""
    import numpy as np

    grid = np.asarray(mask, dtype=bool)
    height, width = grid.shape
    seen = np.zeros_like(grid)
    found = []
    for start_y, start_x in zip(*np.nonzero(grid), strict=True):
        if seen[start_y, start_x]:
            continue
        seen[start_y, start_x] = True
        stack, ys, xs = [(int(start_y), int(start_x))], [], []
        while stack:
            y, x = stack.pop()
            ys.append(y)
            xs.append(x)
            for ny in range(max(0, y - 1), min(height, y + 2)):
                for nx in range(max(0, x - 1), min(width, x + 2)):
                    if grid[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
        found.append((ys, xs))
    return found
