/**
 * `Job<S, T>`: an asynchronous job of the platform that can be awaited like
 * a promise, modelled on openai-node's `APIPromise`. Creating a Job sends
 * the one request that starts the work; awaiting it polls the job until the
 * status the next step needs (`COMPLETED`, or `RUNNING` for a deployed model)
 * and resolves to what the job made (the datasource, dataset, model or
 * deployed model).
 *
 * ```ts ignore
 * const model = await ml.train(dataset, {...});            // wait for the model
 * const job = ml.train(dataset, {...});                     // or take control:
 * const started = await job.created;                        // the job resource
 * for await (const snapshot of job.watch()) console.log(snapshot.progress);
 * const model2 = await job.wait({ timeout: 60_000, signal });
 * ```
 *
 * Polling backs off from about 250 ms to a cap (5 s), waits longer when the
 * service answers 429 with `Retry-After`, keeps polling through transient
 * errors (network, timeout, 408, 429, 5xx, a 401 that token renewal fixes)
 * within an error budget of failed polls in a row (`poll.errorBudget`,
 * default 10, separate from a request's `maxRetries`), ends at once on a
 * permanent error (404 of the job, 403) with its typed error, and gives up
 * after the job's
 * `maximum_runtime_seconds` plus a margin (or the `timeout` given) with a
 * {@linkcode JobTimeoutError} carrying the last snapshot. A failure status
 * ends the wait with a {@linkcode JobFailedError}; an unknown status keeps
 * waiting. 202 answers are followed by the transport, below this layer.
 *
 * @module
 */
import {
  ConflictError,
  ConnectionError,
  MLPlatformError,
  RateLimitError,
  TimeoutError,
} from "../http/errors.ts";
import { RETRY_RULES } from "../http/retry.ts";
import {
  CancellationNotSupportedError,
  JobCancelledError,
  JobFailedError,
  JobTimeoutError,
} from "./errors.ts";
import { pickProgress, type ProgressOption } from "./progress.ts";
import {
  checkWaitOptions,
  pollDelays,
  type PollOptions,
} from "./poll_schedule.ts";
import { abortable, sleep } from "../abort.ts";
import { classifyStatus, type JobSnapshot } from "./status.ts";
import { JUPYTER_DISPLAY, type MimeBundle, renderAs } from "../display.ts";

/** Options of a single request made while waiting. */
export interface JobRequestOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** What a {@linkcode Job} needs to know about one kind of job. */
export interface JobDefinition<S extends JobSnapshot, T> {
  /** What to call it in messages and progress, e.g. `"training job"`. */
  kind: string;
  /** Sends the request that creates (starts) the job; called once, at once. */
  start(): Promise<S>;
  /** Retrieves the job's current state. */
  retrieve(id: string, options: JobRequestOptions): Promise<S>;
  /** Statuses that mean "ready for the next step" (default `["COMPLETED"]`). */
  readyStatuses?: readonly string[];
  /** Turns the ready snapshot into the job's result (e.g. fetches the model). */
  resolve(snapshot: S, options: JobRequestOptions): Promise<T> | T;
  /**
   * Asks the service to cancel the job and returns the job as it answers;
   * absent when this kind cannot be cancelled (a deployed model is deleted).
   */
  cancel?(id: string, options: JobRequestOptions): Promise<S>;
  /** Why this kind cannot be cancelled, shown when `cancel` is absent. */
  cancelHint?: string;
  /** Time allowed when the job states no `maximum_runtime_seconds` (ms, default 30 min). */
  defaultTimeout?: number;
  /** Poll schedule (default 250 ms growing to 5 s). */
  poll?: PollOptions;
  /** Progress display used when `wait()` is not told otherwise (default: terminal bar). */
  progress?: ProgressOption;
}

/**
 * A job by kind and id (e.g. `{ kind: "training job", id: "tj_1" }`): all
 * another process needs to attach to it with `ml.attach(ref)`. Plain JSON.
 */
export interface JobRef {
  /** The kind of job: `"ingestion job"`, `"onboarding job"`, `"training job"` or `"deployed model"`. */
  kind: string;
  /** The job's (or deployed model's) id. */
  id: string;
}

