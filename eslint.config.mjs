// The lint of the site's JavaScript: `npx eslint` (make lint, and tests/test_lint.py). It
// catches defects (unused or undeclared names, loose equality, shadowing...) and holds the
// syntax floor of what the site ships:
// - the widget's modules (assets/*.mjs) at ES2022, and without regex lookbehind, which WebKit
//   at Safari 16.0's level (WPE WebKit 2.38) cannot parse: a module holding one fails to load
//   there, and every widget with it. The floor is the live examples' browsers, Chrome and Edge
//   111, Firefox 115 and Safari 16.4 (live-example-check.js tells older ones why). They run all
//   of ES2022, the last of it being class static blocks in Safari 16.4, but not all of ES2023:
//   Firefox has symbols as WeakMap keys only from 146 (MDN's browser-compat-data, the pinned
//   devDependency; tests/test_lint.py checks both);
// - the classic scripts every page loads (assets/*.js) at ES2017, so that an older browser
//   still runs them. The one exception is import(), with which the loader and the mermaid
//   stand-in load their modules: a browser without it has no modules to load either.
// The type check is tsc's (tsconfig.json); this file holds no style rules.
import js from "@eslint/js";
import esx from "eslint-plugin-es-x";
import globals from "globals";

const ASSETS = "plugins/onnx_glossary/assets";

/** Rules that catch real defects, for every file. */
const DEFECTS = {
  ...js.configs.recommended.rules,
  "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "all" }],
  eqeqeq: ["error", "always"],
  "prefer-const": "error",
  "no-var": "error",
  "no-shadow": ["error", { builtinGlobals: false, hoist: "functions" }],
  "no-throw-literal": "error",
  "no-self-compare": "error",
  "no-template-curly-in-string": "error",
  "no-unmodified-loop-condition": "error",
  "no-promise-executor-return": "error",
  "no-unused-private-class-members": "error",
  "no-implicit-globals": "error",
  "no-new-wrappers": "error",
  "no-return-assign": "error",
  "no-sequences": "error",
};

/**
 * Browser globals that are easy to use by mistake for a missing local (`event` in a handler
 * that forgot its parameter, `name`, `length`...): on a page they exist, so no-undef is silent.
 */
const CONFUSING_BROWSER_GLOBALS = [
  "close", "closed", "event", "external", "find", "history", "length", "name", "open",
  "opener", "origin", "parent", "print", "status", "stop", "top",
].map((name) => ({ name, message: "Use a local (or window." + name + ") instead." }));

export default [
  { ignores: ["node_modules/**", "site/**", ".venv*/**", "build/**", "dist/**", "bench-out/**"] },
  // No finding is silenced in the code: eslint-disable comments are not read.
  { linterOptions: { noInlineConfig: true, reportUnusedInlineConfigs: "error" } },
  {
    // The generated models/<name>/example.mjs (templates/example.mjs.jinja) is imported by the
    // widget: tests/test_lint.py renders some and lints them as these paths, through stdin.
    files: [ASSETS + "/*.mjs", "models/*/example.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    plugins: { "es-x": esx },
    rules: {
      ...DEFECTS,
      ...esx.configs["flat/restrict-to-es2022"].rules,
      "es-x/no-regexp-lookbehind-assertions": "error",
      "no-restricted-globals": ["error", ...CONFUSING_BROWSER_GLOBALS],
    },
  },
  {
    files: [ASSETS + "/*.js"],
    // Parsed at ES2020 for import() alone; everything after ES2017 is refused below.
    languageOptions: { ecmaVersion: 2020, sourceType: "script", globals: globals.browser },
    plugins: { "es-x": esx },
    rules: {
      ...DEFECTS,
      ...esx.configs["flat/restrict-to-es2017"].rules,
      "es-x/no-dynamic-import": "off",
      "no-restricted-globals": ["error", ...CONFUSING_BROWSER_GLOBALS],
    },
  },
  {
    // The capability check tests for newer features by name; using them is what it must not
    // do, and its own syntax stays ES2017 (the rules above). A catch binding is required
    // there (optional ones are ES2019), so an unused one is named _.
    files: [ASSETS + "/live-example-check.js"],
    rules: {
      "es-x/no-regexp-lookbehind-assertions": "off",
      "es-x/no-bigint": "off",
      "es-x/no-object-fromentries": "off",
      "es-x/no-global-this": "off",
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_",
                                    caughtErrors: "all", caughtErrorsIgnorePattern: "^_" }],
    },
  },
  {
    // The engines' error recorder and probe, served into pages by the test server.
    // Written with var, for the oldest engine the tests drive (WPE WebKit 2.38).
    files: ["tests/support/*.js"],
    languageOptions: { ecmaVersion: 2017, sourceType: "script", globals: globals.browser },
    rules: { ...DEFECTS, "no-var": "off",
             "no-unused-vars": ["error", { caughtErrors: "all", caughtErrorsIgnorePattern: "^_" }] },
  },
  {
    files: ["tests/js/*.mjs", "tests/support/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.node },
    rules: DEFECTS,
  },
];
