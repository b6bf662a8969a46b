/**
 * A cheap check of the service's answers, compiled once per response schema
 * from the zod schema itself (still the one source of truth).
 *
 * Parsing an answer with zod copies every object and array of it; for the
 * small answers of most calls that copy costs more than the rest of the
 * client's work. The compiled check walks the parsed JSON without copying
 * and says `true` only when zod would accept the value and return an equal
 * one: then the value is used as it is. Anything else (a failure, a default
 * to fill in, a key zod would strip, a schema kind the compiler does not
 * know) answers `false`, and the caller parses with zod as before, which
 * applies defaults and writes the error message. So the guarantee is zod's,
 * and the fast path only skips the copy.
 *
 * Refinements (`superRefine`, `min`, `int`, ...) run as zod runs them: the
 * schema's own check functions on the value.
 *
 * @module
 */
import { z } from "zod";

/** Says whether zod would accept `value` and return a value equal to it. */
export type ResponseCheck = (value: unknown) => boolean;

// zod 4's internals this module reads (`schema._zod`): the definition and
// the checks that `runChecks` runs.
interface ZodCheckInternals {
  def: { check?: string; when?: (payload: Payload) => boolean };
  check(payload: Payload): unknown;
}
interface ZodInternals {
  def: Record<string, unknown> & {
    type: string;
    checks?: { _zod: ZodCheckInternals }[];
  };
  traits: Set<string>;
  check?: (payload: Payload) => unknown;
}
interface Payload {
  value: unknown;
  issues: unknown[];
}

class Unsupported extends Error {}

const compiled = new WeakMap<object, ResponseCheck | null>();

/**
 * The compiled check of `schema` (built at the first call, then cached), or
 * `undefined` when the schema uses something the compiler does not handle
 * (the caller then always parses with zod).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { responseCheck } from "./response_check.ts";
 * const schema = z.looseObject({ id: z.string(), size: z.int().min(0), tag: z.string().nullish() });
 * const check = responseCheck(schema)!;
 * check({ id: "a", size: 3, extra: true }); // true: zod would return an equal value
 * check({ id: "a", size: 1.5 }); // false: not an integer
 * check({ size: 3 }); // false: id is missing
 * ```
 */
export function responseCheck(schema: z.ZodType): ResponseCheck | undefined {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = compile(schema).check;
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      check = null;
    }
    compiled.set(schema, check);
  }
  return check ?? undefined;
}

/** A compiled node: its check, and whether `false` always means zod fails too. */
interface Node {
  check: ResponseCheck;
  /** No false negatives: `false` only where zod fails (no defaults inside). */
  exact: boolean;
}

function internals(schema: unknown): ZodInternals {
  const z = (schema as { _zod?: ZodInternals })?._zod;
  if (!z?.def?.type) throw new Unsupported();
  return z;
}

function compile(schema: unknown): Node {
  const z = internals(schema);
  const node = compileType(z);
  const checks = (z.def.checks ?? []).map((c) => c._zod);
  // String formats and number formats (z.int()) are checks themselves.
  if (z.traits.has("$ZodCheck")) checks.unshift(z as ZodCheckInternals);
  if (checks.length === 0) return node;
  if (checks.length === 1 && isNonEmpty(checks[0], z.def.type)) {
    // `min(1)` on a string or an array (every id): non-empty, whether zod
    // counts units or code points, without a payload and zod's code.
    const base = node.check;
    return {
      exact: node.exact && checks[0].def.when === DEFAULT_WHEN,
      check: (value) => base(value) && (value as { length: number }).length > 0,
    };
  }
  for (const c of checks) {
    // An overwrite (trim, toLowerCase, ...) changes the value: zod's output
    // would differ from the input.
    if (c.def.check === "overwrite" || typeof c.check !== "function") {
      throw new Unsupported();
    }
  }
  const base = node.check;
  return {
    exact: node.exact,
    check: (value) => base(value) && passes(checks, value),
  };
}

/** The `when` zod gives a length check by default (it has a length). */
const DEFAULT_WHEN = (z.string().min(1) as unknown as {
  _zod: { def: { checks: { _zod: ZodCheckInternals }[] } };
})._zod.def.checks[0]._zod.def.when;

