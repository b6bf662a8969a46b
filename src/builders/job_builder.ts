// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Base of the builders that start a job: `create()` sends the one request
 * that starts it and returns a {@linkcode Job} at once; awaiting the
 * builder (or the Job) waits for the job's result.
 *
 * @module
 */
import type { z } from "zod";
import { Job, type JobDefinition } from "../jobs/job.ts";
import type { ProgressOption } from "../jobs/progress.ts";
import type { PollOptions } from "../jobs/sleep.ts";
import type { JobSnapshot } from "../jobs/status.ts";
import { ClientBuilder, type CreateOptions } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";

/** Options every job builder takes besides its own. */
export interface JobControl {
  /** Progress display of `await job` (`false` silences the terminal bar). */
  progress?: ProgressOption;
  /** Poll schedule (default 250 ms growing to 5 s). */
  poll?: PollOptions;
}

/**
 * Everything of a {@linkcode JobDefinition} but how the job starts: how one
 * kind of job is retrieved, resolved and cancelled once it exists. Builders
 * add `start`; `ml.attach` starts from an id instead.
 */
export type JobSteps<J extends JobSnapshot, T> = Omit<
  JobDefinition<J, T>,
  "start" | "progress" | "poll"
>;

/** A builder whose `create()` starts a job. Immutable; awaitable. */
export abstract class JobBuilder<
  O extends JobControl,
  S extends z.ZodType,
  J extends JobSnapshot,
  T,
> extends ClientBuilder<O, S> implements PromiseLike<T> {
  #job?: Job<J, T>;

  /** How this kind of job is started, retrieved and resolved. */
  protected abstract definition(
    client: BuilderClient,
    body: z.output<S>,
    options?: CreateOptions,
  ): Omit<JobDefinition<J, T>, "progress" | "poll">;

  /**
   * The validated job definition (`start`, `retrieve`, `resolve`) without
   * starting anything; for helpers that compose several steps into one Job.
   */
  toDefinition(options?: CreateOptions): JobDefinition<J, T> {
    const body = this.body();
    return {
      ...this.definition(this.requireClient("start a job"), body, options),
      progress: this.options.progress,
      poll: this.options.poll,
    };
  }

  /**
   * Validates the body (throwing before any request), then starts the job
   * and returns it: `await job` waits for its result.
   */
  create(options?: CreateOptions): Job<J, T> {
    return new Job(this.toDefinition(options));
  }

  /** `await builder` starts the job (once) and waits for its result. */
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    try {
      this.#job ??= this.create();
    } catch (error) {
      return Promise.reject(error).then(onfulfilled, onrejected);
    }
    return this.#job.then(onfulfilled, onrejected);
  }
}
