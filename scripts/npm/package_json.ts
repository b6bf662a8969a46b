/**
 * The package.json of the npm build, made from deno.json and from the npm
 * packages the compiled module graph actually imports.
 *
 * @module
 */

import type { NpmTarget } from "./specifiers.ts";

/**
 * Packages that are optional peers rather than dependencies: loaded lazily
 * (only when a DataFrame is asked for), so the client alone stays light.
 */
export const OPTIONAL_PEERS: ReadonlySet<string> = new Set(["danfojs-node"]);

/** Node versions the package supports. */
export const NODE_ENGINES = ">=20";

/** The fields of deno.json used here. */
export interface DenoJson {
  /** Package name, e.g. `@mlplatform/sdk`. */
  name?: string;
  /** Package version. */
  version?: string;
  /** Description, if any. */
  description?: string;
  /** License, if any. */
  license?: string;
  /** Entry points: `"./mod.ts"` or a map of subpath -> file. */
  exports?: string | Record<string, string>;
}

/** The built `./esm/` paths of each deno.json export, by subpath. */
function esmExports(
  exports: DenoJson["exports"] = "./mod.ts",
): Record<string, { types: string; import: string; default: string }> {
  const map = typeof exports === "string" ? { ".": exports } : exports;
  return Object.fromEntries(
    Object.entries(map).map(([subpath, file]) => {
      const base = `./esm/${file.replace(/^\.\//, "").replace(/\.ts$/, "")}`;
      return [subpath, {
        types: `${base}.d.ts`,
        import: `${base}.js`,
        default: `${base}.js`,
      }];
    }),
  );
}

/**
 * Builds package.json: ESM only, `exports` with types, `engines`, runtime
 * `dependencies` for each npm package used, and optional peer dependencies
 * for {@linkcode OPTIONAL_PEERS}.
 *
 * @param deno deno.json's content.
 * @param used The npm packages imported by the built code.
 * @param devDependencies Packages needed only to build (e.g. `@types/node`).
 * @returns The package.json object.
 *
 * @example
 * ```ts
 * import { packageJson } from "./package_json.ts";
 *
 * const pkg = packageJson({ name: "@mlplatform/sdk", version: "0.1.0" }, [
 *   { name: "zod", range: "^4.1.0", subpath: "" },
 *   { name: "danfojs-node", range: "1.1.2", subpath: "" },
 * ]);
 * if (pkg.dependencies.zod !== "^4.1.0" || "danfojs-node" in pkg.dependencies) throw new Error();
 * if (pkg.peerDependenciesMeta["danfojs-node"].optional !== true) throw new Error();
 * ```
 */
export function packageJson(
  deno: DenoJson,
  used: Iterable<NpmTarget>,
  devDependencies: Record<string, string> = {},
): {
  name: string;
  version: string;
  type: "module";
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
  [field: string]: unknown;
} {
  if (!deno.name || !deno.version) {
    throw new Error(
      'deno.json needs "name" and "version" to build the npm package.',
    );
  }
  const dependencies: Record<string, string> = {};
  const peerDependencies: Record<string, string> = {};
  const peerDependenciesMeta: Record<string, { optional: boolean }> = {};
  for (const { name, range } of used) {
    const previous = dependencies[name] ?? peerDependencies[name];
    if (previous !== undefined && previous !== range) {
      throw new Error(
        `npm package "${name}" is imported with two ranges (${previous} and ${range}): use one import-map entry for it.`,
      );
    }
    if (OPTIONAL_PEERS.has(name)) {
      peerDependencies[name] = range;
      peerDependenciesMeta[name] = { optional: true };
    } else {
      dependencies[name] = range;
    }
  }
  const sorted = (record: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(record).sort(([a], [b]) => a.localeCompare(b)),
    );
  return {
    name: deno.name,
    version: deno.version,
    ...(deno.description ? { description: deno.description } : {}),
    ...(deno.license ? { license: deno.license } : {}),
    type: "module",
    main: "./esm/mod.js",
    module: "./esm/mod.js",
    types: "./esm/mod.d.ts",
    exports: esmExports(deno.exports),
    files: ["esm/", "README.md", "LICENSE"],
    sideEffects: false,
    engines: { node: NODE_ENGINES },
    dependencies: sorted(dependencies),
    peerDependencies: sorted(peerDependencies),
    peerDependenciesMeta,
    devDependencies: sorted(devDependencies),
  };
}
