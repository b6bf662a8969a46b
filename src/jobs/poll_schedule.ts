/**
 * The poll schedule of a job wait: its options and the waits between polls
 * (240 ms at first, growing by a tenth each poll up to 5 s). With these defaults each wait is 240 ms plus
 * a tenth of the time waited so far, so a job is seen done at most about 10%
 * of its length plus 250 ms after it completes, and a 60 s job costs about
 * 35 polls (measured by `deno task bench`, line 4).
 *
 * @module
 */
import { ValidationError } from "../http/errors.ts";

/** How often a job is retrieved while it runs. */
export interface PollOptions {
  /** First wait, in ms (default 240). */
  initialDelay?: number;
  /** Longest wait, in ms (default 5000). */
  maxDelay?: number;
  /** Growth of each wait over the previous one (default 1.1). */
  factor?: number;
  /**
   * Polls in a row that may fail with a transient error (network, timeout,
   * 408, 429, 5xx, a 401 that token renewal fixes) before the wait gives up
   * with that error (default 10). Each failed poll has already used the
   * client's own `maxRetries`; a successful poll refills the budget.
   */
  errorBudget?: number;
  /** Waits between polls (default: a timer; inject one to record or skip waits). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The waits between polls, in ms: `initialDelay`, then times `factor` each
 * step, never above `maxDelay`.
 *
 * @example
 * ```ts
 * import { pollDelays } from "./poll_schedule.ts";
 * const waits = pollDelays({ initialDelay: 250, maxDelay: 1000, factor: 2 });
 * [waits.next().value, waits.next().value, waits.next().value, waits.next().value];
 * // [250, 500, 1000, 1000]
 * ```
 */
export function* pollDelays(
  options: PollOptions = {},
): Generator<number, never> {
  const max = Math.max(0, options.maxDelay ?? 5000);
  const factor = Math.max(1, options.factor ?? 1.1);
  let delay = Math.min(max, Math.max(0, options.initialDelay ?? 240));
  for (;;) {
    yield Math.round(delay);
    delay = Math.min(max, delay * factor);
  }
}

/**
 * Throws a `ValidationError` naming each wait option (`timeout`,
 * `poll.*`) that is not a number the schedule can use. From JavaScript a
 * `NaN` or a string got through: `timeout: NaN` never timed out and
 * `poll.maxDelay: NaN` polled without pause, hammering the service.
 * `Infinity` is allowed for `timeout` and `poll.errorBudget` (no limit).
 *
 * @example
 * ```ts
 * import { checkWaitOptions } from "./poll_schedule.ts";
 * checkWaitOptions({ timeout: 1000, poll: { initialDelay: 10 } }); // fine
 * let refused = false;
 * try { checkWaitOptions({ timeout: NaN }); } catch { refused = true; }
 * if (!refused) throw new Error("NaN accepted");
 * ```
 */
export function checkWaitOptions(
  options: { timeout?: unknown; poll?: PollOptions },
): void {
  const issues: { path: string; message: string }[] = [];
  const check = (path: string, value: unknown, unlimited: boolean) => {
    if (value === undefined) return;
    if (
      typeof value !== "number" || Number.isNaN(value) || value < 0 ||
      (!unlimited && !Number.isFinite(value))
    ) {
      issues.push({
        path,
        message: `must be a ${
          unlimited ? "" : "finite "
        }number of 0 or more (got ${String(value)} of type ${typeof value})`,
      });
    }
  };
  check("timeout", options.timeout, true);
  const poll = options.poll ?? {};
  check("poll.initialDelay", poll.initialDelay, false);
  check("poll.maxDelay", poll.maxDelay, false);
  check("poll.factor", poll.factor, false);
  check("poll.errorBudget", poll.errorBudget, true);
  if (issues.length > 0) {
    throw new ValidationError({
      message: "Invalid wait options",
      issues,
      hint: "Nothing was polled: fix the option(s) named above",
    });
  }
}
