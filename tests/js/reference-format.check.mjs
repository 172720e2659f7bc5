// @ts-check
// Every reference.json the build writes for this repository's models conforms to the format
// the widget declares (live-example-reference.mjs, through reference-format.mjs). Run by
// tests/test_widget_js.py, which writes the files and names them, one path a line, in
// REFERENCE_FILES.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { REFERENCE_FORMAT, formatProblems } from "./reference-format.mjs";

const files = (process.env.REFERENCE_FILES || "").split("\n").filter(Boolean);

test("reference.json files are named", () => {
  assert.ok(files.length > 0, "REFERENCE_FILES names no file");
});

for (const file of files) {
  test(file, () => {
    const value = JSON.parse(readFileSync(file, "utf-8"));
    assert.deepEqual(formatProblems(value, REFERENCE_FORMAT, file), []);
  });
}
