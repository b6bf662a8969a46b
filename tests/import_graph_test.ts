/**
 * No import circles in `src/` (issue 26, item 2): walks the static import
 * graph (every `import ... from`, `import "..."`, `export ... from` and
 * `import("...")` with a literal relative specifier) and fails on any cycle,
 * printing each one as a path of modules. Type-only imports count too: a
 * circle of types is still a circle a reader has to hold in mind.
 */
import { assertEquals } from "@std/assert";

const SRC = new URL("../src/", import.meta.url);

/** Cycles known and owned elsewhere, keyed by their sorted member list. */
const KNOWN: Record<string, string> = {};

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Removes comments so that an example in a doc comment is not an import. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(
    /(^|[^:"'`\\])\/\/.*$/gm,
    "$1",
  );
}

/** The relative specifiers one module imports, resolved to paths under src/. */
export function importsOf(text: string, from: string): string[] {
  const out = new Set<string>();
  for (const m of stripComments(text).matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith(".")) continue;
    const url = new URL(spec, new URL(from, SRC));
    const path = url.href.slice(SRC.href.length);
    if (url.href.startsWith(SRC.href) && path.endsWith(".ts")) out.add(path);
  }
  return [...out];
}

async function graph(): Promise<Map<string, string[]>> {
  const edges = new Map<string, string[]>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(new URL(dir, SRC))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(new URL(path, SRC));
        edges.set(path, importsOf(text, path));
      }
    }
  };
  await walk("");
  return edges;
}

/** Strongly connected components with more than one module (Tarjan). */
function circles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) {
        found.push(component.sort());
      }
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One concrete loop through a component, for the failure message. */
function loopIn(component: string[], edges: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0];
  const seen = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        let at = v;
        while (at !== start) path.unshift(at = seen.get(at)!);
        return [...path, start];
      }
      if (!seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

Deno.test("import graph: no module in src/ is part of an import circle", async () => {
  const edges = await graph();
  const all = circles(edges);
  const unknown = all.filter((c) => !(c.join(" ") in KNOWN));
  for (const c of all) {
    const known = KNOWN[c.join(" ")];
    console.log(
      `${known ? `known (${known})` : "CIRCLE"}: ${
        loopIn(c, edges).join(" -> ")
      }${c.length > 2 ? ` [${c.length} modules: ${c.join(", ")}]` : ""}`,
    );
  }
  assertEquals(unknown.map((c) => loopIn(c, edges).join(" -> ")), []);
});

/** Every module `from` loads, directly or through others. */
function reach(edges: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length) {
    for (const w of edges.get(queue.shift()!) ?? []) {
      if (!seen.has(w)) {
        seen.add(w);
        queue.push(w);
      }
    }
  }
  return seen;
}

Deno.test("import graph: the store loads nothing of HTTP, serving nothing of the jobs", async () => {
  const edges = await graph();
  const offenders: string[] = [];
  for (const module of edges.keys()) {
    const rules: [string, string][] = [];
    if (module.startsWith("local/store/")) rules.push(["local/http/", "HTTP"]);
    if (module.startsWith("local/deployments/")) {
      rules.push(["local/jobs/", "the jobs"]);
    }
    for (const [prefix, what] of rules) {
      for (const reached of reach(edges, module)) {
        if (reached.startsWith(prefix)) {
          offenders.push(`${module} loads ${what}: ${reached}`);
        }
      }
    }
  }
  assertEquals(offenders, []);
});

/**
 * What each part of src/ may import (ARCHITECTURE.md says the same in
 * prose): a folder, or a file at the top of src/ or src/local/, named
 * without `.ts`. Every part may import itself and the leaves.
 */
