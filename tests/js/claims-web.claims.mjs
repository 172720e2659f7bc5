// @ts-check
// What the glossary says onnxruntime-web does, run on the shipped package (node_modules, 1.31.1)
// in Node 20. Each test is named after the term and the claim it backs; glossary/claims.yml
// lists them. Run by tests/test_claims_node.py, which writes the small models this file loads
// (tests/claim_models.py) into the folder named by CLAIMS_MODELS. Claims that only a browser
// can show (WebGPU, CSP, isolation, MIME types) are in tests/test_claims_browser.py.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

/** @typedef {typeof import("onnxruntime-web/wasm")} Ort */

/**
 * A tensor's values as a plain array (Tensor.data is typed as the union of every element type).
 * @param {{data: unknown}} tensor
 * @returns {Array<number | bigint | string>}
 */
const values = (tensor) => Array.from(/** @type {ArrayLike<number | bigint | string>} */ (tensor.data));

/**
 * The type and shape of a tensor input or output (ValueMetadata is typed as a union with the
 * non-tensor values, which have neither).
 * @param {unknown} metadata
 */
const tensorInfo = (metadata) =>
  /** @type {{type: string, shape: ReadonlyArray<number | string>}} */ (metadata);

/**
 * A value the runtime's types refuse, passed on purpose to see the runtime's own error.
 * @param {unknown} value
 * @returns {never}
 */
const untyped = (value) => /** @type {never} */ (value);

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DIST = join(REPO, "node_modules", "onnxruntime-web", "dist");
const MODELS = process.env.CLAIMS_MODELS;
assert.ok(MODELS, "CLAIMS_MODELS must name the folder of claim models (tests/test_claims_node.py)");

const model = (/** @type {string} */ name) => readFileSync(join(MODELS, `${name}.onnx`));
const repoModel = (/** @type {string} */ name) => readFileSync(join(REPO, "models", name, "model.onnx"));

// The imports a page can choose, by their package export name.
/** @type {Record<string, string>} */
const BUNDLES = {
  "onnxruntime-web/wasm": "ort.wasm.bundle.min.mjs",
  "onnxruntime-web/webgpu": "ort.webgpu.bundle.min.mjs",
  "onnxruntime-web": "ort.bundle.min.mjs",
  "onnxruntime-web/all": "ort.all.bundle.min.mjs",
  "onnxruntime-web/webgl": "ort.webgl.min.mjs",
  "onnxruntime-web/jspi": "ort.jspi.bundle.min.mjs",
};
/** @type {Map<string, Ort>} */
const loaded = new Map();
/**
 * @param {string} name
 * @returns {Promise<Ort>}
 */
async function ort(name) {
  if (!loaded.has(name)) {
    const module = await import(join(DIST, BUNDLES[name]));
    module.env.wasm.numThreads = 1;
    loaded.set(name, module);
  }
  return /** @type {Ort} */ (loaded.get(name));
}
const MAIN = ["onnxruntime-web/wasm", "onnxruntime-web/webgpu", "onnxruntime-web"];

// The error of a promise that must fail (assert.rejects hides the message from later checks).
/**
 * @param {Promise<unknown>} promise
 * @returns {Promise<string>}
 */
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return /** @type {Error} */ (error).message.replace(/\s+/g, " ");
  }
  assert.fail("expected a failure, got none");
}

// Everything the runtime writes to the console while `body` runs.
/** @param {() => Promise<unknown>} body */
async function consoleDuring(body) {
  /** @type {string[]} */
  const said = [];
  const levels = /** @type {Record<string, (...args: unknown[]) => void>} */ (
    /** @type {unknown} */ (console));
  /** @type {Record<string, (...args: unknown[]) => void>} */
  const saved = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    saved[level] = levels[level];
    levels[level] = (...args) => said.push(`${level}: ${args.join(" ")}`);
  }
  try {
    await body();
  } finally {
    Object.assign(levels, saved);
  }
  return said;
}

const linearInput = (/** @type {Ort} */ web, rows = 1) =>
  new web.Tensor("float32", Float32Array.from({ length: 3 * rows }, (_, i) => i + 1), [rows, 3]);

