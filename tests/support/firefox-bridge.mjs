/*
 * Test-only: drives Firefox ESR for tests/support/engines.py, one JSON object a line.
 *
 *   node firefox-bridge.mjs /usr/bin/firefox-esr
 *
 * Each line read from stdin is a request {id, op, ...}; each line written to stdout is its
 * answer {id, ok: true, value} or {id, ok: false, error}. The browser is launched once, by
 * puppeteer-core over WebDriver BiDi (no geckodriver); every "open" gets a fresh browser
 * context (its own cache and storage). Console errors and uncaught errors of the open page
 * arrive over BiDi and are kept until the next "open".
 */
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.argv[2] || "/usr/bin/firefox-esr";
const browser = await puppeteer.launch({
  browser: "firefox", executablePath, headless: true,
  // Web content must not reach anything but the test server: no update or telemetry pings.
  extraPrefsFirefox: { "network.dns.disableIPv6": true, "app.update.enabled": false },
});
let context = null;
let page = null;
let errors = [];

const ops = {
  async version() {
    return browser.version();
  },
  async open({ url, width, height }) {
    if (context) await context.close();
    context = await browser.createBrowserContext();
    page = await context.newPage();
    errors = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push("console.error: " + message.text());
    });
    page.on("pageerror", (error) => errors.push("uncaught: " + (error.message || error)));
    await page.setViewport({ width, height });
    await page.goto(url, { waitUntil: "load" });
    return null;
  },
  async click({ selector }) {
    await page.click(selector);
    return null;
  },
  async evaluate({ expression }) {
    return page.evaluate(expression);
  },
  async errors() {
    return errors;
  },
  async screenshot({ path, fullPage }) {
    await page.screenshot({ path, fullPage: Boolean(fullPage) });
    return null;
  },
};

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  if (request.op === "close") break;
  let answer;
  try {
    answer = { id: request.id, ok: true, value: (await ops[request.op](request)) ?? null };
  } catch (error) {
    answer = { id: request.id, ok: false, error: String(error && error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
