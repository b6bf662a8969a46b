/**
 * Live progress of an awaited job. In a terminal, a one-line bar on stderr
 * (stage and percent), redrawn in place; only when stderr is a TTY, so logs
 * and pipes stay clean. Anywhere else (a notebook, a custom UI) the caller
 * passes its own {@linkcode ProgressFactory}.
 *
 * @module
 */
import { defineHook, type Hook } from "../display.ts";
import { curveFigures, curveOf } from "./curve.ts";
import type { JobSnapshot } from "./status.ts";

/** Receives a job's snapshots while it runs (same shape as `notebookProgress`). */
export interface ProgressReporter {
  /** A new snapshot arrived. */
  update(snapshot: JobSnapshot): void;
  /**
   * The wait ended: with the last snapshot, and the error if it failed. The
   * job awaits a returned promise, so a display's final state is certain to
   * be drawn before the job's result is handed on.
   */
  end(snapshot?: JobSnapshot, error?: unknown): void | Promise<void>;
}

/** Makes a reporter for a job titled `title`; `undefined` means no display. */
export type ProgressFactory = (title: string) => ProgressReporter | undefined;

/**
 * Where progress goes: `true` (a terminal bar when stderr is a TTY), `false`
 * (nothing), or a factory of your own.
 */
export type ProgressOption = boolean | ProgressFactory;

/** The text sink a terminal bar writes to. */
export interface TextSink {
  /** Writes text as is. */
  write(text: string): void;
  /** Width in columns, when known. */
  columns?: number;
}

/** The parts of Deno's and Node's globals a terminal bar uses. */
interface TerminalGlobals {
  Deno?: {
    stderr?: {
      isTerminal?(): boolean;
      writeSync(bytes: Uint8Array): number;
    };
    consoleSize?(): { columns: number };
  };
  process?: {
    stderr?: {
      isTTY?: boolean;
      columns?: number;
      write(text: string): unknown;
    };
  };
}

/**
 * stderr as a {@linkcode TextSink} when it is a terminal, else `undefined`.
 * Uses `Deno.stderr` in Deno and `process.stderr` in Node (feature detected).
 *
 * @example
 * ```ts
 * import { terminalStderr } from "./progress.ts";
 * const sink = terminalStderr(); // undefined when stderr is piped, as under `deno test`
 * typeof sink === "undefined" || typeof sink.write === "function"; // true
 * ```
 */
export function terminalStderr(): TextSink | undefined {
  const g: TerminalGlobals = globalThis;
  try {
    const deno = g.Deno;
    const denoErr = deno?.stderr;
    if (denoErr?.isTerminal?.()) {
      const encoder = new TextEncoder();
      let columns: number | undefined;
      try {
        columns = deno?.consoleSize?.().columns;
      } catch {
        columns = undefined; // no console size when only stderr is a TTY
      }
      return {
        write: (text) => void denoErr.writeSync(encoder.encode(text)),
        columns,
      };
    }
    const stderr = g.process?.stderr;
    if (!deno && stderr?.isTTY) {
      return {
        write: (text) => void stderr.write(text),
        columns: stderr.columns,
      };
    }
  } catch {
    // Permission or platform quirks: no bar rather than a crash.
  }
  return undefined;
}

/**
 * A one-line progress bar drawn on `sink`, e.g.
 * `training job tj_1  [#########-----------]  45%  training  round 40 loss 0.412 val 0.436`
 * (the latest figures of a training's learning curve, when it has one).
 * Redraws only when the line changes; `end` leaves the final line in place.
 *
 * @example
 * ```ts
 * import { terminalProgress } from "./progress.ts";
 * let out = "";
 * const bar = terminalProgress("ingestion job", { write: (t) => (out += t), columns: 80 });
 * bar.update({ id: "ij_1", status: "RUNNING", progress: 0.5, stage: "reading" });
 * bar.end({ id: "ij_1", status: "COMPLETED", progress: 1 });
 * out.includes("50%") && out.includes("100%") && out.endsWith("\n"); // true
 * ```
 */
export function terminalProgress(
  title: string,
  sink: TextSink,
): ProgressReporter {
  let last = "";
  let drawn = false;
  const draw = (snapshot: JobSnapshot, note?: string) => {
    const fraction = clamp01(snapshot.progress ?? 0);
    const width = 20;
    const filled = Math.round(fraction * width);
    const bar = "#".repeat(filled) + "-".repeat(width - filled);
    const percent = `${Math.round(fraction * 100)}%`.padStart(4);
    const figures = curveFigures(curveOf(snapshot));
    const tail = (note ?? snapshot.stage ?? snapshot.status.toLowerCase()) +
      (figures ? `  ${figures}` : "");
    let line = `${title} ${snapshot.id}  [${bar}] ${percent}  ${tail}`;
    const max = (sink.columns ?? 100) - 1;
    if (line.length > max) line = line.slice(0, Math.max(10, max));
    if (line === last) return;
    last = line;
    drawn = true;
    // \r + "erase line" redraws in place without scrolling.
    sink.write(`\r\x1b[2K${line}`);
  };
  return {
    update: (snapshot) => draw(snapshot),
    end(snapshot, error) {
      if (snapshot) {
        const done = !error;
        draw(
          done ? { ...snapshot, progress: 1 } : snapshot,
          done ? snapshot.status.toLowerCase() : `stopped: ${snapshot.status}`,
        );
      }
      if (drawn) sink.write("\n");
    },
  };
}

/**
 * Where the notebook layer registers its live progress bar (a factory that
 * answers `undefined` outside Jupyter).
 */
export const notebookProgressHook: Hook<ProgressFactory> = defineHook(
  "notebook progress",
);

/**
 * The default display: a live bar in the cell inside Jupyter
 * (`notebookProgress`, registered by the notebook layer), else a terminal bar on stderr when it is a TTY,
 * else none.
 *
 * @example
 * ```ts
 * import { defaultProgress } from "./progress.ts";
 * const reporter = defaultProgress("training job"); // undefined unless stderr is a terminal
 * reporter?.end();
 * ```
 */
export const defaultProgress: ProgressFactory = (
  title: string,
): ProgressReporter | undefined => {
  const notebook = notebookProgressHook.get()?.(title);
  if (notebook) {
    return notebook;
  }
  const sink = terminalStderr();
  return sink ? terminalProgress(title, sink) : undefined;
};

/**
 * Turns a {@linkcode ProgressOption} into a reporter (or `undefined`).
 *
 * @example
 * ```ts
 * import { pickProgress } from "./progress.ts";
 * pickProgress(false, "job"); // undefined
 * ```
 */
export function pickProgress(
  option: ProgressOption | undefined,
  title: string,
): ProgressReporter | undefined {
  if (option === false) return undefined;
  if (typeof option === "function") return option(title);
  return defaultProgress(title);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
