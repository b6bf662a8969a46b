/**
 * The compiled response check must never say yes where zod would fail or
 * return something else: checked differentially against zod on every answer
 * of a whole workflow on the local platform, and on thousands of mutations
 * of those answers (keys dropped, types changed, keys added, numbers made
 * fractional or negative, rows misaligned).
 */
import { assert, assertEquals } from "@std/assert";
import { z } from "zod";
import { responseCheck } from "../src/http/response_check.ts";
import { type Route, routes } from "../src/schemas/routes.ts";
import { SplitTableSchema } from "../src/schemas/views.ts";
import {
  deployPenguins,
  penguinQuery,
  setup,
  untilRunning,
} from "./_helpers/local_setup.ts";

/** Every route with a response schema, by `METHOD /path`. */
function responseRoutes(): Map<string, Route> {
  const out = new Map<string, Route>();
  for (const group of Object.values(routes)) {
    for (const route of Object.values(group as Record<string, Route>)) {
      if (route.response) out.set(`${route.method} ${route.path}`, route);
    }
  }
  return out;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random change somewhere inside a copy of `value`. */
function mutate(value: unknown, rand: () => number): unknown {
  const copy = structuredClone(value);
  const spots: { parent: Record<string, unknown> | unknown[]; key: string }[] =
    [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== "object") return;
    for (const key of Object.keys(v)) {
      spots.push({ parent: v as Record<string, unknown>, key });
      walk((v as Record<string, unknown>)[key]);
    }
  };
  walk(copy);
  if (spots.length === 0) return 42;
  const { parent, key } = spots[Math.floor(rand() * spots.length)];
  const p = parent as Record<string, unknown>;
  const replacements: unknown[] = [
    null,
    undefined,
    "text",
    "",
    1.5,
    -1,
    0,
    Infinity,
    true,
    [],
    {},
    [1, 2],
  ];
  switch (Math.floor(rand() * 4)) {
    case 0:
      delete p[key];
      break;
    case 1:
      p[key] = replacements[Math.floor(rand() * replacements.length)];
      break;
    case 2:
      // (JSON arrays cannot carry named keys: add one to an object only.)
      if (!Array.isArray(p)) p[`extra_${key}`] = "x";
      break;
    default:
      if (Array.isArray(p[key])) (p[key] as unknown[]).pop();
      else p[key] = [p[key]];
  }
  return copy;
}

/** A value's structure: its keys and arrays kept, every other value its type. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== "object") {
    return value === null ? "null" : typeof value;
  }
  if (Array.isArray(value)) return value.map(shapeOf);
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, shapeOf(v)]),
  );
}

/** The check agrees with zod: yes only where zod succeeds with an equal value. */
function assertAgrees(schema: z.ZodType, value: unknown, what: string) {
  const check = responseCheck(schema);
  if (!check) return "unsupported";
  if (!check(value)) return "no";
  const parsed = schema.safeParse(value);
  assert(
    parsed.success,
    `${what}: the check accepted what zod refuses: ${
      JSON.stringify(value)?.slice(0, 300)
    }`,
  );
  assertEquals(parsed.data, value, `${what}: zod's output differs`);
  return "yes";
}

Deno.test("the compiled check agrees with zod on every answer of a workflow and on mutations of them", async () => {
  const answers: { route: Route; body: unknown; key: string }[] = [];
  const byKey = responseRoutes();
  const { platform } = await setup();
  try {
    const { Client } = await import("../src/client.ts");
    const match = (method: string, path: string) => {
      for (const [key, route] of byKey) {
        if (!key.startsWith(`${method} `)) continue;
        const pattern = new RegExp(
          `^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}$`,
        );
        if (pattern.test(path)) return { key, route };
      }
    };
    const client = new Client({
      baseUrl: platform.baseUrl,
      ...platform.credentials,
      maxRetries: 0,
      pollInterval: 10,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await platform.fetch(request);
        const text = await response.clone().text();
        const found = match(request.method, new URL(request.url).pathname);
        if (found && text && response.status < 300) {
          answers.push({ ...found, body: JSON.parse(text) });
        }
        return response;
      },
    });
    const { dm } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    for (const group of ["workspaces", "models", "deployedModels"] as const) {
      await client[group].list();
    }
    await client.deployedModels.views(dm.id, { query: penguinQuery(3) });
  } finally {
    await platform.close();
  }
  assert(answers.length >= 20, `only ${answers.length} answers recorded`);
  const rand = random(1);
  const counts = { yes: 0, no: 0, unsupported: 0, mutatedYes: 0 };
  // Every answer is checked; its mutations are made once per route and
  // structure (keys and value types): answers alike in both, such as the
  // training job polled while it runs (most of the answers), would get the
  // same mutations, since a mutation drops, retypes, adds or wraps a value
  // whatever the value was.
  const mutatedShapes = new Set<string>();
  for (const { route, body, key } of answers) {
    const verdict = assertAgrees(route.response!, body, key);
    counts[verdict]++;
    const shape = `${key} ${JSON.stringify(shapeOf(body))}`;
    if (mutatedShapes.has(shape)) continue;
    mutatedShapes.add(shape);
    for (let i = 0; i < 200; i++) {
      const mutated = mutate(body, rand);
      if (
        assertAgrees(route.response!, mutated, `${key} (mutated)`) === "yes"
      ) {
        counts.mutatedYes++;
      }
    }
  }
  // The real answers take the fast path (nothing to fill in or strip).
  assert(
    counts.yes >= answers.length * 0.9,
    `the fast path took only ${counts.yes} of ${answers.length} answers (${
      JSON.stringify(counts)
    })`,
  );
});

Deno.test("the compiled check: refinements, defaults, stripped keys and formats fall to zod", () => {
  const table = responseCheck(SplitTableSchema)!;
  assert(table({ columns: ["a"], index: [0], data: [[1]] }));
  assert(!table({ columns: ["a"], index: [0, 1], data: [[1]] }), "superRefine");
  assert(!table({ columns: ["a"], index: [0], data: [1] }), "row not an array");
  const strict = responseCheck(z.object({ a: z.string() }))!;
  assert(strict({ a: "x" }));
  assert(!strict({ a: "x", b: 1 }), "zod would strip b");
  const withDefault = responseCheck(z.object({ a: z.string().default("d") }))!;
  assert(withDefault({ a: "x" }));
  assert(!withDefault({}), "zod would fill the default");
  const int = responseCheck(z.object({ n: z.int().nonnegative() }))!;
  assert(int({ n: 3 }));
  assert(!int({ n: 3.5 }) && !int({ n: -1 }) && !int({ n: NaN }));
  // min(1) (every id) is checked without zod's code: non-empty.
  const id = responseCheck(z.object({ id: z.string().min(1) }))!;
  assert(id({ id: "a" }) && id({ id: "\ud83d\ude00" }) && id({ id: "\ud800" }));
  assert(!id({ id: "" }) && !id({ id: 1 }) && !id({}));
  const list = responseCheck(z.array(z.number()).min(1))!;
  assert(list([1]) && !list([]) && !list(["1"]));
  const either = responseCheck(z.union([z.string().min(1), z.number()]))!;
  assert(either("x") && either(0) && !either(""));
  const two = responseCheck(z.string().min(1).max(3))!;
  assert(two("abc") && !two("abcd") && !two(""), "other checks run as zod's");
  const email = responseCheck(z.email())!;
  assert(email("a@b.co") && !email("not an email"));
  assertEquals(responseCheck(z.string().trim()), undefined, "an overwrite");
  assertEquals(
    responseCheck(z.string().transform((s) => s.length)),
    undefined,
    "a transform",
  );
});
