/**
 * `deno run -A scripts/notebooks.ts`: runs every notebook of notebooks/ top to
 * bottom in a real Jupyter kernel (Deno's), writes the executed copies to
 * notebooks/out/, then checks them: every cell ran, no error output, the
 * expected MIME types (HTML cards, Vega-Lite charts), every job progress
 * display left in its final state, the key figures (such as the held-out
 * ROC AUC) printed and plausible, and no secret anywhere in the output. It
 * prints one line per check and ends with `N passed, N failed[, N skipped]`;
 * it exits non-zero when a check failed. Without Jupyter or the Deno kernel
 * it says so and counts the notebooks as skipped, except under `CI=true`
 * (CI must run them), where each notebook counts as a failure. A Python
 * named by `NOTEBOOK_PYTHON` is the only one tried.
 *
 * The hosted-service notebook runs against `deno task local` served over
 * HTTP on a free port, with throwaway credentials passed to the kernel in
 * its environment (never written into a cell).
 *
 * ```sh
 * deno run -A scripts/notebooks.ts                 # run and check all
 * deno run -A scripts/notebooks.ts --only=02_explain
 * deno run -A scripts/notebooks.ts --html          # also render out/*.html (charts included)
 * deno run -A scripts/notebooks.ts --check-only    # check the executed copies already in out/
 * deno run -A scripts/notebooks.ts --jobs=1        # one notebook at a time (default: 2 side by side)
 * ```
 *
 * Notebooks run side by side, at most `--jobs` (or `NOTEBOOK_JOBS`) at a
 * time, each in its own kernel (started once per notebook); their checks
 * are printed in the notebooks' order, each notebook's as soon as it and
 * those before it are done.
 *
 * Why not `jupyter nbconvert --execute`: Deno's kernel sometimes reports a
 * cell "idle" before sending its `execute_result`, and nbclient (under
 * nbconvert) then drops the result; measured here, 3 of 5 runs of one
 * notebook lost outputs. The small executor below uses jupyter_client (what
 * nbclient is built on) and files every output under the cell whose request
 * it answers, whenever it arrives.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One check's outcome. */
export interface CheckResult {
  /** What was checked. */
  name: string;
  /** Whether it held. */
  ok: boolean;
  /** What was found, when it did not hold (or a figure when it did). */
  detail?: string;
}

/** A figure a notebook must print, read from its text outputs. */
export interface Figure {
  /** Shown in the check line. */
  label: string;
  /** Matches the figure; group 1 is the number. */
  pattern: RegExp;
  /** Lowest plausible value. */
  min?: number;
  /** Highest plausible value. */
  max?: number;
}

/** What a notebook must show once executed. */
export interface NotebookSpec {
  /** File name without `.ipynb`. */
  name: string;
  /** Runs against the local platform served over HTTP (env MLP_*). */
  server?: boolean;
  /** MIME types that must appear in some output. */
  mimes: string[];
  /** Titles of HTML cards that must appear (start of their text/plain). */
  cards: string[];
  /** Least number of job progress displays (each must end complete). */
  progress: number;
  /** Progress displays that must end `CANCELLED` (jobs the notebook cancels; default 0). */
  cancelled?: number;
  /** Key figures. */
  figures: Figure[];
}

const HTML = "text/html";
const VEGALITE = "application/vnd.vegalite.v5+json";

