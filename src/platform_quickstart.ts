/**
 * Quickstart's check of its training options against the schema it
 * inferred, before it creates anything: the training job would refuse the
 * same options only after the storage connector, schema, ingestion and
 * onboarding had run and stored their resources.
 *
 * @module
 */

import { constraintIssues } from "./builders/training.ts";
import { argumentIssue, invalid } from "./builders/validate.ts";
import type {
  ConstraintOptions,
  QuickstartOptions,
} from "./platform_options.ts";

/**
 * Refuses (a `ValidationError` naming `training.<option>`) training options
 * of quickstart that cannot work on the inferred schema: a constraint or
 * group naming a column that is not one of its features, a monotone
 * constraint on a target inference saw three or more classes in (`classes`,
 * see `inferredClasses`); `hyperparameters` checks the rest (the training
 * configuration's body).
 *
 * @example
 * ```ts
 * import { checkQuickstartTraining } from "./platform_quickstart.ts";
 *
 * const fields = [
 *   { name: "x", designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ];
 * checkQuickstartTraining({ monotone: { x: "increasing" } }, fields, () => {}, 2);
 * let paths: string[] = [];
 * try {
 *   checkQuickstartTraining({ monotone: { x: "increasing" } }, fields, () => {}, 3);
 * } catch (e) {
 *   paths = (e as { issues: { path: string }[] }).issues.map((i) => i.path);
 * }
 * if (paths.join() !== "training.monotone.x") throw new Error("example failed");
 * ```
 */
export function checkQuickstartTraining(
  training: QuickstartOptions<string>["training"] | undefined,
  fields: readonly {
    name: string;
    designation: string;
    semantic_type: string;
  }[],
  hyperparameters: (h: Record<string, unknown>) => void,
  classes?: number,
): void {
  if (!training) return;
  const {
    monotone,
    exclude,
    interactions,
    measureConstraintCost,
    ...rest
  } = training as Record<string, unknown> & ConstraintOptions;
  // The shapes first (a direction, a feature named twice, a group of one):
  // the training job would refuse them only after ingestion and onboarding.
  const issues = constraintIssues(
    { monotone, exclude, interactions, measureConstraintCost },
    "training.",
  );
  if (issues.length) throw invalid("quickstart training options", issues);
  const byName = new Map(
    fields.filter((f) => f.designation === "FEATURE").map((f) => [f.name, f]),
  );
  const features = new Set(byName.keys());
  const check = (name: unknown, path: string) => {
    if (typeof name === "string" && features.has(name)) return;
    issues.push({
      path: `training.${path}`,
      message: `${
        JSON.stringify(name)
      } is not a feature of the inferred schema (features: ${
        [...features].join(", ")
      })`,
    });
  };
  const target = fields.find((f) => f.designation === "TARGET")?.name;
  for (const name of Object.keys(monotone ?? {})) {
    check(name, `monotone.${name}`);
    if (classes !== undefined && classes > 2) {
      issues.push({
        path: `training.monotone.${name}`,
        message: `monotone constraints need a binary or regression target; "${
          target ?? "the target"
        }" has three or more classes in the data (leave monotone out, or predict one class against the rest)`,
      });
    }
    const type = byName.get(name)?.semantic_type;
    if (type && type !== "CONTINUOUS") {
      issues.push({
        path: `training.monotone.${name}`,
        message:
          `"${name}" is ${type} in the inferred schema: only a numeric (CONTINUOUS) feature can be monotone`,
      });
    }
  }
  (exclude ?? []).forEach((name, i) => check(name, `exclude.${i}`));
  (interactions ?? []).forEach((group, i) =>
    group.forEach((name, j) => check(name, `interactions.${i}.${j}`))
  );
  if (features.size && [...features].every((f) => exclude?.includes(f))) {
    issues.push({
      path: "training.exclude",
      message: "leaves no feature to train on; keep at least one",
    });
  }
  if (issues.length) throw invalid("quickstart training options", issues);
  hyperparameters(rest);
}

/**
 * Refuses quickstart options of the wrong shape before anything is read or
 * sent, naming each field: not an object (a path given first, as
 * `quickstart("data.csv", {...})`), or a `path`, `target`, `bucket` or
 * `name` that is not a non-empty string. Without it a missing path was a
 * TypeError about `split` of undefined.
 *
 * @example
 * ```ts
 * import { checkQuickstartOptions } from "./platform_quickstart.ts";
 * import { ValidationError } from "./http/errors.ts";
 * checkQuickstartOptions({ bucket: "b", path: "t.csv", target: "y" });
 * try {
 *   checkQuickstartOptions({ bucket: "b", target: "y" });
 *   throw new Error("accepted");
 * } catch (e) {
 *   if (!(e instanceof ValidationError) || e.issues[0].path !== "path") throw e;
 * }
 * ```
 */
export function checkQuickstartOptions(options: unknown): void {
  if (
    typeof options !== "object" || options === null || Array.isArray(options)
  ) {
    throw invalid("quickstart options", [{
      path: "options",
      message:
        `expected one object such as { bucket: "demo", path: "data.csv", target: "y" }, got ${
          typeof options === "string" ? JSON.stringify(options) : typeof options
        }`,
    }]);
  }
  const o = options as Record<string, unknown>;
  const issues = ["path", "target", "bucket", "name"].flatMap((key) => {
    // bucket and name are optional; a given one is text like path's.
    if (o[key] === undefined && (key === "bucket" || key === "name")) return [];
    return argumentIssue(key, o[key], "text") ?? [];
  });
  if (issues.length) throw invalid("quickstart options", issues);
}
