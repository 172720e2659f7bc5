/*
 * Test-only: records what a reader's console would show, for browsers whose drivers give no
 * console (WebKit's WebDriver). tests/support/engines.py's static server adds
 *   <script src="<prefix>__engines__/recorder.js"></script>
 * to every HTML page it sends, right after the page's Content-Security-Policy <meta>, so the
 * policy governs it ('self' allows it) and it runs before any script of the page. It is never
 * part of a built site.
 *
 * window.__engineRecords lists {kind, text}: kind is "console.error", "uncaught" (an error
 * nobody caught), "unhandledrejection", "resource" (a file that failed to load) or "csp" (a
 * Content-Security-Policy violation). ES5 syntax: it must run in every engine tested,
 * including the oldest (WPE WebKit 2.38).
 */
(function () {
  "use strict";
  if (window.__engineRecords) return;
  var records = [];
  window.__engineRecords = records;

  function text(value) {
    if (value instanceof Error) return value.name + ": " + value.message;
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value);
    } catch (_) {
      return String(value);
    }
  }

  function record(kind, message) {
    records.push({ kind: kind, text: message });
  }

  var consoleError = console.error;
  console.error = function () {
    record("console.error", Array.prototype.map.call(arguments, text).join(" "));
    return consoleError.apply(console, arguments);
  };

  window.addEventListener("error", function (event) {
    var target = event.target;
    if (target && target !== window && target.tagName) { // a file that did not load
      record("resource", target.tagName.toLowerCase() + " " + (target.src || target.href || ""));
      return;
    }
    var where = event.filename ? " (" + event.filename + ":" + event.lineno + ")" : "";
    record("uncaught", (event.error ? text(event.error) : event.message) + where);
  }, true);

  window.addEventListener("unhandledrejection", function (event) {
    record("unhandledrejection", text(event.reason));
  });

  document.addEventListener("securitypolicyviolation", function (event) {
    record("csp", event.effectiveDirective + " blocked " + (event.blockedURI || "(inline)") +
      " in " + (event.sourceFile || event.documentURI) + ":" + event.lineNumber);
  }, true);
})();
