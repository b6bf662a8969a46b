// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Deployment configuration builder: how a model is served.
 *
 * @module
 */
import { ResourceBuilder } from "./spec.ts";

/** Options of a deployment configuration. */
export interface DeploymentConfigurationOptions {
  /** Configuration name (unique in the account). */
  name: string;
  /** Views requests served at once, 1..1000 (default 4). */
  maximumConcurrency?: number;
  /** Memory in MB, 128..10240 (default 2048). */
  memorySize?: number;
  /** `SERVERLESS` (default, the only type docs/api.md#resources shows). */
  deploymentType?: "SERVERLESS";
}

/**
 * Builds `POST /deployment-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { DeploymentConfigurationBuilder } from "./deployment_configuration.ts";
 * const b = new DeploymentConfigurationBuilder(undefined, { name: "small" });
 * if (b.with({ maximumConcurrency: 8 }).body().maximum_concurrency !== 8) throw new Error();
 * if (b.body().memory_size !== 2048) throw new Error("2048 MB is the default");
 * ```
 */
export class DeploymentConfigurationBuilder extends ResourceBuilder<
  "deploymentConfigurations",
  DeploymentConfigurationOptions
> {
  /** Its definition. */
  protected readonly spec = this.define({ route: "deploymentConfigurations" });
}
