/**
 * One {@linkcode Job} over several steps: the preparatory creates run first
 * (at once, like any Job's start), then the job itself. Polling and the
 * result come from the real job's definition; the progress display and poll
 * schedule from the step's options, known before anything is sent.
 *
 * @module
 */
import { Job, type JobDefinition } from "./job.ts";
import { CancellationNotSupportedError } from "./errors.ts";
import type { ProgressOption } from "./progress.ts";
import type { JobSnapshot } from "./status.ts";
import type { PollOptions } from "./poll_schedule.ts";

/**
 * A Job whose definition `prepare` makes on first use; `kind` names it in
 * messages, `readyStatuses` are the statuses that count as done (default:
 * the job's own). When the job is not started after all (its create is
 * refused, or `prepare` fails part-way), `undo` runs before the error is
 * passed on: it removes what `prepare` made for this job alone.
 *
 * @example
 * ```ts
 * import { deferredJob } from "./deferred.ts";
 * let prepared = 0;
 * const job = deferredJob("example job", undefined, { progress: false }, () => {
 *   prepared++;
 *   return Promise.reject(new Error("no service here"));
 * });
 * const message = await job.then(() => "", (e) => String((e as Error).message));
 * if (prepared !== 1 || !message.includes("no service here")) throw new Error(message);
 * ```
 */
export function deferredJob<S extends JobSnapshot, T>(
  kind: string,
  readyStatuses: readonly string[] | undefined,
  control: { progress?: ProgressOption; poll?: PollOptions },
  prepare: () => Promise<JobDefinition<S, T>>,
  undo?: () => Promise<void>,
): Job<S, T> {
  let definition: Promise<JobDefinition<S, T>> | undefined;
  const get = () => (definition ??= prepare());
  return new Job<S, T>({
    kind,
    readyStatuses,
    progress: control.progress,
    poll: control.poll,
    start: async () => {
      try {
        return await (await get()).start();
      } catch (error) {
        await undo?.().catch(() => {});
        throw error;
      }
    },
    retrieve: async (id, o) => (await get()).retrieve(id, o),
    resolve: async (s, o) => (await get()).resolve(s, o),
    cancel: async (id, o) => {
      const definition = await get();
      if (definition.cancel === undefined) {
        throw new CancellationNotSupportedError(
          kind,
          id,
          undefined,
          definition.cancelHint,
        );
      }
      return definition.cancel(id, o);
    },
  });
}
