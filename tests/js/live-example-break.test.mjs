// @ts-check
// Unit test of breakPieces (live-example-core.mjs), where an output's name may break across
// lines in the results table. It replaced text.split(/(?<=[/_.:-])/): a regex lookbehind,
// which WebKit at Safari 16.0's level (WPE WebKit 2.38) cannot parse, so that every widget
// failed to load there ("Invalid regular expression: invalid group specifier name").
// This test keeps the lookbehind as the oracle: node runs it, no browser ever sees it.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { breakPieces } from "../../plugins/onnx_glossary/assets/live-example-core.mjs";

/** The widget's former split, kept here only to compare with. @param {string} text */
const lookbehind = (text) => text.split(/(?<=[/_.:-])/);

test("every string of up to 5 characters from a b / _ . : - cuts as the lookbehind did", () => {
  const alphabet = ["a", "b", "/", "_", ".", ":", "-"];
  /** @type {string[]} */
  let strings = [""];
  let checked = 0;
  for (let length = 0; length <= 5; length++) {
    for (const text of strings) {
      assert.deepEqual(breakPieces(text), lookbehind(text), JSON.stringify(text));
      checked++;
    }
    strings = strings.flatMap((text) => alphabet.map((c) => text + c));
  }
  assert.equal(checked, (7 ** 6 - 1) / 6); // 1 + 7 + ... + 7^5 strings
});

test("real output names, other characters and line breaks cut as the lookbehind did", () => {
  for (const text of ["output", "sequential/dense_1/Softmax:0", "probabilities", "x.y.z",
    "ünï_cödé/名前", "a b\tc", "line\nbreak_here", "--", "a\u2028b.c", "🙂_🙂"]) {
    assert.deepEqual(breakPieces(text), lookbehind(text), JSON.stringify(text));
  }
  assert.deepEqual(breakPieces("sequential/dense_1/Softmax:0"),
                   ["sequential/", "dense_", "1/", "Softmax:", "0"]);
});
