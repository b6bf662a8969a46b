// Tests of the offline `@std/assert` fallback itself: it is imported by path
// (not as "@std/assert") so these run against the fallback even when JSR is
// reachable. Every failing case checks that an AssertionError really throws.
import * as A from "./_std_assert/mod.ts";

const { AssertionError } = A;

// Local helpers that do not rely on the module under test.
function throwsAssertion(fn: () => unknown, includes?: string): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof AssertionError)) {
      throw new Error(`expected an AssertionError, got ${error}`);
    }
    if (includes && !error.message.includes(includes)) {
      throw new Error(
        `message ${JSON.stringify(error.message)} lacks ${includes}`,
      );
    }
    return;
  }
  throw new Error("expected the assertion to throw, but it passed");
}

async function rejectsAssertion(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AssertionError) return;
    throw new Error(`expected an AssertionError, got ${error}`);
  }
  throw new Error("expected the assertion to reject, but it resolved");
}

function ok(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected: ${what}`);
}

Deno.test("exports every name of @std/assert@1 used by the project", () => {
  const names = [
    "assert",
    "assertEquals",
    "assertNotEquals",
    "assertStrictEquals",
    "assertNotStrictEquals",
    "assertExists",
    "assertFalse",
    "assertInstanceOf",
    "assertNotInstanceOf",
    "assertMatch",
    "assertNotMatch",
    "assertStringIncludes",
    "assertArrayIncludes",
    "assertObjectMatch",
    "assertAlmostEquals",
    "assertGreater",
    "assertGreaterOrEqual",
    "assertLess",
    "assertLessOrEqual",
    "assertThrows",
    "assertRejects",
    "assertIsError",
    "fail",
    "unreachable",
    "equal",
    "AssertionError",
  ];
  const missing = names.filter((name) =>
    typeof (A as Record<string, unknown>)[name] !== "function"
  );
  ok(missing.length === 0, `no missing exports, missing: ${missing}`);
});

Deno.test("AssertionError is a named Error", () => {
  const error = new AssertionError("x");
  ok(error instanceof Error && error.name === "AssertionError", "named Error");
});

Deno.test("equal: primitives are type-strict, NaN equals NaN, 0 equals -0", () => {
  ok(A.equal(NaN, NaN), "NaN == NaN");
  ok(A.equal(0, -0), "0 == -0");
  ok(!A.equal(1, "1"), "1 != '1'");
  ok(!A.equal(null, undefined), "null != undefined");
  ok(!A.equal(0, false), "0 != false");
  ok(!A.equal(1n, 1), "1n != 1");
  ok(A.equal("a", "a"), "same strings");
});

Deno.test("equal: objects and arrays compare deeply by own keys", () => {
  ok(A.equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), "nested equal");
  ok(!A.equal({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }), "nested differ");
  ok(!A.equal({ a: undefined }, {}), "undefined key != missing key");
  ok(!A.equal({}, { a: undefined }), "missing key != undefined key");
  ok(!A.equal([1, 2], [1, 2, 3]), "lengths differ");
  ok(!A.equal([1, 2], { 0: 1, 1: 2 }), "array != object");
  const sym = Symbol("s");
  ok(!A.equal({ [sym]: 1 }, { [sym]: 2 }), "symbol keys compared");
  ok(A.equal(Object.create(null), {}), "null prototype == plain object");
});

Deno.test("equal: class instances need the same constructor", () => {
  class P {
    constructor(public x: number) {}
  }
  class Q {
    constructor(public x: number) {}
  }
  ok(A.equal(new P(1), new P(1)), "same class, same fields");
  ok(!A.equal(new P(1), new Q(1)), "different classes");
  ok(!A.equal(new P(1), { x: 1 }), "instance != plain object");
});

Deno.test("equal: Date, RegExp, URL, Map, Set, typed arrays, buffers", () => {
  ok(A.equal(new Date(5), new Date(5)), "same dates");
  ok(!A.equal(new Date(5), new Date(6)), "different dates");
  ok(A.equal(new Date(NaN), new Date(NaN)), "invalid dates equal");
  ok(A.equal(/a/g, /a/g) && !A.equal(/a/g, /a/i), "regexp by text");
  ok(A.equal(new URL("http://x/a"), new URL("http://x/a")), "same URL");
  ok(!A.equal(new URL("http://x/a"), new URL("http://x/b")), "different URL");
  ok(A.equal(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]])), "maps");
  ok(
    !A.equal(new Map([[1, { a: 1 }]]), new Map([[1, { a: 2 }]])),
    "map values",
  );
  ok(A.equal(new Set([1, 2]), new Set([2, 1])), "sets, any order");
  ok(!A.equal(new Set([1, 2]), new Set([1, 3])), "sets differ");
  ok(A.equal(new Set([{ a: 1 }]), new Set([{ a: 1 }])), "object members");
  ok(
    A.equal(new Map([[{ k: 1 }, "v"]]), new Map([[{ k: 1 }, "v"]])),
    "object keys compared deeply",
  );
  ok(!A.equal(new Map([[1, 1]]), new Set([1])), "map != set");
  ok(A.equal(new Float64Array([1, 2]), new Float64Array([1, 2])), "typed");
  ok(!A.equal(new Float64Array([1, 2]), new Float64Array([1, 3])), "typed");
  ok(!A.equal(new Float64Array([1]), new Float32Array([1])), "typed kinds");
  ok(
    !A.equal(new Uint8Array([1]).buffer, new Uint8Array([2]).buffer),
    "ArrayBuffer bytes",
  );
});

Deno.test("equal: boxed primitives and errors compare their values", () => {
  ok(!A.equal(new Number(1), new Number(2)), "boxed numbers");
  ok(!A.equal(new Error("a"), new Error("b")), "error messages");
  ok(!A.equal(new TypeError("a"), new RangeError("a")), "error classes");
});

Deno.test("equal: cycles terminate", () => {
  const a: Record<string, unknown> = { n: 1 };
  a.self = a;
  const b: Record<string, unknown> = { n: 1 };
  b.self = b;
  ok(A.equal(a, b), "equal cycles");
  const c: Record<string, unknown> = { n: 2 };
  c.self = c;
  ok(!A.equal(a, c), "different cycles");
});

Deno.test("equal: WeakMap cannot be compared", () => {
  let threw = false;
  try {
    A.equal(new WeakMap(), new WeakMap());
  } catch (error) {
    threw = error instanceof TypeError;
  }
  ok(threw, "TypeError for WeakMap");
});

Deno.test("assert and assertFalse", () => {
  A.assert(1);
  A.assertFalse("");
  throwsAssertion(() => A.assert(0, "zero"), "zero");
  throwsAssertion(() => A.assertFalse("x"));
});

Deno.test("assertEquals passes on deep equality and fails with a diff", () => {
  A.assertEquals({ a: [1, 2] }, { a: [1, 2] });
  throwsAssertion(
    () => A.assertEquals({ a: 1 }, { a: 2 }),
    "Values are not equal",
  );
  throwsAssertion(() => A.assertEquals({ a: 1 }, { a: 2 }), "+   { a: 2 }");
  throwsAssertion(() => A.assertEquals<unknown>(1, "1"));
  throwsAssertion(() => A.assertEquals([1], [1, 2], "custom"), "custom");
  class P {
    x = 1;
  }
  throwsAssertion(
    () => A.assertEquals<unknown>(new P(), { x: 1 }),
    "-   P { x: 1 }",
  );
});

Deno.test("assertNotEquals", () => {
  A.assertNotEquals({ a: 1 }, { a: 2 });
  throwsAssertion(() => A.assertNotEquals({ a: 1 }, { a: 1 }));
});

Deno.test("assertStrictEquals and assertNotStrictEquals use identity", () => {
  const x = { a: 1 };
  A.assertStrictEquals(x, x);
  A.assertStrictEquals(NaN, NaN);
  throwsAssertion(
    () => A.assertStrictEquals({ a: 1 }, { a: 1 }),
    "same reference",
  );
  throwsAssertion(() => A.assertStrictEquals(0, -0));
  A.assertNotStrictEquals({ a: 1 }, { a: 1 });
  throwsAssertion(() => A.assertNotStrictEquals(x, x));
});

Deno.test("assertExists rejects only null and undefined", () => {
  A.assertExists(0);
  A.assertExists("");
  throwsAssertion(() => A.assertExists(null));
  throwsAssertion(() => A.assertExists(undefined, "gone"), "gone");
});

Deno.test("assertInstanceOf and assertNotInstanceOf", () => {
  A.assertInstanceOf(new Date(), Date);
  throwsAssertion(() => A.assertInstanceOf({}, Date), 'but was "Object"');
  throwsAssertion(() => A.assertInstanceOf(null, Date), 'but was "null"');
  A.assertNotInstanceOf(new Date(), RegExp);
  throwsAssertion(() => A.assertNotInstanceOf(new Date(), Date));
});

Deno.test("assertMatch, assertNotMatch, assertStringIncludes", () => {
  A.assertMatch("abc", /b/);
  throwsAssertion(() => A.assertMatch("abc", /d/));
  const global = /b/g;
  A.assertMatch("abc", global);
  A.assertMatch("abc", global); // lastIndex must not leak between calls
  A.assertNotMatch("abc", /d/);
  throwsAssertion(() => A.assertNotMatch("abc", /b/));
  A.assertStringIncludes("hello world", "lo w");
  throwsAssertion(() => A.assertStringIncludes("hello", "bye"), "to contain");
});

Deno.test("assertArrayIncludes compares members deeply", () => {
  A.assertArrayIncludes([1, { a: 2 }, "x"], [{ a: 2 }, 1]);
  A.assertArrayIncludes(new Uint8Array([1, 2, 3]), new Uint8Array([3]));
  throwsAssertion(() => A.assertArrayIncludes([1, 2], [3]), "missing");
  throwsAssertion(() =>
    A.assertArrayIncludes<unknown>([{ a: 1 }], [{ a: "1" }])
  );
});

Deno.test("assertObjectMatch checks a deep subset", () => {
  A.assertObjectMatch({ a: 1, b: { c: 2, d: 3 }, e: [1, { f: 1, g: 2 }] }, {
    b: { c: 2 },
    e: [1, { f: 1 }],
  });
  throwsAssertion(() => A.assertObjectMatch({ a: 1 }, { a: 2 }));
  throwsAssertion(() => A.assertObjectMatch({ a: 1 }, { b: 1 }));
  throwsAssertion(() => A.assertObjectMatch({ b: { c: 2 } }, { b: { c: 3 } }));
  throwsAssertion(() => A.assertObjectMatch({ e: [1] }, { e: [1, 2] }));
  A.assertObjectMatch({ m: new Map([["k", 1], ["j", 2]]) }, {
    m: new Map([["k", 1]]),
  });
  A.assertObjectMatch({ r: /x/g }, { r: /x/g });
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  A.assertObjectMatch(cyclic, { a: 1 });
});

Deno.test("assertAlmostEquals uses std's default relative tolerance 1e-7", () => {
  A.assertAlmostEquals(0.1 + 0.2, 0.3);
  A.assertAlmostEquals(1.000000001e-8, 1.000000002e-8);
  A.assertAlmostEquals(100, 100 + 1e-6); // within 100 * 1e-7 = 1e-5
  throwsAssertion(() => A.assertAlmostEquals(100, 100.001)); // 1e-3 > 1e-5
  throwsAssertion(() => A.assertAlmostEquals(0.01, 0.02));
  throwsAssertion(() => A.assertAlmostEquals(1e-8, 1e-9));
  A.assertAlmostEquals(0.01, 0.02, 0.1);
  throwsAssertion(() => A.assertAlmostEquals(0.1 + 0.2, 0.3, 1e-17));
  A.assertAlmostEquals(Infinity, Infinity);
  A.assertAlmostEquals(NaN, NaN);
  throwsAssertion(() => A.assertAlmostEquals(NaN, 1));
  throwsAssertion(() => A.assertAlmostEquals(1, 1.5, 0.1, "close"), "close");
});

Deno.test("ordering assertions", () => {
  A.assertGreater(2, 1);
  throwsAssertion(() => A.assertGreater(1, 1));
  A.assertGreaterOrEqual(1, 1);
  throwsAssertion(() => A.assertGreaterOrEqual(0, 1));
  A.assertLess(1, 2);
  throwsAssertion(() => A.assertLess(2, 2));
  A.assertLessOrEqual(2, 2);
  throwsAssertion(() => A.assertLessOrEqual(3, 2), "Expect 3 <= 2");
  A.assertGreater("b", "a");
});

Deno.test("assertThrows: both overloads return the thrown value", () => {
  const thrown = A.assertThrows(() => {
    throw "plain";
  });
  ok(thrown === "plain", "returns a non-Error throw");
  const error = A.assertThrows(
    () => {
      throw new RangeError("out of range");
    },
    RangeError,
    "of ran",
  );
  ok(error.message === "out of range", "returns the typed error");
  A.assertThrows(() => {
    throw new RangeError("x");
  }, Error); // subclass matches base class
  throwsAssertion(() => A.assertThrows(() => {}), "Expected function to throw");
  throwsAssertion(() => A.assertThrows(() => {}, "why"), "why");
  throwsAssertion(() =>
    A.assertThrows(() => {
      throw new TypeError("x");
    }, RangeError), 'instance of "RangeError"');
  throwsAssertion(() =>
    A.assertThrows(
      () => {
        throw new TypeError("abc");
      },
      TypeError,
      "xyz",
    ), 'include "xyz"');
  throwsAssertion(() =>
    A.assertThrows(() => {
      throw "not an error";
    }, Error), "non-Error");
});

Deno.test("assertRejects: both overloads resolve to the rejection", async () => {
  const reason = await A.assertRejects(() => Promise.reject(42));
  ok(reason === 42, "returns a non-Error rejection");
  const error = await A.assertRejects(
    async () => {
      await Promise.resolve();
      throw new TypeError("bad input");
    },
    TypeError,
    "bad",
  );
  ok(error.message === "bad input", "returns the typed error");
  await rejectsAssertion(() => A.assertRejects(() => Promise.resolve(1)));
  await rejectsAssertion(() =>
    A.assertRejects(() => Promise.reject(new TypeError("x")), RangeError)
  );
  await rejectsAssertion(() =>
    A.assertRejects(() => Promise.reject(new TypeError("abc")), TypeError, "z")
  );
  await rejectsAssertion(() =>
    A.assertRejects(() => Promise.reject("str"), Error)
  );
  await rejectsAssertion(() =>
    A.assertRejects(
      (() => {
        throw new Error("sync");
      }) as () => Promise<unknown>,
    )
  );
});

Deno.test("assertIsError checks class and message", () => {
  A.assertIsError(new RangeError("Out of range"), RangeError, "Out");
  A.assertIsError(new RangeError("Out of range"), Error, /of r/);
  throwsAssertion(() => A.assertIsError("nope"), "Error object");
  throwsAssertion(() => A.assertIsError(new RangeError("x"), SyntaxError));
  throwsAssertion(() => A.assertIsError(new Error("x"), Error, /y/));
  A.assertIsError(new Error("\u001b[31mred\u001b[0m text"), Error, "red text");
});

Deno.test("fail and unreachable always throw", () => {
  throwsAssertion(() => A.fail("boom"), "Failed assertion: boom");
  throwsAssertion(() => A.unreachable(), "Unreachable");
});
