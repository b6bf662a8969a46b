// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Compute configuration builder: the machine a processing or training job
 * runs on.
 *
 * @module
 */
import {
  type ComputeConfiguration,
  ComputeConfigurationCreateSchema,
  type ComputeType,
} from "../schemas/compute.ts";
import { type CreateOptions, OptionsBuilder, wireFields } from "./base.ts";
import type { z } from "zod";

/** Default machine type: a small general-purpose instance. */
export const DEFAULT_MACHINE_TYPE = "ml.m5.large";

/** Options of a compute configuration. */
export interface ComputeOptions {
  /** Configuration name (unique in the account). */
  name: string;
  /** Instance type (default `ml.m5.large`). */
  machineType?: string;
  /** `PROCESSING` (ingestion, onboarding; default) or `TRAINING`. */
  computeType?: ComputeType;
}

/**
 * Builds `POST /compute-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { ComputeBuilder } from "./compute.ts";
 * new ComputeBuilder(undefined, { name: "gpu", computeType: "TRAINING" }).body();
 * // { name: "gpu", machine_type: "ml.m5.large", compute_type: "TRAINING" }
 * ```
 */
export class ComputeBuilder extends OptionsBuilder<
  ComputeOptions,
  typeof ComputeConfigurationCreateSchema,
  ComputeConfiguration
> {
  /** What is built. */
  readonly what = "compute configuration";
  /** The body schema. */
  protected readonly schema = ComputeConfigurationCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return wireFields(this.options).names;
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return wireFields({
      machineType: DEFAULT_MACHINE_TYPE,
      computeType: "PROCESSING",
      ...this.options,
    }).body;
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof ComputeConfigurationCreateSchema>,
    options?: CreateOptions,
  ): Promise<ComputeConfiguration> {
    return this.requireClient().computeConfigurations.create(body, options);
  }
}
