/*
 * Test-only (served by tests/support/engines.py as <prefix>__engines__/error-probe.js): a
 * script of the site's own origin that makes one console error and one uncaught error, so
 * that a test can check that each engine's error collection sees them.
 */
console.error("probe: console");
setTimeout(function () { throw new Error("probe: uncaught"); });
