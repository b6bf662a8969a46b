/**
 * Chooses the import map for the tests: deno.json as is when JSR answers,
 * otherwise a generated map that sends `@std/assert` to the offline fallback
 * in `tests/_std_assert/`.
 *
 * @module
 */

/** The JSR document fetched to tell whether JSR can be reached. */
export const JSR_PROBE_URL = "https://jsr.io/@std/assert/meta.json";

/**
 * Tells whether JSR answers within `timeoutMs`. Any network error, timeout or
 * non-2xx answer counts as unreachable.
 *
 * @param timeoutMs How long to wait for JSR.
 * @param fetchFn The fetch to use (tests pass a fake one).
 * @returns `true` when JSR served the probe document.
 *
 * @example
 * ```ts
 * import { probeJsr } from "./import_map.ts";
 *
 * const offline = () => Promise.reject(new TypeError("network down"));
 * if (await probeJsr(10, offline)) throw new Error("must report unreachable");
 * ```
 */
export async function probeJsr(
  timeoutMs = 3000,
  fetchFn: typeof fetch = fetch,
): Promise<boolean> {
  try {
    const response = await fetchFn(JSR_PROBE_URL, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** The parts of deno.json an import map is made from. */
export interface DenoConfig {
  /** Bare specifier -> target. */
  imports?: Record<string, string>;
  /** Scope -> (bare specifier -> target). */
  scopes?: Record<string, Record<string, string>>;
}

/** An import map document. */
export interface ImportMap {
  /** Bare specifier -> target. */
  imports: Record<string, string>;
  /** Scope -> (bare specifier -> target). */
  scopes?: Record<string, Record<string, string>>;
}

// `--import-map` maps are resolved relative to the map file, deno.json's
// entries relative to deno.json: make relative targets absolute so the map
// can live anywhere (e.g. a temp file).
function absolutize(target: string, base: URL): string {
  return target.startsWith("./") || target.startsWith("../") ||
      target.startsWith("/")
    ? new URL(target, base).href
    : target;
}

/**
 * Builds the offline import map: every entry of deno.json's `imports` and
 * `scopes` (since `--import-map` replaces them all), with `@std/assert` and
 * `@std/assert/` pointed at the fallback module.
 *
 * @param config deno.json's content.
 * @param configUrl Where deno.json is (relative targets are resolved there).
 * @param fallbackUrl The fallback module (`tests/_std_assert/mod.ts`).
 * @returns The import map.
 *
 * @example
 * ```ts
 * import { offlineImportMap } from "./import_map.ts";
 *
 * const map = offlineImportMap(
 *   { imports: { zod: "npm:zod@^4", "@std/assert": "jsr:@std/assert@^1", "@/": "./src/" } },
 *   new URL("file:///repo/deno.json"),
 *   new URL("file:///repo/tests/_std_assert/mod.ts"),
 * );
 * if (map.imports["@std/assert"] !== "file:///repo/tests/_std_assert/mod.ts") throw new Error();
 * if (map.imports.zod !== "npm:zod@^4" || map.imports["@/"] !== "file:///repo/src/") throw new Error();
 * ```
 */
export function offlineImportMap(
  config: DenoConfig,
  configUrl: URL,
  fallbackUrl: URL,
): ImportMap {
  const imports: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.imports ?? {})) {
    imports[key] = absolutize(value, configUrl);
  }
  imports["@std/assert"] = fallbackUrl.href;
  // Subpaths (`@std/assert/equals`) are not provided by the fallback: map the
  // prefix to its folder so such an import fails with a clear "module not
  // found" naming our folder rather than a JSR network error.
  imports["@std/assert/"] = new URL("./", fallbackUrl).href;
  const map: ImportMap = { imports };
  if (config.scopes) {
    map.scopes = {};
    for (const [scope, entries] of Object.entries(config.scopes)) {
      const scoped: Record<string, string> = {};
      for (const [key, value] of Object.entries(entries)) {
        scoped[key] = absolutize(value, configUrl);
      }
      map.scopes[new URL(scope, configUrl).href] = scoped;
    }
  }
  return map;
}
