/**
 * The local platform's shortcut past zod for views bodies
 * (`src/schemas/views_fast.ts`) held to `ViewsRequestSchema`: on generated
 * bodies, valid and not, whatever the shortcut accepts zod accepts with an
 * equal output (same keys, values and null-prototype records), and whatever
 * zod refuses the shortcut leaves to zod. And over the platform, a bad views
 * body still answers the 400 naming the column.
 */
import { assert, assertEquals } from "@std/assert";
import fc from "fast-check";
import { ViewsRequestSchema } from "../src/schemas/views.ts";
import { fastViewsRequest } from "../src/schemas/views_fast.ts";
import { raw, setup, tokenFor } from "./_helpers/local_setup.ts";

const cell = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 4 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
/** Something a hostile or careless body may hold instead of a cell. */
const notCell = fc.oneof(
  fc.boolean(),
  fc.constant({}),
  fc.constant([[1]]),
  fc.constant(undefined),
);
const name = fc.oneof(
  fc.constantFrom("x", "y", "__proto__", "constructor", "toString"),
  fc.string({ maxLength: 3 }),
);
const column = (rows: number) =>
  fc.array(fc.oneof({ weight: 40, arbitrary: cell }, notCell), {
    minLength: rows,
    maxLength: rows,
  });
const query = fc.integer({ min: 0, max: 3 }).chain((rows) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.dictionary(name, column(rows), { minKeys: 1, maxKeys: 4 }),
    },
    // Columns of different lengths.
    { weight: 1, arbitrary: fc.dictionary(name, fc.array(cell)) },
    { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.constant([1])) },
  )
);
const data = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.constant([{ view_type: "RESULTS" }]) },
  fc.constant([{ view_type: "RESULTS" }, { view_type: "RESULTS" }]),
  fc.constant([]),
  fc.constant([{ view_type: "PREDICTIONS" }]),
  fc.constant([{ view_type: "RESULTS", extra: 1 }]),
  fc.constant("RESULTS"),
);
const targets = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.dictionary(
      name,
      fc.oneof(
        { weight: 8, arbitrary: cell },
        { weight: 8, arbitrary: fc.array(cell) },
        notCell,
      ),
    ),
  },
  fc.constant(null),
  fc.constant(["a"]),
);

/**
 * A body as plain data to compare: records as lists of [name, value] pairs
 * (a column named `constructor` would trip an equality check that reads it).
 */
const comparable = (body: {
  data: unknown;
  query: Record<string, unknown>;
  targets: Record<string, unknown>;
}) => ({
  data: body.data,
  query: Object.keys(body.query).map((k) => [k, body.query[k]]),
  targets: Object.keys(body.targets).map((k) => [k, body.targets[k]]),
});

/** JSON round trip: what the server parses (`__proto__` an own key). */
const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value) ?? "null");

Deno.test("views fast path: accepts only what zod accepts, with zod's output", () => {
  let taken = 0, runs = 0;
  fc.assert(
    fc.property(
      data,
      query,
      targets,
      fc.boolean(),
      (d, q, t, extraKey) => {
        const body: Record<string, unknown> = { data: d, query: q, targets: t };
        if (extraKey) body.other = 1;
        const value = viaJson(body);
        const fast = fastViewsRequest(value);
        const parsed = ViewsRequestSchema.safeParse(value);
        runs++;
        if (fast === undefined) return;
        taken++;
        assert(
          parsed.success,
          `zod refused what the fast path took: ${JSON.stringify(value)}`,
        );
        assertEquals(comparable(fast), comparable(parsed.data));
        assertEquals(Object.getPrototypeOf(fast.query), null);
        assertEquals(Object.getPrototypeOf(fast.targets), null);
      },
    ),
    { numRuns: 2000 },
  );
  // Not vacuous: the generated bodies are valid often enough.
  assert(taken > runs / 10, `the fast path took ${taken} of ${runs} bodies`);
});

Deno.test("views fast path: the common bodies take it", () => {
  for (
    const body of [
      { query: { x: [1], c: ["a"] } },
      { data: [{ view_type: "RESULTS" }], query: { x: [null] }, targets: {} },
      { query: { x: [1, 2] }, targets: { y: "a" } },
      { query: { x: [1, 2] }, targets: { y: ["a", null] } },
      viaJson({ query: { ["__proto__"]: [1] } }),
    ]
  ) {
    const fast = fastViewsRequest(body);
    assert(fast, JSON.stringify(body));
    assertEquals(comparable(fast), comparable(ViewsRequestSchema.parse(body)));
  }
});

Deno.test("views fast path: a bad views body still answers 400 naming the column", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const bad = await raw(platform, "POST", "/deployed-models/dm_none/views", {
      token,
      body: { query: { x: [1, true] } },
    });
    assertEquals(bad.status, 400);
    assertEquals(bad.body.errors?.[0].path, "query.x.1");
  } finally {
    await platform.close();
  }
});
