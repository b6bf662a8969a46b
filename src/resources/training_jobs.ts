/**
 * Training jobs (docs/api.md#endpoints, endpoint 10): created in a workspace, sent as the
 * `X-Active-Workspace` header.
 *
 * @module
 */
import type { TrainingJob, TrainingJobCreate } from "../schemas/training.ts";
import { routes } from "../schemas/routes.ts";
import type { RequestOptions, Transport } from "../http/transport.ts";
import { JobCollection } from "./job_collection.ts";

/** Options of `trainingJobs.create`: the workspace, and the usual request options. */
export interface TrainingJobCreateOptions extends RequestOptions {
  /** Workspace to train in (default: the client's `workspaceId`). */
  workspaceId?: string;
}

/**
 * Training jobs: like any job collection (`cancel` included), and `create`
 * takes the workspace.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * import { ConfigurationError } from "../http/errors.ts";
 * const client = new Client({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: () => Promise.reject(new Error("not reached: no workspace was given")) });
 * const body = { name: "t", dataset_id: "ds", training_configuration_id: "tc", compute_configuration_id: "cc", model_name: "m" };
 * try {
 *   await client.trainingJobs.create(body);
 * } catch (error) {
 *   console.log(error instanceof ConfigurationError); // true
 * }
 * ```
 */
export class TrainingJobs
  extends JobCollection<TrainingJobCreate, TrainingJob> {
  /** Binds the training job routes to a transport. */
  constructor(transport: Transport) {
    super(transport, routes.trainingJobs);
  }

  /** Starts a training job in `options.workspaceId` (or the client's default workspace). */
  override create(
    body: TrainingJobCreate,
    options: TrainingJobCreateOptions = {},
  ): Promise<TrainingJob> {
    // The generic create passes `workspaceId` on to the transport with the other options.
    return super.create(body, options);
  }
}
