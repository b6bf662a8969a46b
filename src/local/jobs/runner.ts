/**
 * Runs jobs in the background through the lifecycle of docs/contract.md#jobs-and-deployments:
 * `STARTING` (the create answer) -> `RUNNING` (with `stage`, `progress` and
 * `stage_progress` moving) -> `COMPLETED`, or `FAILED` with a `message`.
 * `maximum_runtime_seconds` is enforced: at the deadline the job's signal
 * aborts and the job ends `FAILED`, saying so. `cancel()` aborts the job's
 * signal too (the work stops: a training Worker is terminated) and the job
 * ends `CANCELLED` with a message (our extension of the published API, docs/contract.md#jobs-and-deployments).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { JobRunner } from "./runner.ts";
 * const store = new MemoryStore();
 * store.put(uncheckedRecord({ kind: "ingestionJobs", id: "j", account: "a", body: { status: "STARTING" } }));
 * const runner = new JobRunner(store, () => {});
 * await runner.start("ingestionJobs", "j", 60, async (job) => job.report("reading", 0.5, 0.5));
 * if (store.get("ingestionJobs", "j")?.body.status !== "COMPLETED") throw new Error();
 * ```
 *
 * @module
 */
import type { JobKindName, KindName } from "../../schemas/routes.ts";
import { updateRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";

/** What a job's work receives. */
export interface WorkControl {
  /** Aborts at the runtime cap or when the platform closes. */
  readonly signal: AbortSignal;
  /** Seconds left before the runtime cap. */
  secondsLeft(): number;
  /**
   * Reports the current stage, its progress and the overall progress (0..1),
   * and any other fields of the job that changed (`extra`, e.g. the
   * learning curve). Writes are coalesced, so calling often is cheap.
   */
  report(
    stage: string,
    stageProgress: number,
    progress: number,
    extra?: Record<string, unknown>,
  ): void;
}

/** A job's work: resolves when done, throws (with a user-facing message) to fail. */
export type JobWork = (job: WorkControl) => Promise<void>;

/** Raised in a job's signal when it runs past its cap. */
export class RuntimeCapError extends Error {
  /** Creates the error naming the cap. */
  constructor(seconds: number) {
    super(
      `The job exceeded its maximum_runtime_seconds (${seconds} s) and was stopped; use a smaller input or a larger cap.`,
    );
    this.name = "RuntimeCapError";
  }
}

/** Raised in a job's signal when a client cancels it. */
export class WorkCancelledError extends Error {
  /** Creates the error; the message is what the job's `message` will say. */
  constructor(message = "Cancelled by a client request.") {
    super(message);
    this.name = "WorkCancelledError";
  }
}

/** How a job ended, as `onEnd` learns it. */
export type JobOutcome = "COMPLETED" | "FAILED" | "CANCELLED";

/** Starts and tracks background jobs. */
export class JobRunner {
  #store: Store;
  #log: (message: string, error?: unknown) => void;
  #running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();

  /**
   * @param store Where the jobs' records live.
   * @param log Where unexpected failures are reported with their stack.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { JobRunner } from "./runner.ts";
   * new JobRunner(new MemoryStore(), console.error);
   * ```
   */
  constructor(store: Store, log: (message: string, error?: unknown) => void) {
    this.#store = store;
    this.#log = log;
  }

  /**
   * Whether a job is still running in this process.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { JobRunner } from "./runner.ts";
   * if (new JobRunner(new MemoryStore(), () => {}).isRunning("trainingJobs", "x")) throw new Error();
   * ```
   */
  isRunning(kind: KindName, id: string): boolean {
    return this.#running.has(`${kind}/${id}`);
  }

  /**
   * Runs `work` for the job `kind/id` on a later macrotask (so the create
   * answer still says `STARTING`). `onEnd` runs after the job ended, with the
   * failure message or null on success and how it ended, to update what the
   * job produces.
   * The returned promise settles when the job has ended (never rejects).
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { JobRunner } from "./runner.ts";
   * const store = new MemoryStore();
   * store.put(uncheckedRecord({ kind: "trainingJobs", id: "t", account: "a", body: {} }));
   * await new JobRunner(store, () => {}).start("trainingJobs", "t", 60, () => Promise.reject(new Error("column 'x' is empty")));
   * if (store.get("trainingJobs", "t")?.body.message !== "column 'x' is empty") throw new Error();
   * ```
   */
  start(
    kind: JobKindName,
    id: string,
    maximumRuntimeSeconds: number,
    work: JobWork,
    onEnd: (failure: string | null, outcome: JobOutcome) => void = () => {},
  ): Promise<void> {
    const controller = new AbortController();
    const key = `${kind}/${id}`;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastWrite = 0;
    let pending: Record<string, unknown> | undefined;
    const write = (patch: Record<string, unknown>) =>
      updateRecord(this.#store, kind, id, patch);
    const control: WorkControl = {
      signal: controller.signal,
      secondsLeft: () => maximumRuntimeSeconds - (Date.now() - started) / 1000,
      report: (stage, stageProgress, progress, extra) => {
        if (controller.signal.aborted) return;
        const patch = {
          ...pending, // fields of a coalesced report still unwritten
          ...extra,
          stage,
          stage_progress: clamp(stageProgress),
          progress: clamp(progress),
        };
        // Coalesce: at most one store write per 50 ms, except on stage changes.
        const current = this.#store.get(kind, id)?.body.stage;
        if (current !== stage || Date.now() - lastWrite > 50) {
          write(patch);
          lastWrite = Date.now();
          pending = undefined;
        } else pending = patch;
      },
    };
    const done = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new RuntimeCapError(maximumRuntimeSeconds);
          controller.abort(error);
          reject(error);
        }, maximumRuntimeSeconds * 1000);
        controller.signal.addEventListener(
          "abort",
          () => reject(controller.signal.reason),
        );
      });
      timeout.catch(() => {}); // settled by the race below or ignored
      let failure: string | null = null;
      let outcome: JobOutcome = "COMPLETED";
      let running: Promise<unknown> | undefined;
      try {
        if (controller.signal.aborted) throw controller.signal.reason;
        write({
          status: "RUNNING",
          stage: "initializing",
          progress: 0,
          stage_progress: 0,
        });
        running = work(control);
        await Promise.race([running, timeout]);
        if (pending) write(pending);
        write({
          status: "COMPLETED",
          stage: "completed",
          progress: 1,
          stage_progress: 1,
          message: null,
        });
      } catch (error) {
        // Stopped or failed: the job ends once its work has (a training
        // stops its helper threads first), at most WORK_STOP_GRACE_MS later.
        if (running) await settled(running, WORK_STOP_GRACE_MS);
        failure = error instanceof Error ? error.message : String(error);
        outcome = error instanceof WorkCancelledError ? "CANCELLED" : "FAILED";
        if (
          !(error instanceof Error) || error.name === "TypeError" ||
          error.name === "ReferenceError"
        ) {
          // A programming error, not bad input: keep the stack for the operator.
          this.#log(`job ${key} failed unexpectedly`, error);
        }
        write({ status: outcome, message: failure });
      } finally {
        clearTimeout(timer);
        this.#running.delete(key);
      }
      try {
        onEnd(failure, outcome);
      } catch (error) {
        this.#log(`job ${key}: updating its outputs failed`, error);
      }
    })();
    this.#running.set(key, { controller, done });
    return done;
  }

  /**
   * Cancels the running job `kind/id`: its signal aborts with a
   * {@linkcode WorkCancelledError} (the work stops: a training Worker and
   * its helper thread stop at their next round), the job ends `CANCELLED`
   * with `message` once the work has stopped, and `onEnd` runs. Resolves once all that is done, to `false` when the job was not
   * running in this process.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { JobRunner } from "./runner.ts";
   * const store = new MemoryStore();
   * store.put(uncheckedRecord({ kind: "trainingJobs", id: "t", account: "a", body: {} }));
   * const runner = new JobRunner(store, () => {});
   * runner.start("trainingJobs", "t", 60, (job) => new Promise((_, reject) => job.signal.onabort = () => reject(job.signal.reason)));
   * await runner.cancel("trainingJobs", "t");
   * if (store.get("trainingJobs", "t")?.body.status !== "CANCELLED") throw new Error();
   * ```
   */
  async cancel(
    kind: JobKindName,
    id: string,
    message?: string,
  ): Promise<boolean> {
    const job = this.#running.get(`${kind}/${id}`);
    if (job === undefined) return false;
    job.controller.abort(new WorkCancelledError(message));
    await job.done;
    return true;
  }

  /**
   * Stops every running job (they end `FAILED`) and waits for them.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { JobRunner } from "./runner.ts";
   * await new JobRunner(new MemoryStore(), () => {}).close();
   * ```
   */
  async close(): Promise<void> {
    const jobs = [...this.#running.values()];
    for (const job of jobs) {
      job.controller.abort(
        new Error(
          "The local platform was closed while this job ran; start the job again.",
        ),
      );
    }
    await Promise.all(jobs.map((j) => j.done));
  }
}

/**
 * How long an aborted job's work may take to stop before the job ends
 * anyway (a training Worker answers within its own 5 s grace).
 */
const WORK_STOP_GRACE_MS = 10_000;

/** Resolves once `work` has settled, or after `ms`, whichever comes first. */
async function settled(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.then(() => {}, () => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}

function clamp(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