/** Options of {@linkcode Job.wait} and {@linkcode Job.watch}. */
export interface WaitOptions<S extends JobSnapshot = JobSnapshot> {
  /** Stops waiting (and the request under way); rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Milliseconds to wait from this call. Default: the job's
   * `maximum_runtime_seconds` plus 10% (at least one minute), counted from
   * its creation.
   */
  timeout?: number;
  /** Called with every new snapshot (status, stage or progress changed). */
  onProgress?: (snapshot: S) => void;
  /** `false` silences the progress bar; a factory draws it your way. */
  progress?: ProgressOption;
  /** Poll schedule for this wait. */
  poll?: PollOptions;
  /**
   * When `signal` aborts, also cancel the job on the service (`job.cancel()`)
   * before rejecting with the signal's reason (also when the job turns out
   * to have ended already: its cancel's 409 is not the answer); by default
   * an abort only stops waiting.
   */
  cancelOnAbort?: boolean;
}

const DEFAULT_TIMEOUT = 30 * 60_000;
const DEFAULT_ERROR_BUDGET = 10;

/**
 * An awaitable, pollable, watchable platform job. `await job` is
 * `job.wait()` (run once and shared); `job.wait(options)` waits with a signal,
 * a timeout or a progress callback; `job.watch()` yields snapshots;
 * `job.refresh()` retrieves the job once.
 *
 * @example A scripted job that completes on the second poll
 * ```ts
 * import { Job } from "./job.ts";
 * const states = ["STARTING", "RUNNING", "COMPLETED"];
 * let polls = 0;
 * const job = new Job({
 *   kind: "ingestion job",
 *   start: () => Promise.resolve({ id: "ij_1", status: states[0], datasource: { id: "ds_1" } }),
 *   retrieve: (id) => Promise.resolve({ id, status: states[++polls], datasource: { id: "ds_1" } }),
 *   resolve: (snapshot) => snapshot.datasource.id,
 *   poll: { initialDelay: 1 },
 *   progress: false,
 * });
 * (await job.created).status; // "STARTING"
 * await job; // "ds_1"
 * ```
 */
export class Job<S extends JobSnapshot, T> implements PromiseLike<T> {
  /** What kind of job this is, e.g. `"training job"`. */
  readonly kind: string;
  /** The job resource as the create request returned it. */
  readonly created: Promise<S>;
  readonly #definition: JobDefinition<S, T>;
  #snapshot?: S;
  #createdAt = 0;
  #result?: Promise<T>;

  /** Starts the job at once (one request); nothing waits until awaited. */
  constructor(definition: JobDefinition<S, T>) {
    this.kind = definition.kind;
    this.#definition = definition;
    this.created = definition.start().then((snapshot) => {
      this.#snapshot = snapshot;
      this.#createdAt = Date.now();
      return snapshot;
    });
    // A start failure is reported to whoever awaits the job; without this an
    // unawaited job would crash the process with an unhandled rejection.
    this.created.catch(() => {});
  }

  /**
   * Renders as a card of the latest snapshot in Jupyter (status, progress,
   * stage); await the job for a live progress bar.
   */
  [JUPYTER_DISPLAY](): MimeBundle {
    return renderAs(
      "resource",
      this.#snapshot ?? { status: "creating" },
      this.kind,
    );
  }

  /** The job id, once the create request has answered. */
  get id(): string | undefined {
    return this.#snapshot?.id;
  }

  /**
   * The job's kind and id once the service has it, as plain JSON: save it,
   * and `ml.attach(ref)` gives this job back in any process.
   *
   * @example
   * ```ts
   * import { Job } from "./job.ts";
   * const job = new Job({
   *   kind: "training job",
   *   start: () => Promise.resolve({ id: "tj_1", status: "STARTING" }),
   *   retrieve: (id) => Promise.resolve({ id, status: "RUNNING" }),
   *   resolve: () => "model",
   * });
   * const ref = JSON.stringify(await job.ref());
   * if (ref !== '{"kind":"training job","id":"tj_1"}') throw new Error(ref);
   * ```
   */
  async ref(): Promise<JobRef> {
    return { kind: this.kind, id: (await this.created).id };
  }

  /** The latest snapshot seen (by creation, `refresh()`, `watch()` or `wait()`). */
  get snapshot(): S | undefined {
    return this.#snapshot;
  }

  /**
   * Retrieves the job once and returns its current state.
   *
   * @example
   * ```ts
   * import { Job } from "./job.ts";
   * const job = new Job({
   *   kind: "job",
   *   start: () => Promise.resolve({ id: "j", status: "STARTING", progress: 0 }),
   *   retrieve: (id) => Promise.resolve({ id, status: "RUNNING", progress: 0.3 }),
   *   resolve: () => "done",
   * });
   * (await job.refresh()).progress; // 0.3
   * ```
   */
  async refresh(options: JobRequestOptions = {}): Promise<S> {
    const created = await abortable(this.created, options.signal);
    const snapshot = await this.#definition.retrieve(created.id, options);
    this.#snapshot = snapshot;
    return snapshot;
  }

