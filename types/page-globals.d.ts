// The globals the site's scripts share on a page, for the type check (tsconfig.json) only:
// nothing here is shipped. Each is set by one of the plugin's scripts or by mkdocs-material.

/** What the live-example loader (assets/live-example.js) puts on the page. */
interface OnnxLiveExample {
  /** Ready the widgets of the current document. */
  init: () => void;
  /** Test hook, set by the widget module: sessions created and released on this page. */
  stats?: { sessionsCreated: number; sessionsReleased: number };
  /** Test hook, set by the widget module: the runtime's verbose lines its taps kept and dropped. */
  captured?: { kept: number; dropped: number };
  /**
   * Set by a page (the benchmark's bare loop): called after the widget's timings with the
   * session, its feeds and the timings, before the session is released.
   */
  afterTimings?: (timed: {
    session: import("onnxruntime-web/wasm").InferenceSession;
    feeds: import("onnxruntime-web/wasm").InferenceSession.FeedsType;
    group: number;
    times: number[];
    outputs: unknown;
  }) => Promise<void> | void;
  /**
   * Test hooks, set by a page (tests, the benchmark): `sessionOnly` ends each Run once its
   * session is created and its placement shown, running nothing; `noPlacement` creates sessions
   * without reading their log (the benchmark's widget without capture); `logs`, when an
   * array, gets the runtime's log lines of each session whose placement was read, with the
   * id of the widget that created it.
   */
  sessionOnly?: boolean;
  noPlacement?: boolean;
  /**
   * Test hook, set by a page: the time budget of the timing runs after the reference check
   * (a Run's, and each backend's in "both backends"), in ms, instead of TIMING.budgetMs (3,000). The group size is found as always and at least
   * TIMING.minRuns groups are timed, so 0 keeps the timings line real and short.
   */
  timingBudgetMs?: number;
  logs?: Array<{ widget: string; lines: string[] }>;
  /** Test hook, set by the picture input: the readyState of each track of the last camera stream. */
  cameraTracks?: string[];
}

/** The global `mermaid` mkdocs-material draws diagrams with (assets/mermaid-shim.js sets it). */
interface MermaidGlobal {
  initialize(options: object): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

/** What the capability check (assets/live-example-check.js) found. */
interface OnnxLiveExampleCheck {
  missing: string[];
  worksIn: string;
}

declare var onnxLiveExample: OnnxLiveExample | undefined;
declare var onnxLiveExampleCheck: OnnxLiveExampleCheck | undefined;
/** Set by assets/unfold.js once it listens. */
declare var onnxGlossaryUnfold: boolean | undefined;
declare var mermaid: MermaidGlobal | undefined;
/** mkdocs-material's observable of documents: emits after every (instant) navigation. */
declare var document$: { subscribe(next: () => void): unknown } | undefined;
