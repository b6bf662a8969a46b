// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Compute configuration builder: the machine a processing or training job
 * runs on.
 *
 * @module
 */
import type { ComputeType } from "../schemas/compute.ts";
import { ResourceBuilder } from "./spec.ts";

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
 * const body = new ComputeBuilder(undefined, { name: "gpu", computeType: "TRAINING" }).body();
 * if (body.machine_type !== "ml.m5.large" || body.compute_type !== "TRAINING") {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export class ComputeBuilder
  extends ResourceBuilder<"computeConfigurations", ComputeOptions> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "computeConfigurations",
    defaults: () => ({
      machineType: DEFAULT_MACHINE_TYPE,
      computeType: "PROCESSING",
    }),
  });
}