/** The notebooks and what each must show. */
export const NOTEBOOKS: NotebookSpec[] = [
  {
    name: "01_quickstart",
    mimes: [HTML],
    cards: [
      "Account ",
      "Storage connector ",
      "Data schema ",
      "Datasource ",
      "Dataset ",
      "Model ",
      "Deployed model ",
      "ValidationError: ",
      "Models: page 1",
    ],
    progress: 4,
    figures: [
      {
        label: "held-out ROC AUC",
        pattern: /Held-out ROC AUC: (\d\.\d+)/,
        min: 0.8,
        max: 1,
      },
      {
        label: "validation ROC AUC",
        pattern: /validation ROC AUC (\d\.\d+)/,
        min: 0.75,
        max: 1,
      },
    ],
  },
  {
    name: "02_explain",
    mimes: [HTML, VEGALITE],
    cards: [
      "Model ",
      "Row ",
      "Distribution of ",
      "Global explanation of churn",
      "Shape of contract",
      "Shape of tenure",
    ],
    progress: 4,
    figures: [
      {
        label: "customers scored",
        pattern: /(\d+) customers scored/,
        min: 300,
        max: 300,
      },
      {
        label: "explanations add up (largest gap)",
        pattern: /and the log-odds: ([\d.e+-]+)/,
        min: 0,
        max: 1e-6,
      },
    ],
  },
  {
    name: "03_hosted_service",
    server: true,
    mimes: [HTML],
    cards: ["Accounts: page 1", "Model ", "Deployed model ", "NotFoundError: "],
    progress: 4,
    figures: [
      {
        label: "validation ROC AUC",
        pattern: /validation ROC AUC (\d\.\d+)/,
        min: 0.75,
        max: 1,
      },
      {
        label: "month-to-month churn probability",
        pattern: /Churn probability: (\d\.\d+) month-to-month/,
        min: 0.5,
        max: 1,
      },
    ],
  },
  {
    name: "04_jobs",
    mimes: [HTML, VEGALITE],
    cards: [
      "Dataset ",
      "Model churn-small",
      "Training job ",
      "JobCancelledError: ",
      "Models compared: churn-small, churn-full",
      "Learning curve of train-churn-small", // live, under the attached job's bar
      "Learning curve of churn-full",
      "Shape of tenure: churn-small vs churn-full",
    ],
    progress: 6,
    cancelled: 2,
    figures: [
      {
        label: "logged rounds in the model's curve",
        pattern: /(\d+) logged rounds; validation/,
        min: 3,
      },
      {
        label: "validation ROC AUC",
        pattern: /validation ROC AUC (\d\.\d+)/,
        min: 0.75,
        max: 1,
      },
    ],
  },
  {
    name: "05_regression",
    mimes: [HTML, VEGALITE],
    cards: [
      "Model ",
      "Predicted vs actual compressive_strength",
      "Residuals of compressive_strength",
      "Row ",
      "Shape of age",
    ],
    progress: 4,
    figures: [
      {
        // scikit-learn on the same file: HGB 0.937, XGBoost 0.940 (issue 11).
        label: "held-out R²",
        pattern: /Held-out R²: (\d\.\d+)/,
        min: 0.88,
        max: 1,
      },
      {
        label: "explanations add up (largest gap)",
        pattern: /and the prediction: ([\d.e+-]+)/,
        min: 0,
        max: 1e-6,
      },
    ],
  },
  {
    name: "06_constraints",
    mimes: [HTML, VEGALITE],
    cards: [
      "Model ",
      // Titled by the schema's labels (friendly name and unit).
      "Shape of Tenure (months)",
      "Shape of Monthly charges (USD)",
      "Per-group metrics",
    ],
    progress: 4,
    figures: [
      {
        label: "validation ROC AUC with the constraints",
        pattern: /validation ROC AUC (\d\.\d+) with the constraints/,
        min: 0.75,
        max: 1,
      },
      {
        // Exactly monotone: no step of the grid may raise the log-odds.
        label: "monotone check (increases of the log-odds)",
        pattern: /Monotone check: (\d+) increases/,
        min: 0,
        max: 0,
      },
    ],
  },
];

// deno-lint-ignore no-explicit-any
type Json = any;

function text(value: unknown): string {
  return Array.isArray(value)
    ? value.join("")
    : typeof value === "string"
    ? value
    : "";
}

// A job progress display's text: "training job: COMPLETED 100%".
const PROGRESS = /^((?:\w+ )*(?:job|deployed model)): (\S+) (\d+)%/;

/**
 * Checks one executed notebook against its spec. `secrets` must not appear
 * anywhere in it.
 *
 * @example
 * ```ts
 * import { checkNotebook } from "./notebooks.ts";
 * const notebook = { cells: [{ cell_type: "code", execution_count: 1, outputs: [
 *   { output_type: "stream", name: "stdout", text: "AUC 0.91\n" },
 * ] }] };
 * const results = checkNotebook(notebook, {
 *   name: "demo", mimes: [], cards: [], progress: 0,
 *   figures: [{ label: "AUC", pattern: /AUC (\d\.\d+)/, min: 0.8 }],
 * }, ["s3cr3t"]);
 * if (!results.every((r) => r.ok)) throw new Error(JSON.stringify(results));
 * ```
 */