  /**
   * Yields the job's snapshots as they change, from the created one to the
   * ready one, polling with backoff. Throws {@linkcode JobFailedError} on a
   * failure status and {@linkcode JobTimeoutError} when time runs out.
   *
   * @example
   * ```ts
   * import { Job } from "./job.ts";
   * const statuses = ["STARTING", "RUNNING", "RUNNING", "COMPLETED"];
   * let i = 0;
   * const job = new Job({
   *   kind: "job",
   *   start: () => Promise.resolve({ id: "j", status: statuses[0] }),
   *   retrieve: (id) => Promise.resolve({ id, status: statuses[++i] }),
   *   resolve: () => "done",
   *   poll: { initialDelay: 1 },
   * });
   * const seen = [];
   * for await (const snapshot of job.watch()) seen.push(snapshot.status);
   * seen; // ["STARTING", "RUNNING", "COMPLETED"]: unchanged snapshots are skipped
   * ```
   */
  async *watch(
    options: Omit<WaitOptions<S>, "onProgress" | "progress"> = {},
  ): AsyncGenerator<S, void, undefined> {
    const { signal } = options;
    // NaN or a string from JavaScript polled without end (or pause).
    checkWaitOptions(options);
    checkWaitOptions({ poll: this.#definition.poll });
    const ready = this.#definition.readyStatuses ?? ["COMPLETED"];
    let snapshot = await abortable(this.created, signal);
    let limit: number;
    let deadline: number;
    if (options.timeout !== undefined) {
      limit = options.timeout;
      deadline = Date.now() + limit;
    } else {
      limit = this.#defaultLimit(snapshot);
      deadline = this.#createdAt + limit;
    }
    const poll = { ...this.#definition.poll, ...options.poll };
    const delays = pollDelays(poll);
    const pause = poll.sleep ?? sleep;
    const budget = Math.max(0, poll.errorBudget ?? DEFAULT_ERROR_BUDGET);
    let failures = 0;
    let retryAfter = 0;
    let previous = "";
    for (;;) {
      const key = fingerprint(snapshot);
      if (key !== previous) {
        previous = key;
        yield snapshot;
      }
      const state = classifyStatus(snapshot.status, ready);
      if (state === "ready") return;
      if (state === "failed") {
        throw /^CANCEL+ED$/i.test(snapshot.status)
          ? new JobCancelledError(this.kind, snapshot)
          : new JobFailedError(this.kind, snapshot);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new JobTimeoutError(this.kind, snapshot, limit);
      }
      const delay = Math.max(delays.next().value, retryAfter);
      retryAfter = 0;
      // Sleep at most until the deadline, then look once more before giving up.
      await pause(Math.min(delay, remaining), signal);
      try {
        snapshot = await this.refresh({ signal });
        failures = 0;
      } catch (error) {
        // A poll that failed for a passing reason is not the job's failure:
        // keep waiting (until the deadline) while the budget lasts.
        if (signal?.aborted || !transient(error) || ++failures > budget) {
          throw error;
        }
        if (error instanceof RateLimitError) retryAfter = error.retryAfter ?? 0;
      }
    }
  }

  /**
   * Waits until the job is ready and resolves to its result. Shows progress
   * (a terminal bar on a TTY stderr unless `progress: false`).
   *
   * @example Abort a wait
   * ```ts
   * import { Job } from "./job.ts";
   * const job = new Job({
   *   kind: "job",
   *   start: () => Promise.resolve({ id: "j", status: "STARTING" }),
   *   retrieve: (id) => Promise.resolve({ id, status: "RUNNING" }),
   *   resolve: () => "done",
   *   poll: { initialDelay: 1 },
   * });
   * const controller = new AbortController();
   * const waiting = job.wait({ signal: controller.signal, progress: false });
   * controller.abort(new Error("user stopped"));
   * await waiting.catch((e) => e.message); // "user stopped"
   * ```
   */
  async wait(options: WaitOptions<S> = {}): Promise<T> {
    const reporter = pickProgress(
      options.progress ?? this.#definition.progress,
      this.kind,
    );
    let last: S | undefined;
    try {
      let result: T;
      if (options.cancelOnAbort && options.signal) {
        result = await this.#cancelOnAbort(options, options.signal, (s) => {
          last = s;
          reporter?.update(s);
        });
      } else {
        for await (const snapshot of this.watch(options)) {
          last = snapshot;
          options.onProgress?.(snapshot);
          reporter?.update(snapshot);
        }
        result = await this.#definition.resolve(last!, {
          signal: options.signal,
        });
      }
      await reporter?.end(last);
      return result;
    } catch (error) {
      // A display that fails to draw must not hide the job's own error.
      await Promise.resolve(reporter?.end(last ?? this.#snapshot, error))
        .catch(() => {});
      throw error;
    }
  }

  // wait() whose abort also cancels the job: the job is cancelled (or the
  // reason it could not be is known) before the wait rejects.
  async #cancelOnAbort(
    options: WaitOptions<S>,
    signal: AbortSignal,
    seen: (snapshot: S) => void,
  ): Promise<T> {
    try {
      return await this.wait({
        ...options,
        cancelOnAbort: false,
        progress: false,
        onProgress: (s) => {
          seen(s);
          options.onProgress?.(s);
        },
      });
    } catch (error) {
      if (!signal.aborted || error !== signal.reason) throw error;
      try {
        seen(await this.cancel());
      } catch (refused) {
        // A 409: the job ended (completed, say) before the cancel landed.
        // Nothing is left to stop, and the abort is what the caller asked
        // for: it stands, not "already ended (COMPLETED)".
        if (!(refused instanceof ConflictError)) throw refused;
      }
      throw error;
    }
  }