/** A `min(1)` length check on a string or an array schema. */
function isNonEmpty(check: ZodCheckInternals, type: string): boolean {
  const def = check.def as { check?: string; minimum?: unknown };
  return (type === "string" || type === "array") &&
    def.check === "min_length" && def.minimum === 1;
}

// What zod's runChecks does, minus the issue messages.
function passes(checks: ZodCheckInternals[], value: unknown): boolean {
  const payload: Payload = { value, issues: [] };
  for (const c of checks) {
    if (c.def.when && !c.def.when(payload)) continue;
    const result = c.check(payload);
    if (result instanceof Promise) return false; // async refinements: leave to zod
    if (payload.issues.length > 0 || payload.value !== value) return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function compileType(z: ZodInternals): Node {
  const def = z.def;
  if (def.coerce) throw new Unsupported();
  switch (def.type) {
    case "string":
      return { exact: true, check: (v) => typeof v === "string" };
    case "number":
      return {
        exact: true,
        check: (v) => typeof v === "number" && Number.isFinite(v),
      };
    case "boolean":
      return { exact: true, check: (v) => typeof v === "boolean" };
    case "null":
      return { exact: true, check: (v) => v === null };
    case "undefined":
      return { exact: true, check: (v) => v === undefined };
    case "unknown":
    case "any":
      return { exact: true, check: () => true };
    case "literal": {
      const values = def.values as unknown[];
      return { exact: true, check: (v) => values.includes(v) };
    }
    case "enum": {
      const values = new Set(Object.values(def.entries as object));
      return { exact: true, check: (v) => values.has(v) };
    }
    case "optional": {
      const inner = compile(def.innerType);
      return {
        exact: inner.exact,
        check: (v) => v === undefined || inner.check(v),
      };
    }
    case "nullable": {
      const inner = compile(def.innerType);
      return { exact: inner.exact, check: (v) => v === null || inner.check(v) };
    }
    case "default": {
      // A missing value gets the default: zod's output differs, let zod do it.
      const inner = compile(def.innerType);
      return { exact: false, check: (v) => v !== undefined && inner.check(v) };
    }
    case "array": {
      const element = compile(def.element);
      const check = element.check;
      return {
        exact: element.exact,
        check: (v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!check(v[i])) return false;
          return true;
        },
      };
    }
    case "object":
      return compileObject(def);
    case "union": {
      const options = (def.options as unknown[]).map(compile);
      // zod returns the first option that succeeds; with a default inside an
      // option its output could differ from the input.
      if (!options.every((o) => o.exact)) throw new Unsupported();
      const checks = options.map((o) => o.check);
      return { exact: true, check: (v) => checks.some((c) => c(v)) };
    }
    case "record": {
      const key = internals(def.keyType);
      if (key.def.type !== "string" || key.def.checks?.length) {
        throw new Unsupported();
      }
      const value = compile(def.valueType);
      const check = value.check;
      return {
        exact: value.exact,
        check: (v) => {
          if (!isPlainObject(v)) return false;
          for (const k of Object.keys(v)) if (!check(v[k])) return false;
          return true;
        },
      };
    }
    default:
      throw new Unsupported();
  }
}

function compileObject(def: Record<string, unknown>): Node {
  const shape = def.shape as Record<string, unknown>;
  const keys = Object.keys(shape);
  const fields = keys.map((k) => compile(shape[k]));
  const checks = fields.map((f) => f.check);
  const known = new Set(keys);
  // looseObject: a catch-all of unknown (extra keys kept as they are);
  // object: none (extra keys stripped, so an answer with extras differs).
  const catchall = def.catchall === undefined
    ? undefined
    : compile(def.catchall);
  const rest = catchall?.check;
  const keepsAnything = catchall !== undefined &&
    internals(def.catchall).def.type === "unknown";
  return {
    exact: fields.every((f) => f.exact) && (catchall?.exact ?? true),
    check: (v) => {
      if (!isPlainObject(v)) return false;
      for (let i = 0; i < keys.length; i++) {
        if (!checks[i](v[keys[i]])) return false;
      }
      if (keepsAnything) return true;
      for (const k of Object.keys(v)) {
        if (known.has(k)) continue;
        if (!rest || !rest(v[k])) return false;
      }
      return true;
    },
  };
}
