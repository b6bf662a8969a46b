/**
 * What the SDK needs to know about the runtime it runs in: environment
 * variables (Deno or Node, whichever is there, tolerating a denied
 * `--allow-env`) and whether this looks like a browser, where a client
 * secret must not be shipped (docs/api.md#authentication).
 *
 * @module
 */

interface DenoLike {
  env?: { get(name: string): string | undefined };
}
interface ProcessLike {
  env?: Record<string, string | undefined>;
}

/**
 * The value of an environment variable, or undefined when it is unset,
 * when there is no environment (browsers) or when reading it is not
 * permitted (Deno without `--allow-env`): a missing permission is the same
 * as a missing variable, and the caller's error then says how to pass the
 * value explicitly.
 *
 * @example
 * ```ts
 * import { readEnv } from "./environment.ts";
 * readEnv("MLP_SURELY_UNSET_VARIABLE"); // undefined
 * ```
 */
export function readEnv(name: string): string | undefined {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  try {
    if (deno?.env) return deno.env.get(name) || undefined;
    const process = (globalThis as { process?: ProcessLike }).process;
    return process?.env?.[name] || undefined;
  } catch {
    // Deno throws NotCapable/PermissionDenied without --allow-env.
    return undefined;
  }
}

/**
 * True in a browser-like runtime: a `document`, or a `window` without Deno
 * or Node's `process` (Deno and Node never define `document`).
 *
 * @example
 * ```ts
 * import { isBrowserLike } from "./environment.ts";
 * isBrowserLike(); // false under Deno
 * isBrowserLike({ document: {} }); // true
 * ```
 */
export function isBrowserLike(
  global: Record<string, unknown> = globalThis as Record<string, unknown>,
): boolean {
  if (global.document !== undefined) return true;
  return global.window !== undefined && global.Deno === undefined &&
    global.process === undefined;
}
