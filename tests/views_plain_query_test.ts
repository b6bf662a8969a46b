/**
 * The views builder builds the common query (plain cells, every column a
 * feature, nothing to drop) in one pass, and sends anything else the long
 * way: `toViewsQuery`, then zod and the features check. These tests hold
 * the one pass to the long way for any input, good or bad: the same body
 * (and JSON), or the same refusal naming the same field.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import { ViewsBuilder } from "../src/builders/views.ts";
import { toViewsQuery } from "../src/frames/query.ts";
import { ValidationError } from "../src/http/errors.ts";
import { nearestName } from "../src/builders/validate.ts";
import { withNodeProtoSetter } from "./_helpers/node_proto.ts";

/** What the long way makes of `query`: the body's JSON, or the paths it refuses. */
function longWay(
  query: unknown,
  features: readonly string[] | undefined,
):
  | { json: string; columns: [string, unknown][] }
  | { paths: string[] } {
  let columns: Record<string, unknown>;
  try {
    columns = toViewsQuery(query as never);
  } catch {
    return { paths: ["query"] };
  }
  const foreign = Object.keys(columns).filter((k) => !features?.includes(k));
  // Features the query leaves out are refused too, after the foreign
  // columns, but for one a foreign column misspells ("did you mean").
  const meant = foreign.map((k) => nearestName(k, features ?? []));
  const missing = (features ?? []).filter((f) =>
    !Object.hasOwn(columns, f) && !meant.includes(f)
  );
  if (features && (foreign.length || missing.length)) {
    const paths = foreign.map((k) => `query.${k}`);
    // More than three missing are one issue naming them all.
    if (missing.length > 3) paths.push("query");
    else paths.push(...missing.map((k) => `query.${k}`));
    return { paths };
  }
  return {
    json: JSON.stringify({
      data: [{ view_type: "RESULTS" }],
      query: columns,
      targets: {},
    }),
    columns: Object.entries(columns),
  };
}

function assertSameAsLongWay(
  query: unknown,
  features?: readonly string[],
): void {
  const builder = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query,
    features,
  } as never);
  const expected = longWay(query, features);
  if ("json" in expected) {
    const body = builder.body();
    assertEquals(JSON.stringify(body), expected.json);
    // The same cells, not only the same JSON (NaN and undefined print as null).
    assertEquals(Object.entries(body.query), expected.columns);
    assertEquals(Object.getPrototypeOf(body.query), null);
  } else {
    const error = assertThrows(() => builder.body(), ValidationError);
    assertEquals(error.issues.map((i) => i.path), expected.paths);
  }
}

// Cells of every kind toViewsQuery meets: sent as they are, converted
// (NaN, "", undefined, Date, bigint) or refused (infinities, booleans,
// objects).
const cell = fc.oneof(
  { weight: 6, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 6, arbitrary: fc.string() },
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      NaN,
      Infinity,
      -Infinity,
      "",
      undefined,
      true,
      new Date(0),
      1n,
      { a: 1 },
      [1],
    ),
  },
);
const name = fc.oneof(
  { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("__proto__", "columns", "data", "constructor"),
  },
);
// The model's features: none known, the query's own names (in order or
// not), or those less one, or more.
const featuresFor = (names: string[]) =>
  fc.oneof(
    fc.constant(undefined),
    fc.constant(names),
    fc.shuffledSubarray(names, { minLength: names.length }),
    fc.shuffledSubarray(names),
    fc.constant<string[]>([...names, "other"]),
  );

// Own enumerable keys, `__proto__` included (a literal would set the
// prototype instead).
const record = (entries: [string, unknown][]): Record<string, unknown> =>
  Object.defineProperties(
    {},
    Object.fromEntries(
      entries.map(([k, v]) => [k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      }]),
    ),
  );

