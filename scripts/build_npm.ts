/**
 * Builds the npm package `@mlplatform/sdk` into `npm/` and tests it with
 * Node (`deno task build:npm`).
 *
 * With dnt (`@deno/dnt` from deno.json) when it can be loaded; otherwise
 * (JSR unreachable) it says so and builds the same layout with the
 * TypeScript compiler from npm: ESM `.js` + `.d.ts` in `npm/esm/`,
 * package.json with `exports` (`.`, `./local`, `./notebook`, from deno.json),
 * the `mlp-local` bin ({@linkcode BINS}), `engines`, npm's metadata, the npm
 * packages used as dependencies and danfojs-node as an optional peer; README
 * for npm users (scripts/npm/README.md) and LICENSE. Then `npm install` in
 * `npm/` and `node --test` over `tests/node/*.test.mjs`.
 *
 * Flags: `--tsc` (skip dnt), `--no-test` (build only),
 * `--entry=<file>` (entry point instead of mod.ts; repeatable).
 *
 * @module
 */

import { OPTIONAL_PEERS, packageJson } from "./npm/package_json.ts";
import { compileForNode } from "./npm/tsc_build.ts";
import { runNodeTests } from "./npm/node_tests.ts";
import type { NpmTarget } from "./npm/specifiers.ts";
import { runTee } from "./lib/run.ts";
import { probeJsr } from "./lib/import_map.ts";

/** Node types used to type-check the build (node:sqlite needs >= 22.5). */
export const TYPES_NODE = "^22.5.0";

/**
 * Commands the package installs (`npx mlp-local`), by name: the source
 * module, which runs when executed. Built like the entries, then given a
 * `#!/usr/bin/env node` line (dnt's `kind: "bin"` entries do the same).
 */
export const BINS: Readonly<Record<string, string>> = {
  "mlp-local": "src/local/node_cli.ts",
};

const SHEBANG = "#!/usr/bin/env node\n";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const outDir = `${root}/npm`;

function step(message: string): void {
  console.log(`[build:npm] ${message}`);
}

async function npmInstall(): Promise<void> {
  const { code } = await runTee("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    // Package data npm has cached is used without asking the registry again.
    "--prefer-offline",
    "--loglevel=error",
  ], { cwd: outDir });
  if (code !== 0) {
    throw new Error(
      `npm install in ${outDir} failed (exit ${code}); see npm's output above. Check that the npm registry is reachable.`,
    );
  }
}

/** Gives each built bin its `#!/usr/bin/env node` line and the x bit. */
async function markExecutable(): Promise<void> {
  for (const source of Object.values(BINS)) {
    const file = `${outDir}/esm/${source.replace(/\.ts$/, ".js")}`;
    const text = await Deno.readTextFile(file);
    if (!text.startsWith("#!")) await Deno.writeTextFile(file, SHEBANG + text);
    await Deno.chmod(file, 0o755);
  }
}

/**
 * Lets the declarations compile without the optional peers: each line of a
 * built `.d.ts` that imports an optional peer's types (`import type {
 * DataFrame } from "danfojs-node"`, `import("danfojs-node").DataFrame`) gets
 * a `// @ts-ignore` line before it. A TypeScript user without danfojs-node
 * installed then compiles (the DataFrame types are `any`) instead of
 * failing on "Cannot find module 'danfojs-node'" in our files unless they
 * skip checking libraries; with it installed, the types are danfo's.
 * Returns the files changed.
 */
export async function tolerateOptionalPeerTypes(
  dir: string,
  peers: Iterable<string> = OPTIONAL_PEERS,
): Promise<string[]> {
  const names = [...peers].map((p) =>
    p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
  );
  if (names.length === 0) return [];
  const importing = new RegExp(
    `(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*)["'](?:${
      names.join("|")
    })(?:/[^"']*)?["']`,
  );
  const changed: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".d.ts")) {
        const lines = (await Deno.readTextFile(path)).split("\n");
        const out: string[] = [];
        for (const [i, line] of lines.entries()) {
          const text = line.trim();
          const comment = /^(\*|\/\*|\/\/)/.test(text);
          if (
            !comment && importing.test(line) &&
            !/^\s*\/\/ @ts-ignore/.test(lines[i - 1] ?? "")
          ) {
            out.push(
              `${
                line.match(/^\s*/)![0]
              }// @ts-ignore: optional peer dependency, absent unless installed`,
            );
          }
          out.push(line);
        }
        if (out.length !== lines.length) {
          await Deno.writeTextFile(path, out.join("\n"));
          changed.push(path);
        }
      }
    }
  };
  await walk(dir);
  return changed;
}

