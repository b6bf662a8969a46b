/**
 * The runtime's refusal of an operation: Deno without `--allow-net`,
 * `--allow-read` or `--allow-write` throws `NotCapable` (`PermissionDenied`
 * before Deno 2) before anything happens, and throws it again on every
 * retry. The HTTP transport and the local platform's buckets say so, naming
 * the flag, rather than reporting a network failure or a missing folder.
 *
 * @module
 */

/**
 * The runtime's message when `error` (or one of its causes) is its refusal
 * of a permission, else undefined.
 *
 * @example
 * ```ts
 * import { permissionRefusal } from "./permissions.ts";
 *
 * const refused = new Deno.errors.NotCapable('Requires read access to "/data"');
 * if (permissionRefusal(new TypeError("failed", { cause: refused })) !== 'Requires read access to "/data"') throw new Error("example failed");
 * if (permissionRefusal(new Error("ENOENT")) !== undefined) throw new Error("example failed");
 * ```
 */
export function permissionRefusal(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === "NotCapable" || name === "PermissionDenied") {
      return String((e as { message?: unknown }).message ?? name);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
