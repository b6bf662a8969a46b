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

/**
 * What npm shows about the package (deno.json has no place for these):
 * description, keywords, licence and where the source lives. The repository
 * URL is the project's public home; change it here if the project moves.
 */
export const NPM_METADATA = {
  description:
    "TypeScript SDK for the machine-learning platform's REST API: typed client, fluent builders, awaitable jobs, views as rows or danfo DataFrames, and the whole platform in-process for offline work (local(), mlp-local).",
  keywords: [
    "machine-learning",
    "explainable-ai",
    "sdk",
    "rest-client",
    "typescript",
    "deno",
    "jupyter",
    "danfojs",
    "gradient-boosting",
  ],
  license: "MIT",
  repository: {
    type: "git",
    url: "git+https://github.com/mlplatform/sdk.git",
  },
  homepage: "https://github.com/mlplatform/sdk#readme",
  bugs: { url: "https://github.com/mlplatform/sdk/issues" },
} as const;

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

/** Where a source file lands in the build: `./x/y.ts` -> `./esm/x/y.js`. */
function esmPath(file: string): string {
  return `./esm/${file.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
}

/** The built `./esm/` paths of each deno.json export, by subpath. */
function esmExports(
  exports: DenoJson["exports"] = "./mod.ts",
): Record<string, { types: string; import: string; default: string }> {
  const map = typeof exports === "string" ? { ".": exports } : exports;
  return Object.fromEntries(
    Object.entries(map).map(([subpath, file]) => {
      const base = esmPath(file).replace(/\.js$/, "");
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
 * @param bin Commands the package installs, by name: the source file
 *   (`src/local/node_cli.ts`), built to `./esm/<same path>.js`.
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
 * const withBin = packageJson({ name: "a", version: "1.0.0" }, [], {}, { "mlp-local": "src/local/node_cli.ts" });
 * if (withBin.bin?.["mlp-local"] !== "./esm/src/local/node_cli.js") throw new Error();
 * ```
 */
export function packageJson(
  deno: DenoJson,
  used: Iterable<NpmTarget>,
  devDependencies: Record<string, string> = {},
  bin: Record<string, string> = {},
): {
  name: string;
  version: string;
  type: "module";
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
  bin?: Record<string, string>;
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
  const bins = Object.entries(bin);
  return {
    name: deno.name,
    version: deno.version,
    description: deno.description ?? NPM_METADATA.description,
    keywords: [...NPM_METADATA.keywords],
    license: deno.license ?? NPM_METADATA.license,
    repository: NPM_METADATA.repository,
    homepage: NPM_METADATA.homepage,
    bugs: NPM_METADATA.bugs,
    type: "module",
    main: "./esm/mod.js",
    module: "./esm/mod.js",
    types: "./esm/mod.d.ts",
    exports: esmExports(deno.exports),
    ...(bins.length > 0
      ? {
        bin: Object.fromEntries(
          bins.map(([name, file]) => [name, esmPath(file)]),
        ),
      }
      : {}),
    files: ["esm/", "README.md", "LICENSE"],
    sideEffects: false,
    engines: { node: NODE_ENGINES },
    dependencies: sorted(dependencies),
    peerDependencies: sorted(peerDependencies),
    peerDependenciesMeta,
    devDependencies: sorted(devDependencies),
  };
}