const LEAVES = [
  "schemas",
  "abort",
  "csv",
  "csv_columns",
  "csv_hint",
  "gzip",
  "iso_dates",
  "html",
  "display",
  "regression_fit",
  "permissions",
];
const CLIENT = ["http", "jobs", "resources", "frames", "builders", "client"];
const MAY_IMPORT: Record<string, string[]> = {
  schemas: [],
  abort: [],
  csv: [],
  csv_columns: ["csv"],
  csv_hint: [],
  iso_dates: [],
  html: [],
  display: [],
  regression_fit: [],
  gzip: [],
  permissions: [],
  http: [],
  frames: [],
  jobs: ["http"],
  resources: ["http", "frames"],
  client: ["http", "resources", "frames"],
  builders: ["http", "jobs", "resources", "frames", "client"],
  infer: [...CLIENT],
  notebook: ["jobs", "frames"],
  platform_options: [...CLIENT, "infer"],
  platform_builders: [...CLIENT, "infer", "platform_options"],
  platform_quickstart: [...CLIENT, "platform_options"],
  platform: [
    ...CLIENT,
    "infer",
    "notebook",
    "platform_builders",
    "platform_options",
    "platform_quickstart",
  ],
  "local/errors": [],
  "local/ids": [],
  "local/error_message": [],
  "local/model": [],
  "local/store": ["local/model", "local/errors", "local/ids"],
  "local/jobs": ["local/store", "local/model", "local/error_message"],
  "local/deployments": [
    "local/store",
    "local/model",
    "local/errors",
    "local/error_message",
  ],
  "local/options": ["local/http", "local/ids", "local/error_message"],
  "local/context": [
    "local/store",
    "local/jobs",
    "local/deployments",
    "local/http",
    "local/options",
  ],
  "local/handlers": [
    "local/context",
    "local/store",
    "local/jobs",
    "local/deployments",
    "local/model",
    "local/http",
    "local/errors",
    "local/ids",
  ],
  "local/http": [
    "local/context",
    "local/handlers",
    "local/model",
    "local/options",
    "local/errors",
    "local/ids",
    "local/error_message",
    "local/local_platform",
  ],
  "local/local_platform": [
    "local/context",
    "local/store",
    "local/jobs",
    "local/deployments",
    "local/http",
    "local/options",
    "local/ids",
  ],
  "local/mod": [
    "client",
    "local/http",
    "local/local_platform",
    "local/options",
  ],
  "local/cli": ["local/http", "local/error_message"],
  "local/node_cli": ["local/http", "local/error_message"],
};

/** The part of src/ a module belongs to, as {@linkcode MAY_IMPORT} names it. */
export function partOf(path: string): string {
  const parts = path.replace(/\.ts$/, "").split("/");
  return parts[0] === "local" ? `local/${parts[1]}` : parts[0];
}

Deno.test("import graph: each part of src/ imports only what ARCHITECTURE.md allows it", async () => {
  const edges = await graph();
  const offenders = new Set<string>();
  for (const [module, targets] of edges) {
    const from = partOf(module);
    const allowed = MAY_IMPORT[from];
    if (!allowed) {
      offenders.add(`${module}: part "${from}" has no rule in MAY_IMPORT`);
      continue;
    }
    for (const target of targets) {
      const to = partOf(target);
      if (to === from || LEAVES.includes(to) || allowed.includes(to)) continue;
      offenders.add(`${module} imports ${target} (${from} -> ${to})`);
    }
  }
  assertEquals([...offenders], []);
});

Deno.test("import graph: the parser sees every form of static import", () => {
  const text = [
    `import { a } from "./a.ts";`,
    `import type { B } from "../b.ts";`,
    `export * from "./c.ts";`,
    `export { d } from "./d.ts";`,
    `import "./e.ts";`,
    `const f = await import("./f.ts");`,
    `import { z } from "zod";`,
    `// import { g } from "./g.ts";`,
    `/** import { h } from "./h.ts"; */`,
    `import {`,
    `  i,`,
    `} from "./i.ts";`,
  ].join("\n");
  assertEquals(importsOf(text, "http/x.ts").sort(), [
    "b.ts",
    "http/a.ts",
    "http/c.ts",
    "http/d.ts",
    "http/e.ts",
    "http/f.ts",
    "http/i.ts",
  ]);
});

Deno.test("import graph: a circle is found and a loop through it printed", () => {
  const edges = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", ["a.ts"]],
  ]);
  const found = circles(edges);
  assertEquals(found, [["a.ts", "b.ts", "c.ts"]]);
  assertEquals(loopIn(found[0], edges), ["a.ts", "b.ts", "c.ts", "a.ts"]);
});