async function copyIfPresent(name: string): Promise<void> {
  try {
    await Deno.copyFile(`${root}/${name}`, `${outDir}/${name}`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

// dnt lives on JSR; the specifier is a variable so that `deno check` does not
// try to fetch it on machines without JSR.
async function loadDnt(): Promise<Record<string, unknown> | undefined> {
  const specifier = "@deno/dnt";
  // A short probe first: an import from an unreachable JSR can hang for long.
  if (!await probeJsr(3000)) {
    step(
      "dnt cannot be loaded (JSR is unreachable): building with the TypeScript compiler from npm instead.",
    );
    return undefined;
  }
  try {
    return await import(specifier);
  } catch (error) {
    step(
      `dnt could not be loaded (${
        (error as Error).message.split("\n")[0]
      }): building with the TypeScript compiler from npm instead.`,
    );
    return undefined;
  }
}

async function writePackageJson(
  deno: Record<string, unknown>,
  used: Iterable<NpmTarget>,
): Promise<void> {
  const pkg = packageJson(
    deno,
    used,
    devDependencies(deno as { imports?: Record<string, string> }),
    BINS,
  );
  await Deno.writeTextFile(
    `${outDir}/package.json`,
    JSON.stringify(pkg, null, 2) + "\n",
  );
}

/**
 * Packages needed only to build and test the package: Node's types, and the
 * TypeScript that tests/node/ compiles a user's code with against the
 * package's declarations (the version of deno.json's `typescript` import).
 */
function devDependencies(
  deno: { imports?: Record<string, string> },
): Record<string, string> {
  const typescript = deno.imports?.typescript?.match(
    /^npm:typescript@(.+)$/,
  )?.[1];
  return {
    "@types/node": TYPES_NODE,
    ...(typescript ? { typescript } : {}),
  };
}

async function previousDependencies(): Promise<NpmTarget[]> {
  try {
    const pkg = JSON.parse(await Deno.readTextFile(`${outDir}/package.json`));
    return Object.entries(
      { ...pkg.dependencies, ...pkg.peerDependencies } as Record<
        string,
        string
      >,
    ).map(([name, range]) => ({ name, range, subpath: "" }));
  } catch {
    return [];
  }
}

async function buildWithTsc(
  deno: { imports?: Record<string, string> } & Record<string, unknown>,
  entryPoints: string[],
): Promise<void> {
  // Node's types first: the compile type-checks against them. Keep the
  // previous build's dependencies meanwhile, so npm does not remove and
  // re-add them on every build.
  await writePackageJson(deno, await previousDependencies());
  step("npm install (build types)");
  await npmInstall();
  step(`compiling ${entryPoints.join(", ")} with TypeScript`);
  const { packages, files } = compileForNode({
    root,
    entryPoints: [...entryPoints, ...Object.values(BINS)],
    outDir: `${outDir}/esm`,
    imports: deno.imports ?? {},
    typeRoots: [`${outDir}/node_modules/@types`],
  });
  step(
    `wrote ${files.length} files; npm packages used: ${
      [...packages.keys()].join(", ") || "none"
    }`,
  );
  await writePackageJson(deno, packages.values());
  step("npm install (dependencies)");
  await npmInstall();
}

async function buildWithDnt(
  dnt: Record<string, unknown>,
  deno: Record<string, unknown>,
  entryPoints: string[],
): Promise<void> {
  const build = dnt.build as (options: unknown) => Promise<void>;
  step("building with dnt");
  await build({
    // dnt names every entry after the first as a subpath export; bins
    // are entries of kind "bin".
    entryPoints: [
      ...entryPoints.map((p, i) =>
        i === 0 ? `./${p}` : {
          name: `./${p.split("/").pop()!.replace(/\.ts$/, "")}`,
          path: `./${p}`,
        }
      ),
      ...Object.entries(BINS).map(([name, path]) => ({
        kind: "bin",
        name,
        path: `./${path}`,
      })),
    ],
    outDir,
    importMap: `${root}/deno.json`,
    shims: {},
    scriptModule: false,
    declaration: "inline",
    test: false,
    typeCheck: "single",
    compilerOptions: {
      lib: ["ESNext", "DOM", "DOM.Iterable"],
      target: "ES2022",
    },
    package: { name: deno.name, version: deno.version },
  });
  // Bring dnt's package.json to the same shape as the tsc build's.
  const built = JSON.parse(await Deno.readTextFile(`${outDir}/package.json`));
  const used: NpmTarget[] = Object.entries(
    { ...built.dependencies, ...built.peerDependencies } as Record<
      string,
      string
    >,
  ).map(([name, range]) => ({ name, range, subpath: "" }));
  await writePackageJson(deno, used);
  step("npm install");
  await npmInstall();
}

async function main(): Promise<number> {
  const args = new Set(Deno.args);
  const entries = Deno.args.filter((a) => a.startsWith("--entry="))
    .map((a) => a.slice("--entry=".length));
  // The training worker is loaded by URL, not imported, so tsc would not see
  // it from mod.ts alone.
  const deno = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const exported: string[] = typeof deno.exports === "string"
    ? [deno.exports]
    : Object.values(deno.exports ?? { ".": "./mod.ts" });
  const entryPoints = entries.length > 0 ? entries : [
    ...exported.map((file) => file.replace(/^\.\//, "")),
    "src/local/model/train_worker.ts",
  ];
  for (const entry of entryPoints) {
    try {
      await Deno.stat(`${root}/${entry}`);
    } catch {
      console.error(
        `[build:npm] ${entry} does not exist: nothing to build. Create it (the public API) or pass --entry=<file>.`,
      );
      return 1;
    }
  }
  const started = performance.now();
  await Deno.remove(`${outDir}/esm`, { recursive: true }).catch(() => {});
  await Deno.mkdir(outDir, { recursive: true });
  const dnt = args.has("--tsc") ? undefined : await loadDnt();
  if (dnt) await buildWithDnt(dnt, deno, entryPoints);
  else await buildWithTsc(deno, entryPoints);
  await markExecutable();
  const tolerant = await tolerateOptionalPeerTypes(`${outDir}/esm`);
  step(
    `${tolerant.length} declaration files import optional peers' types (${
      [...OPTIONAL_PEERS].join(", ")
    }): each such import may fail to resolve without failing the user's check`,
  );
  // The npm README speaks to npm users (install, import, mlp-local).
  await Deno.copyFile(
    `${root}/scripts/npm/README.md`,
    `${outDir}/README.md`,
  );
  await copyIfPresent("LICENSE");
  step(
    `built ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)}s`,
  );
  if (args.has("--no-test")) return 0;
  step("node --test tests/node against the built package");
  const { code } = await runNodeTests(`${root}/tests/node`, outDir);
  return code;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    console.error(`[build:npm] ${(error as Error).message}`);
    Deno.exit(1);
  }
}
