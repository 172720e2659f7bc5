"""MediaPipe's own answers on the sample photos: the reference the ONNX re-exports must meet.

Runs MediaPipe 0.10.14's Python solutions API, the original pipelines with the original
TensorFlow Lite models and MediaPipe's own pre- and post-processing, on every photo in this
folder, and writes `mediapipe_reference.json` (boxes, keypoints, landmarks, in pixels of the
photo) and one `<photo>.mask.png` per photo (the selfie-segmentation mask, 0-1 scaled to
0-255). CI has no MediaPipe (it needs numpy < 2): this runs once, by hand, and its output is
committed; tests/test_exports.py compares fresh exports with it.

    make mediapipe-reference     # creates .venv-mediapipe from requirements-mediapipe.txt

Solutions and settings, each MediaPipe's default except where noted:
- SelfieSegmentation(model_selection=0): the general 256x256 model;
- FaceDetection(model_selection=0, min_detection_confidence=0.5): the short-range BlazeFace;
- FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False,
  min_detection_confidence=0.5): detection on every picture (no tracking), 468 points.

MediaPipe reports normalised coordinates; they are written here in pixels: x * width,
y * height, and for landmarks z * width (MediaPipe scales z like x).

Standalone on purpose: it imports nothing of this repository (the project needs numpy >= 2).
"""

from __future__ import annotations

import hashlib
import io
import json
import platform
import sys
from importlib.metadata import version
from pathlib import Path

import mediapipe as mp
import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
PHOTOS = ("astronaut", "astronaut-tilted", "coffee", "chelsea", "chelsea-small")
OUTPUT = HERE / "mediapipe_reference.json"
DIGITS = 3  # pixels to 1/1000: far below any tolerance, short in a diff


def rounded(values: object) -> object:
    return np.round(np.asarray(values, dtype=np.float64), DIGITS).tolist()


def mask_png(mask: np.ndarray) -> bytes:
    levels = np.clip(np.round(mask * 255.0), 0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(levels, mode="L").save(buffer, format="PNG", optimize=False, compress_level=9)
    return buffer.getvalue()


def segmentation(rgb: np.ndarray, name: str) -> dict[str, object]:
    with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0) as solution:
        mask = solution.process(rgb).segmentation_mask
    data = mask_png(mask)
    path = HERE / f"{name}.mask.png"
    path.write_bytes(data)
    return {"mask_png": path.name, "mask_png_sha256": hashlib.sha256(data).hexdigest(),
            "foreground_fraction": round(float((mask > 0.5).mean()), 4),
            "mask_mean": round(float(mask.mean()), 4)}


def detections(rgb: np.ndarray) -> list[dict[str, object]]:
    height, width = rgb.shape[:2]
    found = []
    with mp.solutions.face_detection.FaceDetection(model_selection=0,
                                                   min_detection_confidence=0.5) as solution:
        result = solution.process(rgb)
    for detection in result.detections or []:
        box = detection.location_data.relative_bounding_box
        found.append({
            "score": round(float(detection.score[0]), 4),
            "box": rounded([box.xmin * width, box.ymin * height, (box.xmin + box.width) * width,
                            (box.ymin + box.height) * height]),
            "keypoints": rounded([[k.x * width, k.y * height]
                                  for k in detection.location_data.relative_keypoints]),
        })
    return found


def face_mesh(rgb: np.ndarray) -> list[list[float]] | None:
    height, width = rgb.shape[:2]
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1,
                                         refine_landmarks=False,
                                         min_detection_confidence=0.5) as solution:
        result = solution.process(rgb)
    if not result.multi_face_landmarks:
        return None
    points = result.multi_face_landmarks[0].landmark
    return rounded([[p.x * width, p.y * height, p.z * width] for p in points])  # type: ignore[return-value]


def main() -> None:
    photos = {}
    for name in PHOTOS:
        path = HERE / f"{name}.png"
        with Image.open(path) as image:
            rgb = np.ascontiguousarray(np.array(image.convert("RGB"), dtype=np.uint8))
        photos[name] = {
            "file": path.name,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "width": rgb.shape[1], "height": rgb.shape[0],
            "segmentation": segmentation(rgb, name),
            "face_detection": detections(rgb),
            "face_mesh_landmarks": face_mesh(rgb),
        }
        print(f"{name}: {len(photos[name]['face_detection'])} face(s)")
    reference = {
        "command": "make mediapipe-reference (.venv-mediapipe/bin/python "
                   "models/_photos/mediapipe_reference.py)",
        "versions": {"mediapipe": version("mediapipe"), "numpy": np.__version__,
                     "opencv-contrib-python": version("opencv-contrib-python"),
                     "python": platform.python_version(), "machine": platform.machine()},
        "settings": {
            "selfie_segmentation": "SelfieSegmentation(model_selection=0)",
            "face_detection": "FaceDetection(model_selection=0, min_detection_confidence=0.5)",
            "face_mesh": "FaceMesh(static_image_mode=True, max_num_faces=1, "
                         "refine_landmarks=False, min_detection_confidence=0.5)",
        },
        "units": "pixels of the photo: x * width, y * height (z * width for landmarks); "
                 "boxes [x0, y0, x1, y1]; keypoints in BlazeFace's order: right eye, left eye, "
                 "nose tip, mouth centre, right ear tragion, left ear tragion (the person's "
                 "right and left)",
        "photos": photos,
    }
    OUTPUT.write_text(json.dumps(reference, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    sys.exit(main())
