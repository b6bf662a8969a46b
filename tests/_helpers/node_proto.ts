/**
 * Node's `Object.prototype.__proto__` setter, for tests of code that must
 * keep a `__proto__` key a key: Deno has no such accessor, so assigning
 * that key makes an own property there, while in Node (the npm build) it
 * sets the prototype.
 *
 * @module
 */

/**
 * Runs `body` with Node's `__proto__` accessor on `Object.prototype`, and
 * restores Deno's (none) afterwards, whether `body` throws or not.
 *
 * @example
 * ```ts
 * import { withNodeProtoSetter } from "./node_proto.ts";
 * await withNodeProtoSetter(() => {
 *   const row: Record<string, unknown> = {};
 *   row["__proto__"] = { inherited: 1 };
 *   if (Object.hasOwn(row, "__proto__") || row.inherited !== 1) throw new Error();
 * });
 * ```
 */
export async function withNodeProtoSetter(
  body: () => void | Promise<void>,
): Promise<void> {
  const had = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
  Object.defineProperty(Object.prototype, "__proto__", {
    configurable: true,
    get() {
      return Object.getPrototypeOf(this);
    },
    set(value) {
      if (typeof value === "object") Object.setPrototypeOf(this, value);
    },
  });
  try {
    await body();
  } finally {
    if (had) Object.defineProperty(Object.prototype, "__proto__", had);
    else delete (Object.prototype as { __proto__?: unknown }).__proto__;
  }
}
