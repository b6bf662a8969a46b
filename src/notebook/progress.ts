/**
 * Live job progress in a notebook: one HTML progress bar, displayed once and
 * then updated in place (`display_id`), ending green when the job completes
 * (or a deployment runs) and red with the message when it fails. A job that
 * carries a `learning_curve` (a training) also gets its curve drawn under
 * the bar as a Vega-Lite chart, updated in place as rounds are logged.
 *
 * @module
 */
import { escapeHtml, maskSecretText } from "./html.ts";
import { getJupyter, type JupyterLike, type MimeBundle } from "./jupyter.ts";
import { badgeStyle, CARD_STYLE, statusColor } from "./style.ts";
import type { JobSnapshot } from "../jobs/status.ts";
import { FAILURE_STATUSES } from "../schemas/jobs.ts";
import { curveOf, learningCurveChart } from "./curve.ts";

/** A live progress display; see {@linkcode notebookProgress}. */
export interface NotebookProgress {
  /** Shows a snapshot; calls closer than the throttle interval are coalesced. */
  update(snapshot: JobSnapshot): void;
  /** Renders the final state (always) and stops; an `error` renders as FAILED. Resolves once sent. */
  end(snapshot?: JobSnapshot, error?: unknown): Promise<void>;
}

/** Options of {@linkcode notebookProgress}. */
export interface NotebookProgressOptions {
  /** Minimum milliseconds between two displayed updates; default 200. */
  throttleMs?: number;
  /** The Jupyter API to use; default `Deno.jupyter` when running in the kernel. */
  jupyter?: JupyterLike;
  /** Clock in milliseconds; default `performance.now`. */
  now?: () => number;
}

const DONE = new Set(["COMPLETED", "SUCCEEDED"]);

/**
 * Starts a live progress bar titled `title` in the current notebook cell, or
 * returns `undefined` outside Jupyter (so callers can fall back to a
 * terminal bar). The first update is shown at once; later ones at most every
 * `throttleMs`, the latest pending one being shown when the interval ends;
 * `end()` always shows the final state.
 *
 * @example
 * ```ts
 * import { notebookProgress } from "./progress.ts";
 * const sent: unknown[] = [];
 * const bar = notebookProgress("Training churn", {
 *   jupyter: { display: async (bundle, options) => void sent.push([bundle, options]) },
 * })!;
 * bar.update({ id: "tj_1", status: "RUNNING", progress: 0.5, stage: "training" });
 * await bar.end({ id: "tj_1", status: "COMPLETED", progress: 1 });
 * if (sent.length !== 2) throw new Error("expected a display and one update");
 * ```
 */
