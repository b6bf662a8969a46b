import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseNpm, rewriteSpecifier } from "../scripts/npm/specifiers.ts";
import { packageJson } from "../scripts/npm/package_json.ts";
import { compileForNode } from "../scripts/npm/tsc_build.ts";

const imports = {
  zod: "npm:zod@^4.1.0",
  "danfojs-node": "npm:danfojs-node@1.1.2",
  "@hono/zod-openapi": "npm:@hono/zod-openapi@^1.1.0",
  "hono/": "npm:hono@^4.10.0/",
  "@std/assert": "jsr:@std/assert@^1",
};

Deno.test("parseNpm handles scopes, ranges and subpaths", () => {
  assertEquals(parseNpm("npm:zod"), { name: "zod", range: "*", subpath: "" });
  assertEquals(parseNpm("npm:@a/b@1.2.3"), {
    name: "@a/b",
    range: "1.2.3",
    subpath: "",
  });
  assertEquals(parseNpm("jsr:@std/assert@1"), undefined);
});

Deno.test("rewriteSpecifier maps bare and npm: specifiers to package names", () => {
  assertEquals(rewriteSpecifier("zod", imports).specifier, "zod");
  assertEquals(
    rewriteSpecifier("@hono/zod-openapi", imports).npm?.range,
    "^1.1.0",
  );
  assertEquals(rewriteSpecifier("hono/cors", imports).specifier, "hono/cors");
  assertEquals(
    rewriteSpecifier("node:fs/promises", imports).specifier,
    "node:fs/promises",
  );
  assertEquals(rewriteSpecifier("../x.ts", imports).npm, undefined);
});

Deno.test("rewriteSpecifier refuses what Node cannot resolve, saying why", () => {
  assertThrows(
    () => rewriteSpecifier("@std/assert", imports),
    Error,
    "cannot be used in the npm build",
  );
  assertThrows(
    () => rewriteSpecifier("lodash", imports),
    Error,
    "not in deno.json",
  );
  assertThrows(
    () => rewriteSpecifier("https://esm.sh/x", imports),
    Error,
    "cannot be used",
  );
});

Deno.test("packageJson: ESM, engines, deps and optional danfo peer", () => {
  const pkg = packageJson({ name: "@mlplatform/sdk", version: "1.0.0" }, [
    { name: "zod", range: "^4.1.0", subpath: "" },
    { name: "jose", range: "^6.1.0", subpath: "" },
    { name: "danfojs-node", range: "1.1.2", subpath: "" },
  ]);
  assertEquals(pkg.type, "module");
  assertEquals(pkg.engines, { node: ">=20" });
  assertEquals(pkg.dependencies, { jose: "^6.1.0", zod: "^4.1.0" });
  assertEquals(pkg.peerDependencies, { "danfojs-node": "1.1.2" });
  assertEquals(pkg.peerDependenciesMeta, {
    "danfojs-node": { optional: true },
  });
  assertEquals(
    (pkg.exports as Record<string, Record<string, string>>)["."].import,
    "./esm/mod.js",
  );
  assertEquals(pkg.license, "MIT");
  assertEquals(pkg.files, ["esm/", "README.md", "LICENSE"]);
  assertEquals(
    (pkg.repository as { url: string }).url.startsWith("git+https://"),
    true,
  );
  assertEquals((pkg.keywords as string[]).includes("machine-learning"), true);
  assertEquals(typeof pkg.description, "string");
  assertEquals(pkg.bin, undefined, "no bin unless one is given");
  const withBin = packageJson(
    {
      name: "@mlplatform/sdk",
      version: "1.0.0",
      exports: { ".": "./mod.ts", "./local": "./local.ts" },
    },
    [],
    {},
    { "mlp-local": "src/local/node_cli.ts" },
  );
  assertEquals(withBin.bin, { "mlp-local": "./esm/src/local/node_cli.js" });
  assertEquals(
    (withBin.exports as Record<string, Record<string, string>>)["./local"],
    {
      types: "./esm/local.d.ts",
      import: "./esm/local.js",
      default: "./esm/local.js",
    },
  );
  assertThrows(() => packageJson({ version: "1" }, []), Error, '"name"');
  assertThrows(
    () =>
      packageJson({ name: "a", version: "1" }, [
        { name: "zod", range: "^3", subpath: "" },
        { name: "zod", range: "^4", subpath: "" },
      ]),
    Error,
    "two ranges",
  );
});

Deno.test("compileForNode rewrites specifiers in JS and declarations", async () => {
  // Inside the repository, so that `zod` resolves from its node_modules.
  const root = new URL("../", import.meta.url).pathname;
  await Deno.mkdir(`${root}.tmp`, { recursive: true });
  const dir = await Deno.makeTempDir({ dir: `${root}.tmp`, prefix: "npm_" });
  try {
    await Deno.writeTextFile(
      `${dir}/schema.ts`,
      'import { z } from "zod";\nexport const Item = z.object({ id: z.string() });\n',
    );
    await Deno.writeTextFile(
      `${dir}/mod.ts`,
      [
        'export { Item } from "./schema.ts";',
        "export async function lazy(): Promise<unknown> {",
        '  return await import("danfojs-node");',
        "}",
      ].join("\n"),
    );
    const { packages } = compileForNode({
      root: dir,
      entryPoints: ["mod.ts"],
      outDir: `${dir}/out`,
      imports,
      typeRoots: [],
    });
    assertEquals([...packages.keys()].sort(), ["danfojs-node", "zod"]);
    const js = await Deno.readTextFile(`${dir}/out/mod.js`);
    assertStringIncludes(js, 'from "./schema.js"');
    assertStringIncludes(js, 'import("danfojs-node")');
    const dts = await Deno.readTextFile(`${dir}/out/mod.d.ts`);
    assertStringIncludes(dts, 'from "./schema.js"');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compileForNode fails on an unguarded Deno API", async () => {
  const dir = await Deno.makeTempDir({ prefix: "npm_" });
  try {
    await Deno.writeTextFile(
      `${dir}/mod.ts`,
      "export const cwd = (): string => Deno.cwd();\n",
    );
    const original = console.error;
    console.error = () => {}; // the diagnostics are expected here
    try {
      assertThrows(
        () =>
          compileForNode({
            root: dir,
            entryPoints: ["mod.ts"],
            outDir: `${dir}/out`,
            imports: {},
            typeRoots: [],
          }),
        Error,
        "feature detection",
      );
    } finally {
      console.error = original;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