test("onnxruntime_web__accepts_ir_13_refuses_ir_14", async () => {
  for (const name of MAIN) {
    const { InferenceSession } = await ort(name);
    await InferenceSession.create(model("relu-ir13"));
    assert.match(await failure(InferenceSession.create(model("relu-ir14"))),
      /Unsupported model IR version: 14, max supported IR version: 13/, name);
  }
});

test("opset__onnxruntime_web_accepts_opset_26_refuses_27_as_under_development", async () => {
  for (const name of MAIN) {
    const { InferenceSession } = await ort(name);
    await InferenceSession.create(model("relu-opset26"));
    const message = await failure(InferenceSession.create(model("relu-opset27")));
    assert.match(message, /Opset 27 is under development/, name);
    assert.match(message, /Current official support for domain ai\.onnx is till opset 26/, name);
  }
});

test("onnxruntime_web__ai_onnx_ml_runs_in_wasm_and_default_imports_not_in_webgpu", async () => {
  for (const name of ["onnxruntime-web/wasm", "onnxruntime-web"]) {
    const web = await ort(name);
    const session = await web.InferenceSession.create(repoModel("iris"), { executionProviders: ["wasm"] });
    const { label } = await session.run({
      input: new web.Tensor("float32", Float32Array.from([5.1, 3.5, 1.4, 0.2]), [1, 4]),
    });
    assert.deepEqual(values(label), [0n], name);  // setosa
  }
  const webgpu = await ort("onnxruntime-web/webgpu");
  assert.match(
    await failure(webgpu.InferenceSession.create(repoModel("iris"), { executionProviders: ["wasm"] })),
    /No Op registered for LinearClassifier with domain_version of 1/);
});

test("onnxruntime_web__execution_providers_per_import", async () => {
  // Registered means the name reaches its back end (which may then find no GPU in Node);
  // a name the import lacks fails with "backend not found".
  const expected = {
    "onnxruntime-web/wasm": { wasm: true, cpu: true, webgpu: false, webnn: false, webgl: false },
    "onnxruntime-web/webgpu": { wasm: true, cpu: true, webgpu: true, webnn: true, webgl: false },
    "onnxruntime-web": { wasm: true, cpu: true, webgpu: true, webnn: true, webgl: false },
    "onnxruntime-web/all": { wasm: true, cpu: true, webgpu: true, webnn: true, webgl: true },
    "onnxruntime-web/webgl": { wasm: false, cpu: false, webgpu: false, webnn: false, webgl: true },
    "onnxruntime-web/jspi": { wasm: true, cpu: true, webgpu: true, webnn: true, webgl: false },
  };
  for (const [name, providers] of Object.entries(expected)) {
    const { InferenceSession } = await ort(name);
    for (const [provider, registered] of Object.entries(providers)) {
      let message = "";
      await consoleDuring(async () => {
        try {
          await InferenceSession.create(repoModel("linear"), { executionProviders: [provider] });
        } catch (error) {
          message = /** @type {Error} */ (error).message;
        }
      });
      assert.equal(!message.includes(`[${provider}] backend not found`), registered,
        `${name} ${provider}: ${message}`);
    }
  }
});

test("execution_provider__wasm_import_has_no_webgpu_backend", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  assert.match(
    await failure(InferenceSession.create(repoModel("linear"), { executionProviders: ["webgpu"] })),
    /\[webgpu\] backend not found/);
});

test("execution_provider__cpu_and_wasm_name_the_same_provider", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const outputs = [];
  for (const provider of ["cpu", "wasm"]) {
    const session = await web.InferenceSession.create(repoModel("linear"), { executionProviders: [provider] });
    outputs.push(values((await session.run({ input: linearInput(web) })).output));
  }
  assert.deepEqual(outputs[0], outputs[1]);
});

test("io_binding__gpu_buffer_without_webgpu_refused_by_webgpu_and_default_imports", async () => {
  for (const name of ["onnxruntime-web/webgpu", "onnxruntime-web"]) {
    const web = await ort(name);
    const session = await web.InferenceSession.create(repoModel("linear"), {
      executionProviders: ["wasm"], preferredOutputLocation: "gpu-buffer",
    });  // accepted here; refused at run()
    assert.equal(await failure(session.run({ input: linearInput(web) })),
      'preferredLocation "gpu-buffer" is not supported without using WebGPU.', name);
  }
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("linear"), {
    executionProviders: ["wasm"], preferredOutputLocation: "gpu-buffer",
  });
  const { output } = await session.run({ input: linearInput(web) });
  assert.equal(output.location, "cpu");
  assert.equal(output.data.length, 1);
});

