// The syntax and built-ins the site's own JavaScript may use (run by tests/test_lint.py).
//
// The floor for live examples is Chrome and Edge 111, Firefox 115 and Safari 16.4: the oldest
// browsers with import maps, WebAssembly SIMD and everything else the widget uses. All of them
// have the syntax and built-ins of ES2023, and none of ES2024's (the RegExp v flag came in
// Chrome 112, Firefox 116 and Safari 17). The capability check, live-example-check.js, must
// parse in older browsers too, so that it can tell them why the examples cannot run: ES2017.
// eslint-plugin-es-x's restrict-to-* configs report every built-in and syntax newer than that.
import esx from "eslint-plugin-es-x";

const ASSETS = "plugins/onnx_glossary/assets/";
const CHECK = ASSETS + "live-example-check.js";

const restrictTo = (year, sourceType) => ({
  languageOptions: { ecmaVersion: year, sourceType },
  plugins: { "es-x": esx },
  rules: esx.configs[`flat/restrict-to-es${year}`].rules,
});

export default [
  { files: [ASSETS + "*.mjs"], ...restrictTo(2023, "module") },
  { files: [ASSETS + "*.js"], ignores: [CHECK], ...restrictTo(2023, "script") },
  { files: [CHECK], ...restrictTo(2017, "script") },
  // The test pages' recorder and probe run in the oldest engine tested (WPE WebKit 2.38).
  { files: ["tests/support/*.js"], ...restrictTo(2017, "script") },
];