export function checkNotebook(
  notebook: Json,
  spec: NotebookSpec,
  secrets: string[] = [],
): CheckResult[] {
  const cells: Json[] = notebook.cells ?? [];
  const code = cells.filter((c) => c.cell_type === "code");
  const outputs: Json[] = code.flatMap((c) => c.outputs ?? []);
  const results: CheckResult[] = [];
  const check = (name: string, ok: boolean, detail?: string) =>
    results.push({ name, ok, detail });

  const skipped = code.map((c, i) => [c, i] as const).filter(([c]) =>
    c.execution_count == null
  );
  check(
    "every code cell ran",
    code.length > 0 && skipped.length === 0,
    code.length === 0
      ? "no code cells"
      : skipped.length
      ? `code cells not run: ${skipped.map(([, i]) => i + 1).join(", ")}`
      : undefined,
  );

  // A CSV is read with a parser (quoted commas exist), never split by hand.
  const splitting = code.filter((c) =>
    /\.split\(\s*["'`],["'`]\s*\)/.test(text(c.source))
  );
  check(
    "no CSV split by hand",
    splitting.length === 0,
    splitting.length
      ? `${splitting.length} cell(s) call .split(",")`
      : undefined,
  );

  const errors = outputs.filter((o) => o.output_type === "error");
  check(
    "no error outputs",
    errors.length === 0,
    errors.map((e) => `${e.ename}: ${e.evalue}`).join(" | ").slice(0, 500),
  );
  const stderr = outputs.filter((o) =>
    o.output_type === "stream" && o.name === "stderr" &&
    /error|warn/i.test(text(o.text))
  );
  check(
    "no errors or warnings on stderr",
    stderr.length === 0,
    stderr.map((o) => text(o.text)).join("").slice(0, 300),
  );

  const rich = outputs.filter((o) => o.data);
  for (const mime of spec.mimes) {
    const n = rich.filter((o) => o.data[mime] !== undefined).length;
    check(`${mime} outputs present`, n > 0, `${n} found`);
  }

  const plain = rich.map((o) => text(o.data["text/plain"]));
  for (const card of spec.cards) {
    const found = rich.some((o) =>
      text(o.data["text/plain"]).startsWith(card) &&
      (o.data[HTML] !== undefined || o.data[VEGALITE] !== undefined)
    );
    check(
      `rich display "${card.trim()}" shown`,
      found,
      found ? undefined : "not among the HTML/Vega-Lite outputs",
    );
  }

  const bars = plain.map((t) => PROGRESS.exec(t)).filter((m) => m !== null);
  const cancelled = bars.filter((m) => m[2] === "CANCELLED");
  const unfinished = bars.filter((m) =>
    m[2] !== "CANCELLED" &&
    !(m[3] === "100" && /^(COMPLETED|RUNNING)$/.test(m[2]))
  );
  check(
    `progress displays: at least ${spec.progress}, all in their final state`,
    bars.length >= spec.progress && unfinished.length === 0,
    `${bars.length} found${
      unfinished.length
        ? `; not final: ${unfinished.map((m) => m[0]).join(", ")}`
        : ""
    }`,
  );
  check(
    `cancelled jobs' displays: ${spec.cancelled ?? 0}, ending CANCELLED`,
    cancelled.length === (spec.cancelled ?? 0),
    `${cancelled.length} found`,
  );

  const all = outputs.map((o) =>
    o.output_type === "stream" ? text(o.text) : text(o.data?.["text/plain"])
  ).join("\n");
  for (const figure of spec.figures) {
    const m = figure.pattern.exec(all);
    const value = m ? Number(m[1]) : NaN;
    const ok = Number.isFinite(value) && value >= (figure.min ?? -Infinity) &&
      value <= (figure.max ?? Infinity);
    check(
      `${figure.label} printed and plausible`,
      ok,
      m
        ? `${m[1]} (expected ${figure.min ?? "-inf"}..${figure.max ?? "inf"})`
        : `no match for ${figure.pattern}`,
    );
  }

  if (secrets.length) {
    const serialized = JSON.stringify(notebook);
    const leaked = secrets.filter((s) => s && serialized.includes(s));
    check(
      "no secret in the executed notebook",
      leaked.length === 0,
      leaked.length ? `${leaked.length} secret(s) found` : undefined,
    );
  }
  return results;
}

/**
 * Reads the summary line this script ends with, for the test runner.
 *
 * @example
 * ```ts
 * import { parseSummary } from "./notebooks.ts";
 * const counts = parseSummary("ok ...\n30 passed, 1 failed, 2 skipped\n");
 * if (counts?.failed !== 1 || counts.skipped !== 2) throw new Error("unexpected");
 * ```
 */
export function parseSummary(
  output: string,
): { passed: number; failed: number; skipped: number } | undefined {
  // deno-lint-ignore no-control-regex
  const clean = output.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = [
    ...clean.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm),
  ];
  const m = lines.at(-1);
  return m
    ? { passed: +m[1], failed: +m[2], skipped: +(m[3] ?? 0) }
    : undefined;
}

/**
 * Reads each notebook's execution time from the script's output (the
 * `executed in the Deno kernel (N s)` lines), for the test runner's list of
 * the slowest tests.
 *
 * @param output What the script printed.
 * @returns One entry per executed notebook.
 *
 * @example
 * ```ts
 * import { parseNotebookTimes } from "./notebooks.ts";
 * const [t] = parseNotebookTimes("ok   04_jobs: executed in the Deno kernel (72.2 s)\n");
 * if (t.file !== "notebooks/04_jobs.ipynb" || t.seconds !== 72.2) throw new Error(JSON.stringify(t));
 * ```
 */
export function parseNotebookTimes(
  output: string,
): { suite: string; file: string; name: string; seconds: number }[] {
  // deno-lint-ignore no-control-regex
  const clean = output.replace(/\x1b\[[0-9;]*m/g, "");
  return [
    ...clean.matchAll(
      /^(?:ok {2}|FAIL) (\S+): (executed in the Deno kernel) \(([\d.]+) s\)/gm,
    ),
  ].map((m) => ({
    suite: "notebooks",
    file: `notebooks/${m[1]}.ipynb`,
    name: m[2],
    seconds: Number(m[3]),
  }));
}

// The executor (Python, jupyter_client); see the module doc for why.
const EXECUTOR = `import json, os, queue, sys, time
from jupyter_client.manager import KernelManager

# Runs a notebook in its kernel and writes the executed copy. Unlike nbclient,
# outputs are routed by their parent message id for the whole run, because
# Deno's kernel may send "idle" before a cell's execute_result: nbclient
# would drop that result, and it is exactly what the checks look at.
src, dst, cell_timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
nb = json.load(open(src))
name = nb.get("metadata", {}).get("kernelspec", {}).get("name", "deno")
km = KernelManager(kernel_name=name)
km.start_kernel(cwd=os.path.dirname(os.path.abspath(src)), env=dict(os.environ))
kc = km.client()
kc.start_channels()
kc.wait_for_ready(timeout=60)

cells = nb["cells"]
owner, displays, idle, replies = {}, {}, set(), {}

def output_of(msg):
    t, c = msg["msg_type"], msg["content"]
    if t == "stream":
        return {"output_type": "stream", "name": c["name"], "text": c["text"]}
    if t in ("display_data", "execute_result"):
        out = {"output_type": t, "data": c["data"], "metadata": c.get("metadata", {})}
        if t == "execute_result":
            out["execution_count"] = c.get("execution_count")
        return out
    if t == "error":
        return {"output_type": "error", "ename": c["ename"], "evalue": c["evalue"], "traceback": c["traceback"]}
    return None

def route(msg):
    parent = msg["parent_header"].get("msg_id")
    t, c = msg["msg_type"], msg["content"]
    if t == "status" and c.get("execution_state") == "idle":
        idle.add(parent)
    if t == "update_display_data":
        for cell, index in displays.get(c.get("transient", {}).get("display_id"), []):
            cell["outputs"][index].update(data=c["data"], metadata=c.get("metadata", {}))
        return
    cell = owner.get(parent)
    if cell is None:
        return
    if t == "execute_input":
        cell["execution_count"] = c.get("execution_count")
    elif t == "clear_output":
        cell["outputs"] = []
    out = output_of(msg)
    if out is None:
        return
    outputs = cell["outputs"]
    if out["output_type"] == "stream" and outputs and outputs[-1]["output_type"] == "stream" and outputs[-1]["name"] == out["name"]:
        outputs[-1]["text"] += out["text"]
        return
    outputs.append(out)
    display_id = c.get("transient", {}).get("display_id")
    if display_id:
        displays.setdefault(display_id, []).append((cell, len(outputs) - 1))

def pump(wait):
    try:
        route(kc.get_iopub_msg(timeout=wait))
        return True
    except queue.Empty:
        return False

failed = False
for i, cell in enumerate(cells):
    if cell["cell_type"] != "code":
        continue
    cell["outputs"], cell["execution_count"] = [], None
    if failed:
        continue
    started = time.monotonic()
    msg_id = kc.execute("".join(cell["source"]), allow_stdin=False)
    owner[msg_id] = cell
    while msg_id not in replies or msg_id not in idle:
        if time.monotonic() - started > cell_timeout:
            km.interrupt_kernel()
            cell["outputs"].append({"output_type": "error", "ename": "CellTimeout",
                                    "evalue": f"cell {i} ran longer than {cell_timeout:.0f} s", "traceback": []})
            failed = True
            break
        pump(0.05)
        try:
            reply = kc.get_shell_msg(timeout=0)
            replies[reply["parent_header"].get("msg_id")] = reply["content"]
        except queue.Empty:
            pass
    status = replies.get(msg_id, {}).get("status", "timeout")
    print(f"  cell {i}: {status} ({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
    if status != "ok":
        failed = True

# Late outputs of the last cells: drain until the kernel has been quiet for a second.
quiet_since = time.monotonic()
deadline = quiet_since + 10
while time.monotonic() - quiet_since < 1.0 and time.monotonic() < deadline:
    if pump(0.1):
        quiet_since = time.monotonic()

kc.stop_channels()
km.shutdown_kernel(now=True)
with open(dst, "w") as f:
    json.dump(nb, f, indent=1, ensure_ascii=False)
    f.write("\\n")
sys.stderr.flush()
os._exit(1 if failed else 0)  # skips jupyter_client's noisy destructors at exit
`;

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NOTEBOOK_DIR = join(ROOT, "notebooks");
const OUT_DIR = join(NOTEBOOK_DIR, "out");
const DATASETS = Deno.env.get("MLP_DATASETS") ??
  join(ROOT, "datasets");

async function run(
  cmd: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
) {
  try {
    const result = await new Deno.Command(cmd, {
      args,
      ...options,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return {
      code: result.code,
      stdout: decode(result.stdout),
      stderr: decode(result.stderr),
    };
  } catch (error) {
    return { code: 127, stdout: "", stderr: String(error) };
  }
}

/**
 * Whether `CI` (the environment variable) says this is a CI run, where a
 * suite that cannot run must fail instead of skipping.
 *
 * @example
 * ```ts
 * import { isCi } from "./notebooks.ts";
 * if (!isCi("true") || !isCi("1") || isCi(undefined) || isCi("false")) throw new Error();
 * ```
 */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no"].includes(
    value.trim().toLowerCase(),
  );
}

/** A Python that has jupyter_client and sees the Deno kernel, or why there is none. */
async function findPython(): Promise<{ python?: string; reason: string }> {
  const probe =
    "import sys, jupyter_client.kernelspec as k\nsys.exit(0 if 'deno' in k.KernelSpecManager().find_kernel_specs() else 3)";
  const reasons: string[] = [];
  // An explicit choice is not second-guessed by falling back to another.
  const chosen = Deno.env.get("NOTEBOOK_PYTHON");
  for (const python of chosen ? [chosen] : ["/usr/bin/python3", "python3"]) {
    const { code } = await run(python, ["-c", probe]);
    if (code === 0) return { python, reason: "" };
    reasons.push(
      `${python}: ${
        code === 3
          ? 'no "deno" kernelspec (run: deno jupyter --install)'
          : code === 127
          ? "not found"
          : "no jupyter_client (apt-get install python3-nbclient python3-ipykernel)"
      }`,
    );
  }
  return { reason: reasons.join("; ") };
}

/** Serves the local platform over HTTP on a free port with throwaway credentials. */
async function startServer(): Promise<
  { env: Record<string, string>; secret: string; stop(): Promise<void> }
> {
  const secret = crypto.randomUUID() + crypto.randomUUID();
  const env = {
    MLP_CLIENT_ID: `notebooks-${crypto.randomUUID().slice(0, 8)}`,
    MLP_CLIENT_SECRET: secret,
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "src/local/cli.ts",
      "--port",
      "0",
      "--bucket",
      `datasets=${DATASETS}`,
    ],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let baseUrl: string | undefined;
  while (baseUrl === undefined) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
    baseUrl = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
  }
  // Keep draining stdout so the server never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })().catch(() => {});
  if (!baseUrl) {
    throw new Error(
      `the local platform did not start (deno task local printed: ${
        seen.trim() || "nothing"
      })`,
    );
  }
  return {
    env: { ...env, MLP_BASE_URL: baseUrl, MLP_BUCKET: "datasets" },
    secret,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/** Renders an executed notebook to HTML, with the Vega-Lite charts drawn (vega from npm, inlined). */
async function renderHtml(name: string): Promise<string> {
  const source = join(OUT_DIR, `${name}.ipynb`);
  const notebook = JSON.parse(await Deno.readTextFile(source));
  // nbconvert's HTML shows only the text of a Vega-Lite output: add an HTML part that draws it.
  let n = 0;
  for (const cell of notebook.cells) {
    for (const output of cell.outputs ?? []) {
      const spec = output.data?.[VEGALITE];
      if (spec && !output.data[HTML]) {
        const id = `vega-chart-${n++}`;
        output.data[HTML] =
          `<div id="${id}"></div><script>vegaEmbed("#${id}", ${
            JSON.stringify(spec).replaceAll("</", "<\\/")
          }, { actions: false });</script>`;
      }
    }
  }
  const staged = join(OUT_DIR, `${name}.render.ipynb`);
  await Deno.writeTextFile(staged, JSON.stringify(notebook));
  const converted = await run("jupyter", [
    "nbconvert",
    "--to",
    "html",
    staged,
    "--output",
    `${name}.html`,
    "--output-dir",
    OUT_DIR,
  ]);
  await Deno.remove(staged);
  if (converted.code !== 0) {
    throw new Error(
      `jupyter nbconvert --to html failed: ${converted.stderr.trim()}`,
    );
  }
  const file = join(OUT_DIR, `${name}.html`);
  if (n > 0) {
    const libs = await vegaScripts();
    const html = await Deno.readTextFile(file);
    await Deno.writeTextFile(
      file,
      html.replace("<head>", () => `<head>\n${libs}`),
    );
  }
  return file;
}

// vega, vega-lite and vega-embed from the npm registry (installed once into
// notebooks/out/.vega with npm), inlined so the page draws offline.
async function vegaScripts(): Promise<string> {
  const dir = join(OUT_DIR, ".vega");
  const files = [
    "vega/build/vega.min.js",
    "vega-lite/build/vega-lite.min.js",
    "vega-embed/build/vega-embed.min.js",
  ]
    .map((f) => join(dir, "node_modules", f));
  const present = await Promise.all(
    files.map((f) => Deno.stat(f).then(() => true, () => false)),
  );
  if (!present.every(Boolean)) {
    const npm = await run("npm", [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--prefix",
      dir,
      "vega@5",
      "vega-lite@5",
      "vega-embed@6",
    ]);
    if (npm.code !== 0) {
      throw new Error(
        `could not install vega from npm for the charts: ${
          npm.stderr.trim().slice(-400)
        }`,
      );
    }
  }
  const scripts = await Promise.all(files.map((f) => Deno.readTextFile(f)));
  return scripts.map((s) =>
    `<script>${s.replaceAll("</script", "<\\/script")}</script>`
  ).join("\n");
}

function parseFlags(args: string[]) {
  const only = args.find((a) => a.startsWith("--only="))?.slice(7).split(",");
  const timeout = Number(
    args.find((a) => a.startsWith("--timeout="))?.slice(10) ?? 120,
  );
  const jobs = Number(
    args.find((a) => a.startsWith("--jobs="))?.slice(7) ??
      Deno.env.get("NOTEBOOK_JOBS") ?? 2,
  );
  return {
    only,
    timeout,
    jobs: Number.isInteger(jobs) && jobs > 0 ? jobs : 2,
    html: args.includes("--html"),
    checkOnly: args.includes("--check-only"),
  };
}

async function main(): Promise<number> {
  const flags = parseFlags(Deno.args);
  const specs = NOTEBOOKS.filter((s) =>
    !flags.only || flags.only.includes(s.name)
  );
  if (specs.length === 0) {
    console.error(
      `No notebook matches --only. Known: ${
        NOTEBOOKS.map((s) => s.name).join(", ")
      }`,
    );
    return 2;
  }
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const report = (name: string, r: CheckResult) => {
    counts[r.ok ? "passed" : "failed"]++;
    console.log(
      `${r.ok ? "ok  " : "FAIL"} ${name}: ${r.name}${
        r.detail && (!r.ok || /\d/.test(r.detail)) ? ` (${r.detail})` : ""
      }`,
    );
  };
  await Deno.mkdir(OUT_DIR, { recursive: true });

  let python: string | undefined;
  if (!flags.checkOnly) {
    const found = await findPython();
    if (!found.python && isCi(Deno.env.get("CI"))) {
      for (const spec of specs) {
        report(spec.name, {
          name:
            "Jupyter with the Deno kernel available (required when CI=true)",
          ok: false,
          detail: found.reason,
        });
      }
      console.log(
        `${counts.passed} passed, ${counts.failed} failed`,
      );
      return 1;
    }
    if (!found.python) {
      console.log(
        `skipped: Jupyter with the Deno kernel is not available (${found.reason}).`,
      );
      counts.skipped += specs.length;
      console.log(
        `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
      );
      return 0;
    }
    python = found.python;
  }
  const executor = await Deno.makeTempFile({
    prefix: "notebook-executor-",
    suffix: ".py",
  });
  await Deno.writeTextFile(executor, EXECUTOR);
  // Runs one notebook in its kernel (with its server, when it needs one).
  const execute = async (spec: NotebookSpec) => {
    const source = join(NOTEBOOK_DIR, `${spec.name}.ipynb`);
    const target = join(OUT_DIR, `${spec.name}.ipynb`);
    const server = spec.server ? await startServer() : undefined;
    const started = performance.now();
    try {
      const result = await run(python!, [
        executor,
        source,
        target,
        String(flags.timeout),
      ], {
        env: { ...server?.env, MLP_DATASETS: DATASETS },
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      return {
        secret: server?.secret,
        check: {
          name: `executed in the Deno kernel (${seconds} s)`,
          ok: result.code === 0,
          detail: result.code === 0
            ? undefined
            : result.stderr.trim().split("\n").slice(-5).join(" | "),
        } as CheckResult,
      };
    } finally {
      await server?.stop();
    }
  };
  // At most flags.jobs notebooks at a time, started in order.
  let free = flags.jobs;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const executions = python
    ? specs.map(async (spec) => {
      await slot();
      try {
        return await execute(spec);
      } finally {
        release();
      }
    })
    : [];
  // Reported in order below; a later one failing first is not unhandled.
  for (const execution of executions) execution.catch(() => {});
  try {
    for (const spec of specs) {
      const target = join(OUT_DIR, `${spec.name}.ipynb`);
      const secrets: string[] = [];
      if (python) {
        console.log(`\n=== ${spec.name}: running`);
        const { secret, check } = await executions[specs.indexOf(spec)];
        if (secret) secrets.push(secret);
        report(spec.name, check);
      }
      let notebook: Json;
      try {
        notebook = JSON.parse(await Deno.readTextFile(target));
      } catch (error) {
        report(spec.name, {
          name: "executed copy readable",
          ok: false,
          detail: `${target}: ${error}`,
        });
        continue;
      }
      for (const r of checkNotebook(notebook, spec, secrets)) {
        report(spec.name, r);
      }
      if (flags.html) {
        console.log(
          `     ${spec.name}: rendered to ${await renderHtml(spec.name)}`,
        );
      }
    }
  } finally {
    await Deno.remove(executor).catch(() => {});
  }
  console.log(
    `\n${counts.passed} passed, ${counts.failed} failed${
      counts.skipped ? `, ${counts.skipped} skipped` : ""
    }`,
  );
  return counts.failed > 0 ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main());
}
