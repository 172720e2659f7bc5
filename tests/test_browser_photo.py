"""The Your photo page in real Chromium (issue 22): face detection then the face mesh, run as
one declared pipeline on the sample, on a photo of the reader's and on one frame of a (fake)
camera; bad input; the page at 360 px. One build and one browser for the module; the camera
needs a browser launched with a fake device, so its test launches its own.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from .sitebuild import REPO, Built
from .support.browser import PageProbe, StaticServer, launch_beside, wait_until
from .test_browser_screens import MAIN_CONTAINERS, OVERFLOW_JS, PHONE

pytestmark = pytest.mark.browser

ROOT = "[data-pipeline]"
PHOTO = REPO / "models" / "_photos" / "astronaut.png"
#: How the widget says where it is: its state, answer, check, error line and the picture's size.
READ = """() => { const r = document.querySelector('[data-pipeline]');
  const text = (name) => r.querySelector(`[data-le="${name}"]`).textContent.trim();
  return {state: r.dataset.state, answer: r.dataset.answer || null, match: r.dataset.match || null,
          picture: r.dataset.picture || null, timings: JSON.parse(r.dataset.timings || '{}'),
          error: r.querySelector('[data-le="error"]').hidden ? null : text('error'),
          camera: r.dataset.camera || null, runnable: !r.querySelector('button[data-action="run"]').disabled,
          outputs: r.pipelineOutputs || null,
          drawn: r.querySelector('[data-le="heatmap"]').toDataURL().length}; }"""


def open_page(context, server: StaticServer):  # type: ignore[no-untyped-def]
    page = context.new_page()
    probe = PageProbe(server.origin).attach(page)
    page.goto(server.url + "your-photo/")
    wait_until(page, "document.querySelector('[data-pipeline]')?.dataset.ready === 'true'")
    # The timings stay real and short: the group size, then the fewest timed groups.
    page.evaluate("window.onnxLiveExample.timingBudgetMs = 0")
    return page, probe


def run(page, *, picture: str | None = None) -> dict:  # type: ignore[no-untyped-def]
    """Press Run on the picked picture (a file's path, else the one picked before); the widget
    as it reads once the Run has ended."""
    if picture is not None:
        page.set_input_files(f'{ROOT} input[data-le="file"]', picture)
    page.click(f'{ROOT} button[data-action="run"]')
    wait_until(page, "['done', 'error'].includes(document.querySelector('[data-pipeline]').dataset.state)",
               timeout=120_000)
    return page.evaluate(READ)


@pytest.fixture(scope="module")
def ran(browser, server: StaticServer) -> Iterator[tuple[object, PageProbe, dict]]:
    """The Your photo page after a Run of the pipeline on its sample."""
    context = browser.new_context()
    page, probe = open_page(context, server)
    yield page, probe, run(page)
    context.close()


def test_the_face_mesh_runs_on_the_face_the_detector_found_as_the_build_did(ran, real_site: Built) -> None:
    _, probe, seen = ran
    assert seen["state"] == "done", seen["error"]
    assert seen["answer"] == "1 face, 0.92 · 468 points on the face (face score 1.00)"
    assert seen["match"] == "true"
    # One live example, both models' timings.
    assert set(seen["timings"]) == {"face-detection", "face-landmarks"}
    assert all(ms > 0 for ms in seen["timings"].values())
    reference = json.loads((real_site.site / "models" / "face-landmarks" / "pipeline.json").read_text())
    built = {step["model"]: {o["name"]: np.array(o["data"]).reshape(o["dims"]) for o in step["outputs"]}
             for step in reference["steps"]}
    points = np.array(seen["outputs"]["face-landmarks"]["landmarks"]["data"]).reshape(468, 3)[:, :2]
    assert np.abs(points - built["face-landmarks"]["landmarks"][:, :2]).max() <= 2.0
    x0, y0, x1, y1 = seen["outputs"]["face-detection"]["boxes"]["data"][:4]
    # The mesh's centre lies in the detected box, and every point in the square the graph crops
    # around it (1.5 times the box's longer side): the mesh reaches the forehead, above the box.
    centre_x, centre_y = points.mean(axis=0)
    assert x0 <= centre_x <= x1 and y0 <= centre_y <= y1
    half = 0.75 * max(x1 - x0, y1 - y0)
    assert np.all(np.abs(points - [(x0 + x1) / 2, (y0 + y1) / 2]) <= half)
    assert probe.errors == []


def bad_files(folder: Path) -> dict[str, Path]:
    """A text file named .jpg, and a JPEG cut off halfway."""
    text = folder / "notes.jpg"
    text.write_text("This is not a picture.\n", encoding="utf-8")
    jpeg = io.BytesIO()
    Image.open(PHOTO).save(jpeg, "JPEG", quality=90)
    truncated = folder / "truncated.jpg"
    truncated.write_bytes(jpeg.getvalue()[:len(jpeg.getvalue()) // 2])
    return {"text": text, "truncated": truncated}


def test_a_file_that_is_no_picture_is_one_line_and_the_answer_stays(ran, tmp_path: Path) -> None:
    page, _, before = ran
    for name, path in bad_files(tmp_path).items():
        seen = run(page, picture=str(path))
        assert seen["state"] == "error", name
        assert seen["error"] and "\n" not in seen["error"] and "not a picture" in seen["error"], name
        assert seen["runnable"], name
        # The previous result stays until a new one replaces it.
        assert (seen["answer"], seen["drawn"]) == (before["answer"], before["drawn"]), name


def test_a_huge_photo_is_scaled_to_the_stated_size_and_a_phone_photo_read_upright(ran, tmp_path: Path) -> None:
    page, probe, _ = ran
    huge = tmp_path / "huge.png"
    Image.new("RGB", (12_000, 9_000), (200, 180, 160)).save(huge, compress_level=1)
    seen = run(page, picture=str(huge))
    assert (seen["state"], seen["picture"], seen["answer"]) == ("done", "320x240", "No face found")
    # A phone photo stored on its side, with EXIF orientation 6 (turn 90° clockwise to show).
    upright = Image.open(PHOTO).crop((0, 0, 256, 200))
    exif = Image.Exif()
    exif[0x0112] = 6
    phone = tmp_path / "phone.jpg"
    upright.rotate(90, expand=True).save(phone, "JPEG", quality=95, exif=exif)
    asked = len(probe.requests)
    seen = run(page, picture=str(phone))
    assert (seen["state"], seen["picture"]) == ("done", "256x200")
    assert seen["answer"].startswith("1 face") and "468 points" in seen["answer"]
    # After a photo is chosen and run, the page asks for nothing but the site's own files.
    assert all(url.startswith(page.url.split("your-photo/")[0]) for url in probe.requests[asked:])
    assert probe.other_origin == []


def test_the_page_fits_a_360px_phone_with_its_answers(ran) -> None:
    page, probe, _ = ran
    page.set_viewport_size(PHONE)
    wait_until(page, f"window.innerWidth === {PHONE['width']}")
    found = page.evaluate(OVERFLOW_JS, MAIN_CONTAINERS)
    assert found["scrollWidth"] <= found["innerWidth"] and not found["clipped"] and not found["sticking"], found
    assert probe.errors == []


def y4m(picture: Path, out: Path) -> Path:
    """The picture as a one-frame YUV4MPEG2 file (4:2:0, BT.601 full range), what Chromium's
    fake camera plays."""
    rgb = np.asarray(Image.open(picture).convert("RGB"), dtype=np.float64)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = 128 + (b - y) * 0.564
    v = 128 + (r - y) * 0.713
    half = lambda plane: plane.reshape(plane.shape[0] // 2, 2, plane.shape[1] // 2, 2).mean(axis=(1, 3))  # noqa: E731
    planes = [np.clip(p, 0, 255).round().astype(np.uint8).tobytes() for p in (y, half(u), half(v))]
    height, width = y.shape
    out.write_bytes(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode()
                    + b"FRAME\n" + b"".join(planes))
    return out


def test_one_camera_frame_is_taken_its_face_found_and_the_camera_stopped(browser, server: StaticServer,
                                                                        tmp_path: Path) -> None:
    video = y4m(PHOTO, tmp_path / "astronaut.y4m")
    camera = launch_beside(browser, extra_args=["--use-fake-device-for-media-stream",
                                                f"--use-file-for-fake-video-capture={video}"])
    try:
        context = camera.new_context(permissions=["camera"])
        page, probe = open_page(context, server)
        page.click(f'{ROOT} button[data-action="camera"]')
        wait_until(page, "document.querySelector('[data-pipeline]').dataset.camera === 'taken'")
        assert page.evaluate("window.onnxLiveExample.cameraTracks") == ["ended"]
        taken = run(page)
        # Then refused: the reader takes the permission back, and asks for another frame.
        context.clear_permissions()
        page.click(f'{ROOT} button[data-action="camera"]')
        wait_until(page, "document.querySelector('[data-pipeline]').dataset.camera === 'refused'")
        refused = page.evaluate(READ)
        context.close()
    finally:
        camera.close()
    assert taken["state"] == "done", taken["error"]
    assert taken["picture"] == "256x256" and taken["answer"].startswith("1 face")
    assert refused["error"] and "\n" not in refused["error"] and "camera" in refused["error"]
    assert refused["runnable"] and (refused["answer"], refused["drawn"]) == (taken["answer"], taken["drawn"])
    assert probe.errors == []


def test_the_cut_out_downloads_as_a_png_and_a_file_that_is_no_picture_keeps_it(ran, tmp_path: Path) -> None:
    page, probe, _ = ran
    cut = "#live-example-background-removal"
    state = f"document.querySelector('{cut}').dataset.state"
    page.click(f'{cut} button[data-action="run"]')
    wait_until(page, f"['done', 'error'].includes({state})", timeout=120_000)
    link = page.locator(f"{cut} a[download]")
    assert link.get_attribute("href").startswith("data:image/png;base64,")
    answer = page.get_attribute(cut, "data-answer")
    page.set_input_files(f'{cut} input[data-le="file"]', str(bad_files(tmp_path)["text"]))
    page.click(f'{cut} button[data-action="run"]')
    wait_until(page, f"['done', 'error'].includes({state})", timeout=120_000)
    error = page.locator(f'{cut} [data-le="error"]').text_content() or ""
    assert "not a picture" in error and "\n" not in error
    assert page.get_attribute(cut, "data-answer") == answer
    assert page.locator(f"{cut} a[download]").count() == 1
    assert page.is_enabled(f'{cut} button[data-action="run"]')
    assert probe.errors == []


def run_widget(page, name: str, picture: Path | None = None) -> dict:  # type: ignore[no-untyped-def]
    """Run one model's widget of the page (on a file of the reader's, else its sample): its
    answer and outputs."""
    widget = f"#live-example-{name}"
    if picture is not None:
        page.set_input_files(f'{widget} input[data-le="file"]', str(picture))
    page.click(f'{widget} button[data-action="run"]')
    wait_until(page, f"['done', 'error'].includes(document.querySelector('{widget}').dataset.state)",
               timeout=120_000)
    return page.eval_on_selector(widget, "e => ({...e.dataset, outputs: e.liveExampleOutputs})")


def box_iou(a: list[float], b: list[float]) -> float:
    inner = max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return inner / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inner)


def test_the_mask_and_the_face_match_the_build_and_the_limits_show(ran, real_site: Built) -> None:
    page, probe, _ = ran
    built = {name: {o["name"]: o["data"] for o in json.loads(
        (real_site.site / "models" / name / "reference.json").read_text())["outputs"]}
        for name in ("background-removal", "face-detection")}
    mask = np.array(run_widget(page, "background-removal")["outputs"]["mask"]["data"]) > 0.5
    expected = np.array(built["background-removal"]["mask"]) > 0.5
    assert (mask & expected).sum() / (mask | expected).sum() >= 0.98
    face = run_widget(page, "face-detection")
    assert box_iou(face["outputs"]["boxes"]["data"][:4], built["face-detection"]["boxes"][:4]) >= 0.9
    # A real photo with no face, and the cat the face detector's page says it takes for one.
    photos = REPO / "models" / "_photos"
    assert run_widget(page, "face-detection", photos / "coffee.png")["answer"] == "No face found"
    cat = run_widget(page, "face-detection", photos / "chelsea-small.png")
    assert cat["answer"].startswith("1 face, 0.6")
    # The face mesh's own score says it is no face: no mesh is drawn over the cat.
    assert run(page, picture=str(photos / "chelsea-small.png"))["answer"] == (
        "1 face, 0.63 · No points placed: face_score 0.00, below 0.5")
    assert probe.errors == []
