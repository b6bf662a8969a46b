// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Deployment configuration builder: how a model is served.
 *
 * @module
 */
import type { z } from "zod";
import {
  type DeploymentConfiguration,
  DeploymentConfigurationCreateSchema,
} from "../schemas/deployments.ts";
import { type CreateOptions, OptionsBuilder, wireFields } from "./base.ts";

/** Options of a deployment configuration. */
export interface DeploymentConfigurationOptions {
  /** Configuration name (unique in the account). */
  name: string;
  /** Views requests served at once, 1..1000 (default 4). */
  maximumConcurrency?: number;
  /** Memory in MB, 128..10240 (default 2048). */
  memorySize?: number;
  /** `SERVERLESS` (default, the only type SPEC.md shows). */
  deploymentType?: "SERVERLESS";
}

/**
 * Builds `POST /deployment-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { DeploymentConfigurationBuilder } from "./deployment_configuration.ts";
 * const b = new DeploymentConfigurationBuilder(undefined, { name: "small" });
 * b.with({ maximumConcurrency: 8 }).body().maximum_concurrency; // 8
 * b.body().memory_size; // 2048, the default
 * ```
 */
export class DeploymentConfigurationBuilder extends OptionsBuilder<
  DeploymentConfigurationOptions,
  typeof DeploymentConfigurationCreateSchema,
  DeploymentConfiguration
> {
  /** What is built. */
  readonly what = "deployment configuration";
  /** The body schema. */
  protected readonly schema = DeploymentConfigurationCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return wireFields(this.options).names;
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return wireFields(this.options).body;
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof DeploymentConfigurationCreateSchema>,
    options?: CreateOptions,
  ): Promise<DeploymentConfiguration> {
    return this.requireClient().deploymentConfigurations.create(body, options);
  }
}