test("tensor__data_length_must_match_the_shape", async () => {
  const { Tensor } = await ort("onnxruntime-web/wasm");
  assert.throws(() => new Tensor("float32", new Float32Array(5), [2, 3]),
    { message: "Tensor's size(6) does not match data length(5)." });
});

test("tensor__typed_array_must_match_the_type", async () => {
  const { Tensor } = await ort("onnxruntime-web/wasm");
  assert.throws(() => new Tensor("float32", new Float64Array(6), [2, 3]),
    { message: "A float32 tensor's data must be type of function Float32Array() { [native code] }" });
});

test("tensor__plain_arrays_are_copied_and_int64_numbers_become_bigint64array", async () => {
  const { Tensor } = await ort("onnxruntime-web/wasm");
  const floats = new Tensor("float32", [1, 2, 3], [3]);
  assert.ok(floats.data instanceof Float32Array);
  const ints = new Tensor("int64", [1, 2], [2]);
  assert.ok(ints.data instanceof BigInt64Array);
  assert.deepEqual(values(ints), [1n, 2n]);
  assert.equal(floats.location, "cpu");
});

test("tensor__missing_batch_axis_is_an_invalid_rank", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("linear"));
  assert.match(
    await failure(session.run({ input: new web.Tensor("float32", Float32Array.from([1, 2, 3]), [3]) })),
    /Invalid rank for input: input Got: 1 Expected: 2/);
});

test("tensor__outputs_come_back_as_typed_tensors", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("linear"));
  const { output } = await session.run({ input: linearInput(web, 2) });
  assert.equal(output.type, "float32");
  assert.deepEqual(output.dims, [2, 1]);
  assert.ok(output.data instanceof Float32Array && output.data.length === 2);
});

test("element_type__float64_for_a_float32_input_is_rejected", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("linear"));
  assert.match(
    await failure(session.run({ input: new web.Tensor("float64", Float64Array.from([1, 2, 3]), [1, 3]) })),
    /Unexpected input data type\. Actual: \(tensor\(double\)\) , expected: \(tensor\(float\)\)/);
  assert.deepEqual(session.inputMetadata.map((m) => tensorInfo(m).type), ["float32"]);
});

test("element_type__int64_outputs_arrive_as_bigint64array", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("iris"));
  const { label } = await session.run({
    input: new web.Tensor("float32", Float32Array.from([6.3, 3.3, 6.0, 2.5]), [1, 4]),
  });
  assert.ok(label.data instanceof BigInt64Array);
  assert.equal(Number(label.data[0]), 2);  // virginica
  assert.throws(() => /** @type {number} */ (label.data[0]) + 1, TypeError);  // BigInt and Number do not mix
});

test("top_k__indices_arrive_as_bigint64array", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("top-k"));
  const { values: top, indices } = await session.run({
    x: new web.Tensor("float32", Float32Array.from([0.1, 0.7, 0.2, 0.7, 0.3]), [1, 5]),
  });
  assert.ok(indices.data instanceof BigInt64Array);
  assert.deepEqual(values(indices), [1n, 3n]);  // a tie: the lower index first
  assert.deepEqual(values(top).map((v) => Number(v).toFixed(3)), ["0.700", "0.700"]);
});

test("free_dimension_overrides__input_metadata_reads_4_3", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  const plain = await InferenceSession.create(repoModel("linear"));
  assert.deepEqual(tensorInfo(plain.inputMetadata[0]).shape, ["batch", 3]);
  const pinned = await InferenceSession.create(repoModel("linear"), { freeDimensionOverrides: { batch: 4 } });
  assert.deepEqual(tensorInfo(pinned.inputMetadata[0]).shape, [4, 3]);
});

