/**
 * The model's files import each other without a circle, and what serving
 * loads (explain.ts, at run time) reaches nothing of the trainer or of
 * onboarding: the import graph of src/local/model/, read from the sources.
 */
import { assert, assertEquals } from "@std/assert";

const DIR = new URL("../src/local/model/", import.meta.url);

/** Each file's imports inside the folder (`runtime`: without `import type`). */
async function graph(runtime: boolean): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for await (const entry of Deno.readDir(DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, DIR));
    const deps: string[] = [];
    // Statements at the start of a line (doc examples are in comments).
    const re = /^(import|export)(\s+type)?\s[^;]*?from\s+"\.\/([^"]+)";/gms;
    for (const m of text.matchAll(re)) {
      if (runtime && m[2]) continue;
      deps.push(m[3]);
    }
    out.set(entry.name, deps);
  }
  return out;
}

/** A circle in the graph, as the files along it, or null. */
function findCircle(g: Map<string, string[]>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 2) return null;
    if (state.get(f) === 1) return [...path.slice(path.indexOf(f)), f];
    state.set(f, 1);
    path.push(f);
    for (const d of g.get(f) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    path.pop();
    state.set(f, 2);
    return null;
  };
  for (const f of g.keys()) {
    const c = visit(f);
    if (c) return c;
  }
  return null;
}

/** Every file `from` reaches. */
function reach(g: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(g.get(f) ?? []));
  }
  return seen;
}

Deno.test("model imports: no circle among the model's files, type imports included", async () => {
  const g = await graph(false);
  assert(g.size > 20, `read the folder (${g.size} files)`);
  assertEquals(findCircle(g), null);
  // The check finds one when there is one.
  assertEquals(
    findCircle(new Map([["a.ts", ["b.ts"]], ["b.ts", ["a.ts"]]])),
    ["a.ts", "b.ts", "a.ts"],
  );
});

Deno.test("model imports: serving (explain.ts) loads the predictor, not the trainer nor onboarding", async () => {
  const loaded = reach(await graph(true), "explain.ts");
  assert(loaded.has("predictor.ts") && loaded.has("encode_rows.ts"));
  for (
    const trainer of [
      "train.ts",
      "search.ts",
      "bagging.ts",
      "booster.ts",
      "stage.ts",
      "prepared.ts",
      "finalize.ts",
      "interactions.ts",
      "encoding.ts",
      "ebm.ts",
    ]
  ) assert(!loaded.has(trainer), `explain.ts loads ${trainer}`);
});
