// @ts-check
// Unit tests of the page-wide queue (plugins/onnx_glossary/assets/live-example-queue.mjs)
// through which every session creation, and every other task that replaces the page's
// globals, runs: in order, one at a time, and what a task replaced put back however it ends.
// Run by tests/test_widget_js.py, or alone: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { busy, exclusive } from "../../plugins/onnx_glossary/assets/live-example-queue.mjs";

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** A stand-in for a global object: two properties a task may replace. */
function page() {
  return { fetch: () => "page fetch", log: () => "page log" };
}

describe("order and exclusivity", () => {
  test("tasks run in the order asked, each after the one before has ended", async () => {
    /** @type {string[]} */
    const events = [];
    const slow = exclusive(async () => {
      events.push("slow starts");
      await sleep(30);
      events.push("slow ends");
      return "slow";
    });
    const fast = exclusive(() => {
      events.push("fast runs");
      return "fast";
    });
    assert.deepEqual(await Promise.all([slow, fast]), ["slow", "fast"]);
    assert.deepEqual(events, ["slow starts", "slow ends", "fast runs"]);
  });

  test("however their awaits interleave, no two tasks ever run at once", async () => {
    let running = 0;
    let most = 0;
    /** @type {number[]} */
    const order = [];
    const tasks = [5, 0, 3, 0, 1, 4, 0, 2].map((delay, index) => exclusive(async () => {
      running++;
      most = Math.max(most, running);
      await sleep(delay);
      await Promise.resolve();
      order.push(index);
      running--;
    }));
    await Promise.all(tasks);
    assert.equal(most, 1);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test("a task sees the globals as they were before any task, not another task's wrapper", async () => {
    const globals = page();
    const original = globals.fetch;
    /** @type {Array<() => string>} */
    const seen = [];
    const wrap = () => exclusive(async ({ replace }) => {
      seen.push(globals.fetch);
      const inner = globals.fetch;
      replace(globals, "fetch", () => "wrapped " + inner());
      await sleep(5);
      return globals.fetch();
    });
    assert.deepEqual(await Promise.all([wrap(), wrap(), wrap()]),
                     ["wrapped page fetch", "wrapped page fetch", "wrapped page fetch"]);
    assert.deepEqual(seen, [original, original, original]);
    assert.equal(globals.fetch, original);
  });

  test("busy() says whether a task asked for now would wait", async () => {
    assert.equal(busy(), false);
    /** @type {() => void} */
    let end = () => {};
    const first = exclusive(() => new Promise((resolve) => { end = () => resolve(undefined); }));
    assert.equal(busy(), true);
    const second = exclusive(() => {});
    await Promise.resolve();
    end();
    await first;
    assert.equal(busy(), true); // the second has not ended yet
    await second;
    assert.equal(busy(), false);
  });
});

describe("putting back", () => {
  test("after a task that returns, what it replaced is the original again (===)", async () => {
    const globals = page();
    const [fetch, log] = [globals.fetch, globals.log];
    const result = await exclusive(({ replace }) => {
      replace(globals, "fetch", () => "mine");
      replace(globals, "log", () => "captured");
      return [globals.fetch(), globals.log()];
    });
    assert.deepEqual(result, ["mine", "captured"]);
    assert.equal(globals.fetch, fetch);
    assert.equal(globals.log, log);
  });

  test("after a task that throws, or rejects, too; the error reaches the caller", async () => {
    const globals = page();
    const fetch = globals.fetch;
    await assert.rejects(exclusive(({ replace }) => {
      replace(globals, "fetch", () => "mine");
      throw new Error("thrown");
    }), { message: "thrown" });
    assert.equal(globals.fetch, fetch);
    await assert.rejects(exclusive(async ({ replace }) => {
      replace(globals, "fetch", () => "mine");
      await sleep(1);
      throw new Error("rejected");
    }), { message: "rejected" });
    assert.equal(globals.fetch, fetch);
  });

  test("a failed task does not stop the queue: the next one runs, on the originals", async () => {
    const globals = page();
    const fetch = globals.fetch;
    const failed = exclusive(async ({ replace }) => {
      replace(globals, "fetch", () => "mine");
      await sleep(5);
      throw new Error("failed");
    });
    const next = exclusive(() => globals.fetch);
    await assert.rejects(failed, { message: "failed" });
    assert.equal(await next, fetch);
  });

  test("a wrapper done early is put back at once, and only once", async () => {
    const globals = page();
    const fetch = globals.fetch;
    await exclusive(({ replace }) => {
      const restore = replace(globals, "fetch", () => "mine");
      restore();
      assert.equal(globals.fetch, fetch);
      const later = () => "later";
      replace(globals, "fetch", later);
      restore(); // again: does not take the later wrapper away
      assert.equal(globals.fetch, later);
    });
    assert.equal(globals.fetch, fetch);
  });

  test("a key replaced twice by one task ends as it was, whichever is taken back first", async () => {
    const globals = page();
    const fetch = globals.fetch;
    await exclusive(({ replace }) => {
      const first = replace(globals, "fetch", () => "first");
      replace(globals, "fetch", () => "second");
      first(); // the second sits on top of it: nothing changes yet
      assert.equal(globals.fetch(), "second");
    });
    assert.equal(globals.fetch, fetch);
  });

  test("a global set by something outside the queue meanwhile is left to it", async () => {
    const globals = page();
    const theirs = () => "theirs";
    await exclusive(async ({ replace }) => {
      replace(globals, "fetch", () => "mine");
      await sleep(1);
      globals.fetch = theirs;
    });
    assert.equal(globals.fetch, theirs);
  });
});