test("free_dimension_overrides__another_size_fails_and_the_session_stays_usable", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(repoModel("linear"), { freeDimensionOverrides: { batch: 4 } });
  assert.match(await failure(session.run({ input: linearInput(web, 2) })),
    /Got invalid dimensions for input: input for the following indices index: 0 Got: 2 Expected: 4/);
  const { output } = await session.run({ input: linearInput(web, 4) });
  assert.deepEqual(output.dims, [4, 1]);
});

test("free_dimension_overrides__an_unknown_name_is_ignored_without_a_warning", async () => {
  const web = await ort("onnxruntime-web/wasm");
  /** @type {import("onnxruntime-web/wasm").InferenceSession[]} */
  const made = [];
  const said = await consoleDuring(async () => {
    const session = await web.InferenceSession.create(repoModel("linear"), { freeDimensionOverrides: { btach: 4 } });
    made.push(session);
    await session.run({ input: linearInput(web, 2) });
  });
  assert.deepEqual(said, []);
  assert.deepEqual(tensorInfo(made[0].inputMetadata[0]).shape, ["batch", 3]);
});

test("zipmap__session_loads_and_reading_the_output_fails", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("classifier-zipmap"));
  assert.match(
    await failure(session.run({ x: new web.Tensor("float32", Float32Array.from([1, 2]), [1, 2]) })),
    /Reading data from non-tensor typed value is not supported/);
});

test("metadata_props__onnxruntime_web_has_no_call_for_them", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  const session = await InferenceSession.create(repoModel("digits"));  // 12 metadata_props entries
  const api = new Set(Object.getOwnPropertyNames(Object.getPrototypeOf(session)));
  api.delete("constructor");
  assert.deepEqual([...api].sort(), ["endProfiling", "inputMetadata", "inputNames", "outputMetadata",
    "outputNames", "release", "run", "startProfiling"]);
  assert.ok(!JSON.stringify(session.inputMetadata).includes("framework"));
});

test("float16__without_float16array_the_data_is_raw_bits_in_a_uint16array", async () => {
  assert.equal("Float16Array" in globalThis, false, "Node 20 has no Float16Array");
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("relu-float16"));
  // 1, -1, 0, 2, 0, 0 as IEEE binary16 bit patterns
  const x = new web.Tensor("float16", new Uint16Array([0x3c00, 0xbc00, 0, 0x4000, 0, 0]), [2, 3]);
  const { y } = await session.run({ x });  // runs on the WebAssembly back end
  assert.ok(y.data instanceof Uint16Array);
  assert.deepEqual(values(y), [0x3c00, 0, 0, 0x4000, 0, 0]);
});

test("graph_optimisation__web_levels_are_the_five_names", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  for (const level of /** @type {const} */ (["disabled", "basic", "extended", "layout", "all"])) {
    await InferenceSession.create(repoModel("linear"), { graphOptimizationLevel: level });
  }
  assert.match(await failure(InferenceSession.create(repoModel("linear"), { graphOptimizationLevel: untyped("ORT_ENABLE_ALL") })),
    /unsupported graph optimization level: ORT_ENABLE_ALL/);
});

// The operators an import cannot create a session for, among the single-operator test models
// of onnx 1.23.2 (tests/claim_models.py, single_operator_cases), as "domain__op".
/** @type {Map<string, string[]>} */
const uncovered = new Map();
/**
 * @param {string} name
 * @returns {Promise<string[]>}
 */
async function operatorsWithoutKernel(name) {
  if (!uncovered.has(name)) {
    const folder = process.env.CLAIMS_CASES;
    assert.ok(folder, "CLAIMS_CASES must name the folder of single-operator models");
    const { InferenceSession } = await ort(name);
    const missing = [];
    const files = readdirSync(folder).filter((f) => f.endsWith(".onnx"));
    assert.ok(files.length > 150, `only ${files.length} operator models`);
    for (const file of files) {
      try {
        const session = await InferenceSession.create(readFileSync(join(folder, file)), { logSeverityLevel: 3 });
        await session.release();
      } catch (error) {
        // Any other failure would be a broken test model, not a missing kernel: it must not hide.
        assert.match(/** @type {Error} */ (error).message, /Could not find an implementation|No Op registered/, file);
        missing.push(file.replace(/\.onnx$/, ""));
      }
    }
    uncovered.set(name, missing.sort());
  }
  return uncovered.get(name) ?? [];
}

