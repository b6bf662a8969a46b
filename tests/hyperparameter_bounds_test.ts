/**
 * Every numeric hyperparameter of the published (docs/api.md#resources) training configuration has
 * documented bounds: the builders refuse a value outside them before any
 * request, the local platform with a 400 naming the field, and both accept
 * the bounds themselves.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { offlinePlatform } from "./_helpers/offline.ts";
import { ValidationError } from "../src/http/errors.ts";
import {
  HYPERPARAMETER_BOUNDS,
  type HyperparameterBounds,
  hyperparameterShape,
  TrainingConfigurationCreateSchema,
  TrainingConfigurationSchema,
} from "../src/schemas/training.ts";
import { raw, setup, tokenFor } from "./_helpers/local_setup.ts";

// docs/api.md#resources, "Training configuration": the numbers and integers.
const SPEC_FRACTIONAL = [
  "alpha",
  "alpha_factor",
  "bin_min_distance",
  "estimators_winsorize_level",
  "l1_ratio",
  "l1_ratio_delta",
  "learning_rate",
  "learning_rate_decay",
  "max_samples",
  "partition_min_delta",
  "partition_min_delta_factor",
  "partition_min_delta_fraction",
  "prune_threshold",
  "subsample",
  "training_size",
  "validation_size",
];
const SPEC_INTEGERS = [
  "bins",
  "early_stopping_patience",
  "estimators",
  "init_depth",
  "learning_rate_patience",
  "log_interval",
  "max_depth",
  "max_depth_momentum",
  "max_interaction_degree",
  "max_interactions",
  "max_iterations",
  "max_polynomial_degree",
  "max_rounds",
  "model_complexity_max_iterations",
  "model_complexity_patience",
  "partition_min_samples",
  "prune_patience",
];

const bounds = HYPERPARAMETER_BOUNDS as Record<string, HyperparameterBounds>;
const camel = (s: string) => s.replace(/_(\w)/g, (_, c) => c.toUpperCase());
const issuesOf = (body: Record<string, unknown>) => {
  const parsed = TrainingConfigurationCreateSchema.safeParse({
    name: "t",
    ...body,
  });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path[0]);
};

/** Values just outside the bounds of `b` (and a fraction for integers). */
function outside(b: HyperparameterBounds): number[] {
  const step = b.int ? 1 : Math.max(1e-9, Math.abs(b.max) * 1e-9);
  const values = [b.min - (b.minExclusive ? 0 : step), b.max + step, 1e12];
  if (b.int) values.push(b.min + 0.5);
  return values;
}

Deno.test("hyperparameter bounds: every numeric field of docs/api.md#resources has bounds, integers where docs/api.md#resources says integer", () => {
  assertEquals(
    Object.keys(bounds).sort(),
    [...SPEC_FRACTIONAL, ...SPEC_INTEGERS, "random_seed"].sort(),
  );
  for (const name of SPEC_INTEGERS) assert(bounds[name].int, name);
  for (const name of SPEC_FRACTIONAL) assert(!bounds[name].int, name);
  for (const [name, b] of Object.entries(bounds)) {
    assert(Number.isFinite(b.max) && b.max > b.min, name);
    assert(b.doc.length > 10, `${name} is documented`);
    assert(name in hyperparameterShape, name);
  }
  assertEquals(bounds.max_rounds.max, 1_000_000);
});

Deno.test("hyperparameter bounds: the schema refuses just outside each bound and accepts the bounds", () => {
  for (const [name, b] of Object.entries(bounds)) {
    for (const value of outside(b)) {
      assertEquals(
        issuesOf({ [name]: value }),
        [name],
        `${name}: ${value}`,
      );
    }
    const inside = [b.max, b.minExclusive ? b.min + (b.int ? 1 : 1e-6) : b.min];
    for (const value of inside) {
      // training_size and validation_size also bound each other's sum.
      const other = name === "training_size"
        ? { validation_size: 0 }
        : name === "validation_size"
        ? { training_size: 1 - value || 1e-6 }
        : {};
      if (name === "validation_size" && value === 1) continue;
      assertEquals(
        issuesOf({ [name]: value, ...other }),
        [],
        `${name}: ${value}`,
      );
    }
  }
  // max_samples: a fraction or a whole count of rows.
  assertEquals(issuesOf({ max_samples: 0.5 }), []);
  assertEquals(issuesOf({ max_samples: 5000 }), []);
  assertEquals(issuesOf({ max_samples: 2.5 }), ["max_samples"]);
});

Deno.test("hyperparameter bounds: a response carrying a value beyond our bounds still reads", () => {
  const read = TrainingConfigurationSchema.safeParse({
    id: "tc_1",
    max_rounds: 1e7,
    bins: 4096,
    alpha: null,
  });
  assert(read.success);
});

const ml = offlinePlatform().ml;

Deno.test("hyperparameter bounds: the builder refuses each out-of-range value before sending, naming field and option", () => {
  for (const [name, b] of Object.entries(bounds)) {
    const value = b.max + (b.int ? 1 : 1e-3 * Math.max(1, b.max));
    const error = assertThrows(
      () => ml.trainingConfiguration("t", { [camel(name)]: value }).body(),
      ValidationError,
    );
    assertEquals(error.issues.length, 1, error.message);
    const option = camel(name);
    assertEquals(
      error.issues[0].path,
      option === name ? name : `${name} (option "${option}")`,
    );
    assert(error.issues[0].message.includes(`at most ${b.max}`));
  }
});

Deno.test("hyperparameter bounds: the local platform answers 400 naming the field (max_rounds 1e12, l1_ratio 2, max_depth 2.5)", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    for (
      const [field, value] of [
        ["max_rounds", 1e12],
        ["l1_ratio", 2],
        ["max_depth", 2.5],
        ["estimators_winsorize_level", 0.75],
        ["random_seed", -1],
      ] as const
    ) {
      const answer = await raw(platform, "POST", "/training-configurations", {
        token,
        body: { name: `t-${field}`, [field]: value },
      });
      assertEquals(answer.status, 400, `${field}: ${value}`);
      assertEquals(answer.body.errors?.map((e) => e.path), [field]);
    }
    const ok = await raw(platform, "POST", "/training-configurations", {
      token,
      body: { name: "ok", max_rounds: 100_000, l1_ratio: 1 },
    });
    assertEquals(ok.status, 201);
    assertEquals(ok.body.max_rounds, 100_000);
  } finally {
    await platform.close();
  }
});