  /**
   * Asks the service to stop the job; resolves to the job as the service
   * answers (`CANCELLED` on the local platform). A job that already ended
   * gives a `ConflictError` (409). A service without a cancel operation
   * (404 or 405 on the cancel path while the job exists) gives a
   * {@linkcode CancellationNotSupportedError}, as does a deployed model
   * (delete it instead). A wait under way then ends with a
   * {@linkcode JobCancelledError}.
   *
   * @example
   * ```ts
   * import { Job } from "./job.ts";
   * let status = "RUNNING";
   * const job = new Job({
   *   kind: "training job",
   *   start: () => Promise.resolve({ id: "tj_1", status }),
   *   retrieve: (id) => Promise.resolve({ id, status }),
   *   resolve: () => "model",
   *   cancel: (id) => Promise.resolve({ id, status: (status = "CANCELLED") }),
   *   poll: { initialDelay: 1 },
   *   progress: false,
   * });
   * if ((await job.cancel()).status !== "CANCELLED") throw new Error("not cancelled");
   * const outcome = await job.then(() => "resolved", (e) => (e as Error).name);
   * if (outcome !== "JobCancelledError") throw new Error(outcome);
   * ```
   */
  async cancel(options: JobRequestOptions = {}): Promise<S> {
    const { id } = await abortable(this.created, options.signal);
    const cancel = this.#definition.cancel;
    if (cancel === undefined) {
      throw new CancellationNotSupportedError(
        this.kind,
        id,
        undefined,
        this.#definition.cancelHint,
      );
    }
    let snapshot: S;
    try {
      snapshot = await cancel(id, options);
    } catch (error) {
      const status = error instanceof MLPlatformError ? error.status : 0;
      if (status !== 404 && status !== 405) throw error;
      // 404 also means "no such job": that error is the truer one then.
      if (status === 404) await this.#definition.retrieve(id, options);
      throw new CancellationNotSupportedError(this.kind, id, status);
    }
    this.#snapshot = snapshot;
    return snapshot;
  }

  /** Awaiting a Job waits for it (once: later awaits share the same wait). */
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.#result ??= this.wait();
    return this.#result.then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`, on the job's wait. */
  catch<R = never>(
    onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  /** Like `Promise.prototype.finally`, on the job's wait. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  /** Shown by `Object.prototype.toString` and inspectors. */
  get [Symbol.toStringTag](): string {
    return "Job";
  }

  #defaultLimit(snapshot: S): number {
    const max = snapshot.maximum_runtime_seconds;
    if (typeof max === "number" && max > 0) {
      // The service's own cap plus a margin for queueing and clock skew.
      return max * 1000 + Math.max(60_000, max * 100);
    }
    return this.#definition.defaultTimeout ?? DEFAULT_TIMEOUT;
  }
}

/**
 * Whether a failed poll may succeed if repeated: what the retry table repeats
 * for reads, and a 401 (the next poll renews the token).
 */
function transient(error: unknown): boolean {
  // (A ConnectionError with a status is a redirect loop: not passing.)
  if (error instanceof ConnectionError) return error.status === undefined;
  if (error instanceof TimeoutError) return true;
  if (!(error instanceof MLPlatformError) || error.status === undefined) {
    return false;
  }
  return error.status === 401 || RETRY_RULES.read.statuses.has(error.status);
}

function fingerprint(s: JobSnapshot): string {
  return `${s.status}|${s.stage ?? ""}|${s.progress ?? ""}|${
    s.stage_progress ?? ""
  }`;
}
