/**
 * Maps the module specifiers of the Deno source to what Node resolves in the
 * npm build: import-map keys and `npm:` specifiers become package names, and
 * the packages used are recorded so they can be declared in package.json.
 *
 * @module
 */

/** An `npm:` target split into its parts. */
export interface NpmTarget {
  /** The package name, e.g. `@hono/zod-openapi`. */
  name: string;
  /** The version range, e.g. `^1.1.0` (`*` when none was given). */
  range: string;
  /** The subpath after the package, e.g. `/v4` (empty when none). */
  subpath: string;
}

/**
 * Parses an `npm:` specifier (`npm:@scope/pkg@^1.2/sub`).
 *
 * @param specifier The specifier.
 * @returns Its parts, or `undefined` when it is not an `npm:` specifier.
 *
 * @example
 * ```ts
 * import { parseNpm } from "./specifiers.ts";
 *
 * const t = parseNpm("npm:@hono/zod-openapi@^1.1.0/sub");
 * if (t?.name !== "@hono/zod-openapi" || t.range !== "^1.1.0" || t.subpath !== "/sub") {
 *   throw new Error(JSON.stringify(t));
 * }
 * ```
 */
export function parseNpm(specifier: string): NpmTarget | undefined {
  const match = specifier.match(
    /^npm:\/?((?:@[^/@]+\/)?[^/@]+)(?:@([^/]+))?(\/.*)?$/,
  );
  if (!match) return undefined;
  return { name: match[1], range: match[2] ?? "*", subpath: match[3] ?? "" };
}

/** Result of rewriting one specifier. */
export interface Rewritten {
  /** The specifier to write into the built JavaScript and declarations. */
  specifier: string;
  /** The npm package it needs, if any. */
  npm?: NpmTarget;
}

/**
 * Rewrites one specifier for Node. Relative specifiers and `node:` built-ins
 * are left to the compiler; bare specifiers go through the import map;
 * `npm:` targets become package names.
 *
 * @param specifier The specifier as written in the source.
 * @param imports deno.json's `imports`.
 * @returns The rewritten specifier and the package it needs.
 * @throws {Error} For `jsr:`, `http(s):` and unmapped bare specifiers, which
 * Node cannot resolve: the message says which and what to do.
 *
 * @example
 * ```ts
 * import { rewriteSpecifier } from "./specifiers.ts";
 *
 * const imports = { zod: "npm:zod@^4.1.0", "danfo": "npm:danfojs-node@1.1.2" };
 * if (rewriteSpecifier("zod", imports).specifier !== "zod") throw new Error();
 * if (rewriteSpecifier("danfo", imports).specifier !== "danfojs-node") throw new Error();
 * if (rewriteSpecifier("npm:jose@6/jwt", imports).specifier !== "jose/jwt") throw new Error();
 * if (rewriteSpecifier("./a.ts", imports).specifier !== "./a.ts") throw new Error();
 * if (rewriteSpecifier("zod/v4/core", imports).specifier !== "zod/v4/core") throw new Error();
 * ```
 */
export function rewriteSpecifier(
  specifier: string,
  imports: Record<string, string>,
): Rewritten {
  if (
    specifier.startsWith("./") || specifier.startsWith("../") ||
    specifier.startsWith("node:")
  ) {
    return { specifier };
  }
  let target = specifier;
  if (!specifier.includes(":")) {
    const exact = imports[specifier];
    if (exact !== undefined) target = exact;
    else {
      // Longest matching prefix key ("pkg/" -> "npm:pkg@1/").
      const prefix = Object.keys(imports)
        .filter((key) => key.endsWith("/") && specifier.startsWith(key))
        .sort((a, b) => b.length - a.length)[0];
      // Deno resolves `pkg/sub` through a plain `pkg` -> `npm:pkg@1` entry
      // (tsc also writes such subpaths into declarations, e.g. zod/v4/core).
      const name = specifier.match(/^(?:@[^/]+\/)?[^/]+/)?.[0] ?? specifier;
      const base = imports[name];
      if (prefix === undefined && base?.startsWith("npm:")) {
        target = base + specifier.slice(name.length);
      } else if (prefix === undefined) {
        throw new Error(
          `"${specifier}" is not in deno.json's imports, so Node could not resolve it in the npm build. Add it to deno.json "imports" as an npm: specifier.`,
        );
      } else target = imports[prefix] + specifier.slice(prefix.length);
    }
  }
  const npm = parseNpm(target);
  if (npm) return { specifier: npm.name + npm.subpath, npm };
  if (target.startsWith("node:")) return { specifier: target };
  throw new Error(
    `"${specifier}" resolves to "${target}", which cannot be used in the npm build (only npm: packages and node: built-ins can). Use an npm: package, or keep that import out of mod.ts's module graph.`,
  );
}
