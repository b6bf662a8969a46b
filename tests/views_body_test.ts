/**
 * The views builder's body skips zod's parse when the query was built (and
 * checked) by `toViewsQuery` and the explained classes are plainly valid.
 * These tests hold that shortcut to zod: for any query and targets, the
 * body is the one `ViewsRequestSchema` returns (same keys, values and
 * null-prototype records), and what zod refuses is still refused with the
 * same field named.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import {
  type QueryRows,
  ViewsBuilder,
  type ViewsOptions,
} from "../src/builders/views.ts";
import { ViewsRequestSchema } from "../src/schemas/views.ts";
import { ValidationError } from "../src/http/errors.ts";
import { MLPlatform } from "../src/platform.ts";
import { withNodeProtoSetter } from "./_helpers/node_proto.ts";

/** What zod makes of the builder's raw body. */
const zodBody = (builder: ViewsBuilder) =>
  ViewsRequestSchema.parse({
    data: [{ view_type: "RESULTS" }],
    ...builder.toJSON(),
  });

const cell = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
// Names include the ones an object literal would mistake for members.
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 6 }),
  fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty"),
);

Deno.test("views body: the shortcut returns what zod returns, for any query and valid targets", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(name, { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 4 }),
      fc.array(
        fc.tuple(name, fc.oneof(cell, fc.array(cell, { maxLength: 4 }))),
        { maxLength: 3 },
      ),
      fc.context(),
      (names, rows, targetList, ctx) => {
        const query: Record<string, unknown[]> = {};
        for (const n of names) {
          Object.defineProperty(query, n, {
            value: Array.from({ length: rows }, (_, i) => i),
            enumerable: true,
          });
        }
        const targets: Record<string, unknown> = {};
        for (const [k, v] of targetList) {
          Object.defineProperty(targets, k, {
            value: v,
            enumerable: true,
            configurable: true,
          });
        }
        const builder = new ViewsBuilder(undefined, {
          deployment: "dm_1",
          query,
          targets: targetList.length ? targets : undefined,
        } as never);
        const fast = builder.body();
        const slow = zodBody(builder);
        ctx.log(JSON.stringify([fast, slow]));
        assertEquals(JSON.stringify(fast), JSON.stringify(slow));
        assertEquals(Object.keys(fast.query), Object.keys(slow.query));
        assertEquals(Object.keys(fast.targets), Object.keys(slow.targets));
        assertEquals(Object.getPrototypeOf(fast.query), null);
        assertEquals(Object.getPrototypeOf(fast.targets), null);
      },
    ),
  );
});

Deno.test("views body: explained classes zod refuses are refused, naming the field", () => {
  const bad: unknown[] = [
    true,
    Infinity,
    NaN,
    { a: 1 },
    [1, true],
    [[1]],
    undefined,
  ];
  for (const value of bad) {
    const builder = new ViewsBuilder(undefined, {
      deployment: "dm_1",
      query: { x: [1, 2] },
      targets: { y: value },
    } as never);
    // zod is the judge: the builder refuses exactly what it refuses.
    const zod = ViewsRequestSchema.safeParse({
      query: { x: [1, 2] },
      targets: { y: value },
    });
    if (zod.success) {
      assertEquals(
        JSON.stringify(builder.body()),
        JSON.stringify(zod.data),
        String(value),
      );
      continue;
    }
    const error = assertThrows(() => builder.body(), ValidationError);
    assert(
      error.issues.some((i) => i.path.startsWith("targets.y")),
      `${String(value)}: ${JSON.stringify(error.issues)}`,
    );
  }
  for (const targets of [null, [1], "y"]) {
    const error = assertThrows(
      () =>
        new ViewsBuilder(undefined, {
          deployment: "dm_1",
          query: { x: [1] },
          targets,
        } as never).body(),
      ValidationError,
    );
    assert(error.issues.some((i) => i.path.startsWith("targets")));
  }
});

Deno.test("views body: the body's arrays are not the caller's", () => {
  const perRow = ["a", "b"];
  const column = [1, 2];
  const body = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query: { x: column },
    targets: { y: perRow },
  }).body();
  assert(body.targets.y !== perRow);
  assert(body.query.x !== column);
  (body.targets.y as string[])[0] = "changed";
  assertEquals(perRow, ["a", "b"]);
});

Deno.test("views body: what is sent is body()'s JSON, __proto__ keys included", async () => {
  const sent: string[] = [];
  const ml = new MLPlatform({
    baseUrl: "https://mlp.invalid",
    clientId: "id",
    clientSecret: "s",
    progress: false,
    fetch: async (input) => {
      const request = input as Request;
      if (new URL(request.url).pathname === "/oauth/token") {
        return Response.json({
          access_token: "t",
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      sent.push(await request.text());
      return Response.json({ columns: ["p"], index: [0], data: [["a"]] });
    },
  });
  // JSON text: a literal would set the prototype instead of a key.
  const rows = JSON.parse('[{"__proto__": 1, "x": "a"}]');
  const targets = JSON.parse('{"__proto__": "c", "y": ["b"]}');
  await withNodeProtoSetter(() => sendBoth(rows, targets));
  assertEquals(
    sent.at(-1),
    '{"data":[{"view_type":"RESULTS"}],"query":{"__proto__":[1],"x":["a"]},"targets":{"__proto__":"c","y":["b"]}}',
  );

  async function sendBoth(
    rows: QueryRows<string>,
    targets: ViewsOptions["targets"],
  ) {
    for (const t of [undefined, targets]) {
      const builder = new ViewsBuilder(ml, {
        deployment: "dm_1",
        query: rows,
        targets: t,
      });
      await builder;
      assertEquals(sent.at(-1), JSON.stringify(builder.body()));
    }
  }
});