export function notebookProgress(
  title: string,
  options: NotebookProgressOptions = {},
): NotebookProgress | undefined {
  const jupyter = options.jupyter ?? getJupyter();
  if (jupyter === undefined) return undefined;
  const throttle = options.throttleMs ?? 200;
  const now = options.now ?? (() => performance.now());
  const displayId = `mlplatform-progress-${crypto.randomUUID()}`;
  const curveId = `${displayId}-curve`;
  let curveShown = false;
  let curvePoints = 0;
  let shown = false;
  let ended = false;
  let lastAt = -Infinity;
  let latest: JobSnapshot | undefined;
  let pending: JobSnapshot | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queue = Promise.resolve();
  let warned = false;

  // Displays are sent one after another so an update never overtakes the first display.
  const send = (bundle: MimeBundle): Promise<void> => {
    const update = shown;
    shown = true;
    lastAt = now();
    queue = queue.then(() =>
      jupyter.display(bundle, { raw: true, update, display_id: displayId })
    ).catch(
      (error) => {
        // A broken display must not fail the job it reports on; say so once.
        if (!warned) {
          console.warn(`progress display for "${title}" failed: ${error}`);
        }
        warned = true;
      },
    );
    return queue;
  };

  // The learning curve, when the snapshot brings new points: a second
  // display under the bar, sent after it through the same queue.
  const sendCurve = (snapshot: JobSnapshot): Promise<void> => {
    const points = curveOf(snapshot);
    if (points.length === 0 || points.length === curvePoints) return queue;
    curvePoints = points.length;
    const update = curveShown;
    curveShown = true;
    const chart = learningCurveChart(points, {
      title: snapshot.name ?? undefined,
    });
    queue = queue.then(() =>
      jupyter.display({ ...chart }, {
        raw: true,
        update,
        display_id: curveId,
      })
    ).catch(() => {});
    return queue;
  };
  const show = (snapshot: JobSnapshot, final = false): Promise<void> => {
    void send(progressBundle(title, snapshot, { final }));
    return sendCurve(snapshot);
  };

  const flush = () => {
    timer = undefined;
    if (pending && !ended) {
      const snapshot = pending;
      pending = undefined;
      void show(snapshot);
    }
  };

  return {
    update(snapshot) {
      if (ended) return;
      latest = snapshot;
      const wait = lastAt + throttle - now();
      if (!shown || wait <= 0) {
        pending = undefined;
        void show(snapshot);
      } else {
        pending = snapshot;
        timer ??= setTimeout(flush, wait);
      }
    },
    end(snapshot, error) {
      if (ended) return queue;
      ended = true;
      if (timer !== undefined) clearTimeout(timer);
      const base = snapshot ?? latest ??
        { id: "", status: error ? "FAILED" : "COMPLETED" };
      const final: JobSnapshot = error === undefined ? base : {
        ...base,
        status: FAILURE_STATUSES.includes(base.status.toUpperCase())
          ? base.status
          : "FAILED",
        message: error instanceof Error ? error.message : String(error),
      };
      return show(final, true);
    },
  };
}

/**
 * The MIME bundle of one progress state: an HTML bar and a text line. With
 * `final: true`, any state but a failure renders as complete (green, 100%).
 *
 * @example
 * ```ts
 * import { progressBundle } from "./progress.ts";
 * const bundle = progressBundle("Ingest", { id: "j1", status: "RUNNING", progress: 0.25, stage: "reading", stage_progress: 0.5 });
 * if (bundle["text/plain"] !== "Ingest: RUNNING 25% (reading 50%)") throw new Error(bundle["text/plain"]);
 * ```
 */
export function progressBundle(
  title: string,
  snapshot: JobSnapshot,
  options: { final?: boolean } = {},
): { "text/html": string; "text/plain": string } {
  const status = snapshot.status ?? "UNKNOWN";
  const upper = status.toUpperCase();
  const failed = FAILURE_STATUSES.includes(upper);
  // A final state that is not a failure is complete (a deployment ends RUNNING).
  const done = DONE.has(upper) || (options.final === true && !failed);
  const fraction = done ? 1 : clamp(snapshot.progress ?? 0);
  const color = done || failed
    ? statusColor(failed ? "FAILED" : "COMPLETED")
    : statusColor("STARTING");
  const pct = `${Math.round(fraction * 100)}%`;
  const stage = snapshot.stage && !done
    ? `${snapshot.stage}${
      snapshot.stage_progress !== undefined
        ? ` ${Math.round(clamp(snapshot.stage_progress) * 100)}%`
        : ""
    }`
    : "";
  const message = snapshot.message ? maskSecretText(snapshot.message) : "";
  const html =
    `<div style="${CARD_STYLE}"><b>${escapeHtml(title)}</b> <span style="${
      badgeStyle(color)
    }">${escapeHtml(status)}</span> <span style="color:#52525b">${pct}${
      stage ? ` · ${escapeHtml(stage)}` : ""
    }</span>` +
    `<div style="background:#e4e4e7;border-radius:4px;height:8px;margin-top:6px"><div style="background:${color};width:${pct};height:8px;border-radius:4px"></div></div>` +
    (message
      ? `<div style="color:${failed ? color : "#52525b"};margin-top:4px">${
        escapeHtml(message)
      }</div>`
      : "") +
    `</div>`;
  const text = `${title}: ${status} ${pct}${stage ? ` (${stage})` : ""}${
    message ? ` - ${message}` : ""
  }`;
  return { "text/html": html, "text/plain": text };
}

function clamp(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
