/**
 * The message of anything thrown, for the answers and logs that quote it.
 *
 * @module
 */

/**
 * An error's `message`, or the thrown value as text when it is not an
 * `Error`.
 *
 * @example
 * ```ts
 * import { messageOf } from "./error_message.ts";
 * if (messageOf(new Error("disk full")) !== "disk full" || messageOf("x") !== "x") throw new Error();
 * ```
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