test("operator__the_wasm_and_default_builds_lack_only_three_tested_operators", async () => {
  for (const name of ["onnxruntime-web/wasm", "onnxruntime-web"]) {
    assert.deepEqual(await operatorsWithoutKernel(name),
      ["ai.onnx__Bernoulli", "ai.onnx__ImageDecoder", "ai.onnx__RoiAlign"], name);
  }
});

test("operator__the_webgpu_build_also_leaves_out_ml_and_string_operators", async () => {
  const wasm = new Set(await operatorsWithoutKernel("onnxruntime-web/wasm"));
  const extra = (await operatorsWithoutKernel("onnxruntime-web/webgpu")).filter((op) => !wasm.has(op));
  assert.deepEqual(extra, ["ai.onnx.ml__ArrayFeatureExtractor", "ai.onnx.ml__Binarizer",
    "ai.onnx.ml__LabelEncoder", "ai.onnx.ml__TreeEnsemble", "ai.onnx__CumProd", "ai.onnx__CumSum",
    "ai.onnx__Dropout", "ai.onnx__RegexFullMatch", "ai.onnx__StringConcat", "ai.onnx__StringNormalizer",
    "ai.onnx__StringSplit", "ai.onnx__TfIdfVectorizer"]);
});

test("external_data__without_the_option_creation_fails", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  assert.match(await failure(InferenceSession.create(model("linear-external"))),
    /Failed to load external data file .*linear-external\.onnx\.data.*Module\.MountedFiles is not available/);
});

test("external_data__the_option_maps_the_path_to_bytes", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const data = readFileSync(join(MODELS, "linear-external.onnx.data"));
  const session = await web.InferenceSession.create(model("linear-external"), {
    externalData: [{ path: "linear-external.onnx.data", data }],
  });
  const { y } = await session.run({ x: new web.Tensor("float32", Float32Array.from([1, 0, 0]), [1, 3]) });
  assert.deepEqual(y.dims, [1, 256]);
  assert.ok(Math.abs(Number(y.data[255]) - 0.765) < 1e-6);  // W[255, 0] = 765 / 1000
});

test("jspi__an_engine_without_jspi_refuses_the_jspi_import", async () => {
  assert.equal("Suspending" in WebAssembly, false, "Node 20 has no JSPI");
  // A module instance of its own: the first initialisation is the one that names the cause.
  const { InferenceSession, env } = await import(`${pathToFileURL(join(DIST, BUNDLES["onnxruntime-web/jspi"]))}?fresh`);
  env.wasm.numThreads = 1;
  // Not even on WebAssembly: the whole import needs JSPI.
  assert.match(await failure(InferenceSession.create(repoModel("linear"), { executionProviders: ["wasm"] })),
    /\[wasm\] Error: WebAssembly JSPI is not supported in the current environment\./);
});

test("webnn__without_the_api_creation_fails", async () => {
  assert.equal(/** @type {{ml?: unknown} | undefined} */ (globalThis.navigator)?.ml, undefined);
  for (const name of ["onnxruntime-web", "onnxruntime-web/webgpu"]) {
    const { InferenceSession } = await ort(name);
    assert.match(await failure(InferenceSession.create(repoModel("linear"), { executionProviders: ["webnn"] })),
      /\[webnn\] Error: WebNN is not supported in current environment/, name);
  }
});

test("webnn__ml_tensor_is_a_tensor_location", async () => {
  const { Tensor } = await ort("onnxruntime-web/webgpu");
  // The constructor keeps the handle without touching it; a real page passes an MLTensor.
  const tensor = Tensor.fromMLTensor({ destroy() {} }, { dataType: "float32", dims: [1, 3] });
  assert.equal(tensor.location, "ml-tensor");
  assert.throws(() => tensor.data, /The data is not on CPU/);
});

