"""rapidocr's own DB post-processing on probability maps, for tests/test_text_boxes.py.

Run with a Python that has opencv, pyclipper, shapely, numpy and PyYAML (not the project's
venv: the suite does not depend on OpenCV)::

    python tests/support/rapidocr_boxes.py WHEEL_DIR MAPS_JSON

WHEEL_DIR is the unpacked rapidocr-onnxruntime 1.4.4 wheel; MAPS_JSON a list of
``{"dims": [height, width], "data": [...]}``. Prints, per map, the boxes and scores of
``DBPostProcess`` from the wheel's ``ch_ppocr_det/utils.py`` with the values of its
``config.yaml`` (imported from the file itself, not from an installed rapidocr).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import yaml

PARAMETERS = ("thresh", "box_thresh", "max_candidates", "unclip_ratio", "use_dilation", "score_mode")


def main() -> None:
    package = Path(sys.argv[1]) / "rapidocr_onnxruntime"
    spec = importlib.util.spec_from_file_location("rapidocr_det_utils", package / "ch_ppocr_det" / "utils.py")
    assert spec and spec.loader
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    config = yaml.safe_load((package / "config.yaml").read_text(encoding="utf-8"))["Det"]
    post = utils.DBPostProcess(**{name: config[name] for name in PARAMETERS})
    results = []
    for item in json.loads(Path(sys.argv[2]).read_text(encoding="utf-8")):
        height, width = item["dims"]
        pred = np.array(item["data"], dtype=np.float32).reshape(1, 1, height, width)
        boxes, scores = post(pred, (height, width))
        results.append({"boxes": np.asarray(boxes).tolist(), "scores": [float(s) for s in scores]})
    json.dump({"config": {name: config[name] for name in PARAMETERS}, "min_size": post.min_size,
               "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
