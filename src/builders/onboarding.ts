// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Onboarding: the configuration saying how a datasource is encoded for a
 * prediction task, and the job that turns a datasource into a dataset.
 *
 * @module
 */
import type { z } from "zod";
import type {
  OnboardingConfigurationCreateSchema,
} from "../schemas/onboarding.ts";
import {
  type DataProcessingJobOptions,
  ProducingJobBuilder,
} from "./job_builder.ts";
import { nameAfter, ResourceBuilder } from "./spec.ts";
import type { ColumnSet, TypedRef } from "./types.ts";
import { invalid } from "./validate.ts";

/** Encoding options of an onboarding configuration (all optional, with defaults). */
export interface EncodingOptions {
  /** `INITIAL` (default). */
  configurationType?: "INITIAL";
  /**
   * `CLASSIFICATION` (default: a CATEGORICAL target) or `REGRESSION` (a
   * NUMBER target, predicted as a number). `ml.onboard()` picks REGRESSION
   * when the schema's target is a CONTINUOUS number.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** `STREAM` (default). */
  encodingStrategy?: "STREAM";
  /** Map categories never seen in training to the "other" bucket (default true). */
  handleUnseenCategories?: boolean;
  /** Replace missing values instead of giving them their own bin (default false). */
  impute?: boolean;
  /** At most this many categories per column are kept, the most frequent (default 4096). */
  oneHotEncodingMaxCategories?: number;
  /** Trim white space around category values (default true). */
  stripCategories?: boolean;
  /** Categories rarer than this fraction of rows share one bucket (default 0). */
  infrequencyThreshold?: number;
  /** Fraction of categories masked in training (0..1). */
  maskCategoryFraction?: number;
  /** Fraction of values masked in training (0..1). */
  maskFraction?: number;
  /** Fraction of values replaced by the median in training (0..1). */
  maskMedianFraction?: number;
  /** Fraction of rows masked in training (0..1). */
  maskRowsFraction?: number;
  /** Shard size with a unit, e.g. `"128MB"`. */
  shards?: string;
  /** `PROPORTIONATE`. */
  shardingStrategy?: "PROPORTIONATE";
  /** Groups of features treated together. */
  featureGroups?: unknown[];
}

/** Options of an onboarding configuration. */
export interface OnboardingConfigurationOptions<T extends string = string>
  extends EncodingOptions {
  /** Configuration name (unique in the account). */
  name: string;
  /** Target columns to predict (at least one). */
  targets: readonly T[];
  /**
   * The schema's target names, when known: a target outside them is refused
   * before sending (the service would answer 400).
   */
  schemaTargets?: readonly string[];
}

/**
 * Builds `POST /data-processing-onboarding-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { OnboardingConfigurationBuilder } from "./onboarding.ts";
 * const body = new OnboardingConfigurationBuilder(undefined, {
 *   name: "churn-onboard", targets: ["churn"], impute: true,
 * }).body();
 * const shown = [body.prediction_type, body.impute, body.one_hot_encoding_max_categories].join();
 * if (shown !== "CLASSIFICATION,true,4096") throw new Error(shown);
 * ```
 */
export class OnboardingConfigurationBuilder<T extends string = string>
  extends ResourceBuilder<
    "onboardingConfigurations",
    OnboardingConfigurationOptions<T>
  > {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "onboardingConfigurations",
    wire: { schemaTargets: null },
    defaults: () => ({ targets: [] }),
  });
  /** The validated body; also checks the targets against the schema's. */
  override body(): z.output<typeof OnboardingConfigurationCreateSchema> {
    const body = super.body();
    const known = this.options.schemaTargets;
    if (known) {
      const issues = body.targets.flatMap((target, i) =>
        known.includes(target) ? [] : [{
          path: `targets.${i}`,
          message:
            `"${target}" is not a target of the data schema (its targets: ${
              known.join(", ") || "none"
            }); name one of them, or add it to the schema with .target()`,
        }]
      );
      if (issues.length) throw invalid(this.what, issues);
    }
    return body;
  }
}

/** Options of an onboarding job. */
export interface OnboardingJobOptions<C extends ColumnSet = ColumnSet>
  extends DataProcessingJobOptions {
  /** The datasource to onboard (or its id). */
  datasource: TypedRef<C>;
  /** Name of the dataset to create. */
  datasetName: string;
}

/**
 * Builds `POST /data-processing-onboarding-jobs`; `create()` returns a
 * `Job` resolving to the dataset once `COMPLETED`.
 *
 * @example
 * ```ts
 * import { OnboardingJobBuilder } from "./onboarding.ts";
 * const body = new OnboardingJobBuilder(undefined, {
 *   datasource: "dsrc_1", configuration: { id: "oc_1" }, compute: "cc_1", datasetName: "churn",
 * }).body();
 * if (body.data_processing_configuration_id !== "oc_1" || body.name !== "onboard-churn") {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export class OnboardingJobBuilder<C extends ColumnSet = ColumnSet>
  extends ProducingJobBuilder<"onboardingJobs", OnboardingJobOptions<C>, C> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "onboardingJobs",
    wire: { configuration: "data_processing_configuration_id" },
    defaults: nameAfter("onboard", "datasetName"),
  });
}