test("ort_format__onnxruntime_web_reads_ort_files", async () => {
  const bytes = readFileSync(join(MODELS, "linear.ort"));
  assert.equal(bytes.subarray(4, 8).toString("latin1"), "ORTM");
  for (const name of ["onnxruntime-web/wasm", "onnxruntime-web/webgpu"]) {
    const web = await ort(name);
    const fromOrt = await web.InferenceSession.create(bytes);
    const fromOnnx = await web.InferenceSession.create(model("linear"));
    assert.deepEqual(fromOrt.inputMetadata, fromOnnx.inputMetadata, name);
    const [a, b] = await Promise.all([fromOrt, fromOnnx].map(async (s) =>
      values((await s.run({ input: linearInput(web) })).output)));
    assert.ok(Math.abs(Number(a[0]) - Number(b[0])) < 1e-6, name);
  }
});

test("custom_operators__com_microsoft_gelu_runs_in_onnxruntime_web", async () => {
  for (const name of ["onnxruntime-web/wasm", "onnxruntime-web/webgpu"]) {
    const web = await ort(name);
    const session = await web.InferenceSession.create(model("ms-gelu"));
    const { y } = await session.run({ x: new web.Tensor("float32", Float32Array.from([-1, 0, 1]), [3]) });
    assert.deepEqual(values(y).map((v) => Number(v).toFixed(4)), ["-0.1587", "0.0000", "0.8413"], name);
  }
});

test("custom_operators__an_operator_nobody_implements_fails_creation", async () => {
  const { InferenceSession } = await ort("onnxruntime-web/wasm");
  assert.match(await failure(InferenceSession.create(model("custom-op"))),
    /Fatal error: my\.domain:MyOp\(-1\) is not a registered function\/op/);
  assert.deepEqual(Object.keys((await ort("onnxruntime-web/wasm")).env.wasm).sort(),
    ["initTimeout", "numThreads", "proxy", "trace"]);  // no setting that loads custom kernels
});

test("custom_operators__a_model_local_function_runs_in_onnxruntime_web", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("local-function"));
  const { y } = await session.run({ x: new web.Tensor("float32", Float32Array.from([1, 2]), [2]) });
  assert.deepEqual(values(y), [4, 8]);
});

test("tokenizers__string_tensors_pass_and_string_split_runs_in_the_wasm_import", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("string-split"));
  const { words, count } = await session.run({ x: new web.Tensor("string", ["hello onnx world"], [1]) });
  assert.deepEqual(words.data, ["hello", "onnx", "world"]);
  assert.deepEqual(values(count), [3n]);
  const webgpu = await ort("onnxruntime-web/webgpu");
  assert.match(await failure(webgpu.InferenceSession.create(model("string-split"))),
    /Could not find an implementation for StringSplit\(20\)/);
});

test("int64_inputs__bigint64array_from_numbers_and_its_errors", async () => {
  assert.throws(() => new BigInt64Array(untyped([1, 2])), { name: "TypeError", message: "Cannot convert 1 to a BigInt" });
  assert.deepEqual(Array.from(BigInt64Array.from([1, 2], BigInt)), [1n, 2n]);
  assert.throws(() => JSON.stringify({ id: 1n }), { name: "TypeError", message: "Do not know how to serialize a BigInt" });
  assert.equal(Number(2n ** 60n + 1n), 1152921504606847000);
  assert.equal(Number.MAX_SAFE_INTEGER, 2 ** 53 - 1);
  const limits = BigInt64Array.from([-(2n ** 63n), 2n ** 63n - 1n]);
  assert.deepEqual(Array.from(limits), [-(2n ** 63n), 2n ** 63n - 1n]);
});

test("int64_inputs__an_int64_input_takes_bigint64_data_and_refuses_int32", async () => {
  const web = await ort("onnxruntime-web/wasm");
  const session = await web.InferenceSession.create(model("identity-int64"));
  assert.equal(tensorInfo(session.inputMetadata[0]).type, "int64");
  const numbers = new web.Tensor("int64", [101, 2023], [1, 2]);
  assert.ok(numbers.data instanceof BigInt64Array);
  const { ids } = await session.run({ input_ids: numbers });
  assert.deepEqual(values(ids), [101n, 2023n]);
  assert.match(await failure(session.run({ input_ids: new web.Tensor("int32", Int32Array.from([101, 2023]), [1, 2]) })),
    /Unexpected input data type\. Actual: \(tensor\(int32\)\) , expected: \(tensor\(int64\)\)/);
});