Deno.test("views plain query: a columns object is built as toViewsQuery builds it, or refused as the long way refuses it", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(name, { minLength: 0, maxLength: 4 }).chain((names) =>
        fc.tuple(
          fc.constant(names),
          fc.array(
            fc.oneof(
              { weight: 8, arbitrary: fc.array(cell, { maxLength: 3 }) },
              { weight: 1, arbitrary: fc.constant("x") },
            ),
            { minLength: names.length, maxLength: names.length },
          ),
          featuresFor(names),
        )
      ),
      ([names, columns, features]) => {
        assertSameAsLongWay(
          record(names.map((n, j) => [n, columns[j]])),
          features,
        );
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("views plain query: rows are built as toViewsQuery builds them, or refused as the long way refuses them", () => {
  const row = (names: string[]) =>
    fc.array(cell, { minLength: names.length, maxLength: names.length }).map(
      (cells) => record(names.map((n, j) => [n, cells[j]])),
    );
  fc.assert(
    fc.property(
      fc.uniqueArray(name, { minLength: 0, maxLength: 4 }).chain((names) =>
        fc.tuple(
          fc.array(
            fc.oneof(
              { weight: 8, arbitrary: row(names) },
              // A row with other keys, one missing, or not a row at all.
              { weight: 1, arbitrary: row([...names, "extra"]) },
              { weight: 1, arbitrary: row(names.slice(1)) },
              { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1, [1]) },
            ),
            { maxLength: 3 },
          ),
          featuresFor(names),
        )
      ),
      ([rows, features]) => assertSameAsLongWay(rows, features),
    ),
    { numRuns: 500 },
  );
});

Deno.test("views plain query: inherited keys, a key only inherited, and drop go the long way", () => {
  const inherited = Object.create({ extra: 1 });
  inherited.x = 1;
  assertSameAsLongWay([{ x: 2 }, inherited]);
  const onlyInherited = Object.create({ x: 1 });
  onlyInherited.y = 1;
  assertSameAsLongWay([{ x: 2, y: 3 }, onlyInherited]);
  // A split table and a columns object whose column is named "columns".
  assertSameAsLongWay({ columns: ["x"], data: [[1]], index: [0] });
  assertSameAsLongWay({ columns: [1], x: [2] });
  assertSameAsLongWay({ columns: ["a"], data: ["b"] });
  const dropped = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query: [{ x: 1, y: "a" }],
    drop: ["y"],
    features: ["x"],
  }).body();
  assertEquals(JSON.stringify(dropped.query), '{"x":[1]}');
  const error = assertThrows(
    () =>
      new ViewsBuilder(undefined, {
        deployment: "dm_1",
        query: [{ x: 1, y: "a" }],
        drop: ["z"],
      }).body(),
    ValidationError,
  );
  assert(error.message.includes("Invalid views request"));
  assertEquals(error.issues.map((i) => i.path), ["query"]);
});

Deno.test("views plain query: a column not among the features is named, whatever the columns' order", () => {
  for (const query of [{ b: [1], x: [2], a: [3] }, [{ b: 1, x: 2, a: 3 }]]) {
    const error = assertThrows(
      () =>
        new ViewsBuilder(undefined, {
          deployment: "dm_1",
          query,
          features: ["a", "b"],
        }).body(),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), ["query.x"]);
    assert(error.issues[0].message.includes('"x" is not a feature'));
  }
});

Deno.test("views plain query: the body's arrays are not the caller's rows or columns", () => {
  const column = [1, 2];
  const rows = [{ x: 1 }];
  const fromColumns = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query: { x: column },
  }).body();
  const fromRows = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query: rows,
  }).body();
  (fromColumns.query.x as number[])[0] = 9;
  (fromRows.query.x as number[])[0] = 9;
  assertEquals(column, [1, 2]);
  assertEquals(rows, [{ x: 1 }]);
});

Deno.test("views plain query: a __proto__ column is a key where assigning it would set the prototype", async () => {
  // Node (the npm build) sets the prototype on assigning that key.
  await withNodeProtoSetter(() => {
    for (const features of [undefined, ["__proto__", "x"]]) {
      assertSameAsLongWay(
        JSON.parse('{"__proto__": [[1]], "x": [2]}'),
        features,
      );
      assertSameAsLongWay(JSON.parse('[{"__proto__": 1, "x": 2}]'), features);
      assertSameAsLongWay(JSON.parse('{"__proto__": [1], "x": [2]}'), features);
    }
  });
});
