// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Checks a request body with its zod schema before anything is sent, and
 * turns zod's issues into the SDK's {@linkcode ValidationError}: one issue
 * per invalid field, named by its dotted wire path, plus the builder option
 * that sets it when the names differ.
 *
 * @module
 */
import type { z } from "zod";
import { ValidationError } from "../http/errors.ts";
import { type FieldIssue, issuePath } from "../schemas/errors.ts";

/**
 * Parses `input` with `schema` (applying its defaults) or throws a
 * {@linkcode ValidationError} that names every invalid field. `options` maps
 * wire names to the builder's option names, so the message says what to
 * change in the caller's code.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { validateBody } from "./validate.ts";
 * const Body = z.object({ maximum_concurrency: z.int().min(1, "must be at least 1") });
 * try {
 *   validateBody(Body, { maximum_concurrency: -2 }, "deployment configuration", {
 *     maximum_concurrency: "maximumConcurrency",
 *   });
 * } catch (e) {
 *   if (!String(e).includes('maximum_concurrency (option "maximumConcurrency"): must be at least 1')) throw e;
 * }
 * ```
 */
export function validateBody<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  options: Record<string, string> = {},
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalid(
    what,
    result.error.issues.map((issue) => {
      const path = issuePath(issue.path);
      const option = options[String(issue.path[0] ?? "")];
      const named = option && option !== path
        ? `${path} (option "${option}")`
        : path;
      return { path: named, message: issue.message };
    }),
  );
}

/**
 * A {@linkcode ValidationError} for a request refused before sending.
 *
 * @example
 * ```ts
 * import { invalid } from "./validate.ts";
 * const e = invalid("onboarding configuration", [{ path: "targets.0", message: "not in the schema" }]);
 * e.issues.length; // 1
 * ```
 */
export function invalid(what: string, issues: FieldIssue[]): ValidationError {
  return new ValidationError({
    message: `Invalid ${what}`,
    issues,
    hint: "Nothing was sent: fix the field(s) named above and try again",
  });
}

/**
 * The name among `candidates` that `name` most likely misspells: the same
 * letters in another case or with other underscores (`learningRate` for
 * `learning_rate`), else the one nearest by edit distance (a swap of two
 * neighbouring letters is one edit), at most 2 edits and a third of its
 * length away; `undefined` when none is that close, or two are equally
 * close.
 *
 * @param name The unknown name the caller gave.
 * @param candidates The names it could have meant.
 * @returns The suggestion, or undefined.
 *
 * @example
 * ```ts
 * import { nearestName } from "./validate.ts";
 * if (nearestName("max_roundz", ["max_rounds", "max_leaves"]) !== "max_rounds") throw new Error();
 * if (nearestName("learningRate", ["learning_rate"]) !== "learning_rate") throw new Error();
 * if (nearestName("chrun", ["churn", "tenure"]) !== "churn") throw new Error("a swap is one edit");
 * if (nearestName("colour", ["name", "bucket"]) !== undefined) throw new Error();
 * ```
 */
export function nearestName(
  name: string,
  candidates: readonly string[],
): string | undefined {
  const plain = (s: string) => s.toLowerCase().replaceAll("_", "");
  const given = plain(name);
  const same = candidates.filter((c) => plain(c) === given);
  if (same.length > 0) return same[0];
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(given.length / 3)) + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(given, plain(c));
    if (d < bestDistance) [best, bestDistance, tie] = [c, d, false];
    else if (d === bestDistance && best !== undefined) tie = true;
  }
  return tie ? undefined : best;
}

/**
 * Edit distance counting inserts, deletes, substitutions and swaps of two
 * neighbouring letters ("chrun" for "churn" is one edit), each once.
 */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j] + 1,
        next[j - 1] + 1,
        row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        next[j] = Math.min(next[j], before[j - 2] + 1);
      }
    }
    [before, row] = [row, next];
  }
  return row[b.length];
}

/**
 * The issue of an argument that should name a resource (its id, or an
 * object with its `id`), or of a required text argument (`text`): undefined
 * when it does. The one-call steps (`ingest`, `onboard`, `train`, `deploy`)
 * check their arguments with it before anything is made, so `deploy(undefined)`
 * is a ValidationError naming `model`, not a TypeError about `name`.
 *
 * @example
 * ```ts
 * import { argumentIssue } from "./validate.ts";
 * if (argumentIssue("model", "m_1") || argumentIssue("model", { id: "m_1" })) throw new Error("accepted");
 * if (argumentIssue("model", undefined)?.path !== "model") throw new Error("refused");
 * if (!argumentIssue("path", "", "text")) throw new Error("an empty path");
 * ```
 */
export function argumentIssue(
  name: string,
  value: unknown,
  kind: "resource" | "text" = "resource",
): FieldIssue | undefined {
  if (typeof value === "string" && value.trim() !== "") return undefined;
  if (
    kind === "resource" && typeof value === "object" && value !== null &&
    typeof (value as { id?: unknown }).id === "string" &&
    (value as { id: string }).id.trim() !== ""
  ) return undefined;
  const got = value === null || value === undefined
    ? String(value)
    : typeof value === "string"
    ? JSON.stringify(value)
    : typeof value === "object"
    ? "an object without an id"
    : `a ${typeof value}`;
  return {
    path: name,
    message: kind === "text"
      ? `expected a non-empty string, got ${got}`
      : `expected the ${name} (the object the SDK returned) or its id, got ${got}`,
  };
}
