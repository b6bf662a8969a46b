// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Base of the builders that start a job: `create()` sends the one request
 * that starts it and returns a {@linkcode Job} at once (the same Job on
 * every later call); awaiting the builder (or the Job) waits for the job's
 * result.
 *
 * @module
 */
import type { z } from "zod";
import { Job, type JobDefinition } from "../jobs/job.ts";
import type { ProgressOption } from "../jobs/progress.ts";
import type { PollOptions } from "../jobs/poll_schedule.ts";
import type { JobSnapshot } from "../jobs/status.ts";
import type { CreateOptions } from "./base.ts";
import { type JobKindName, KINDS } from "../schemas/routes.ts";
import type { BuilderClient, Creatable, Readable } from "./builder_client.ts";
import {
  type BodySchema,
  type BuilderSpec,
  type Created,
  type CreateKey,
  SpecBuilder,
} from "./spec.ts";
import type { ColumnSet, RefLike, TypedBy } from "./types.ts";

/** Options every job builder takes besides its own. */
export interface JobControl {
  /** Progress display of `await job` (`false` silences the terminal bar). */
  progress?: ProgressOption;
  /** Poll schedule (default 250 ms growing to 5 s). */
  poll?: PollOptions;
}

/** Options of the jobs that make an artifact: ingestion, onboarding and training. */
export interface ProcessingJobOptions extends JobControl {
  /** Job name (default: named after what it makes, `ingest-<datasourceName>`, `onboard-...`, `train-...`). */
  name?: string;
  /** Its configuration (or its id). */
  configuration: RefLike;
  /** The compute configuration it runs on (or its id): `PROCESSING` to ingest and onboard, `TRAINING` to train. */
  compute: RefLike;
}

/** Options of the data processing jobs (ingestion, onboarding) besides their own. */
export interface DataProcessingJobOptions extends ProcessingJobOptions {
  /** `INITIAL` (default). */
  jobType?: "INITIAL";
}

/**
 * Everything of a {@linkcode JobDefinition} but how the job starts: how one
 * kind of job is retrieved, resolved and cancelled once it exists. Builders
 * add `start`; `ml.attach` starts from an id instead.
 */
export type JobSteps<J extends JobSnapshot, T> = Omit<
  JobDefinition<J, T>,
  "start" | "progress" | "poll"
>;

/** The route families whose `create` answers with a job (or a deployment to follow). */
export type JobKey = {
  [K in CreateKey]: Created<K> extends JobSnapshot ? K : never;
}[CreateKey];

/** The snapshot a job of family `K` is followed by: what its `create` and `get` answer. */
export type SnapshotOf<K extends JobKey> = Created<K> extends JobSnapshot
  ? Created<K>
  : never;

/** A job builder's definition: its {@linkcode BuilderSpec} and how the job is followed. */
export interface JobBuilderSpec<K extends JobKey, O, T>
  extends BuilderSpec<K, O> {
  /** How the job is retrieved, resolved and cancelled once started. */
  readonly steps: (client: BuilderClient) => JobSteps<SnapshotOf<K>, T>;
}

/** A builder whose `create()` starts a job. Immutable; awaitable. */
export abstract class JobBuilder<
  K extends JobKey,
  O extends JobControl,
  T,
> extends SpecBuilder<K, O, Job<SnapshotOf<K>, T>, T> {
  /** The builder's definition. */
  protected abstract override readonly spec: JobBuilderSpec<K, O, T>;

  /** Types a subclass's spec (see `SpecBuilder.define`). */
  protected override define(
    spec: JobBuilderSpec<K, O, T>,
  ): JobBuilderSpec<K, O, T> {
    return spec;
  }

  /** Every job's `compute` is its `compute_configuration_id`. */
  protected override wireNames(): Readonly<
    Record<string, string | null | undefined>
  > {
    return { compute: "compute_configuration_id", ...super.wireNames() };
  }

  /**
   * The validated job definition (`start`, `retrieve`, `resolve`) without
   * starting anything; for helpers that compose several steps into one Job.
   */
  toDefinition(options?: CreateOptions): JobDefinition<SnapshotOf<K>, T> {
    const body = this.body();
    const client = this.requireClient("start a job");
    const jobs = client[this.spec.route] as unknown as Creatable<
      z.output<BodySchema<K>>,
      SnapshotOf<K>
    >;
    return {
      ...this.spec.steps(client),
      start: () => jobs.create(body, this.requestOptions(options)),
      progress: this.options.progress,
      poll: this.options.poll,
    };
  }

  /**
   * Validates the body (throwing before any request), then starts the job:
   * what `create()` does the first time.
   */
  protected make(options?: CreateOptions): Job<SnapshotOf<K>, T> {
    return new Job(this.toDefinition(options));
  }
}

/** What a collection's `get` resolves to. */
type Item<K extends keyof BuilderClient> = Awaited<
  ReturnType<BuilderClient[K]["get"]>
>;

/** The artifact a job of family `J` makes, as its collection reads it. */
export type ArtifactOf<J extends JobKindName> = Item<
  typeof KINDS[J]["produces"]["kind"]
>;

/** How a job that makes an artifact is followed, typed by the artifact's column set. */
export type ProducingSteps<J extends JobSnapshot, A> = <C extends ColumnSet>(
  client: BuilderClient,
) => JobSteps<J, TypedBy<A, C>>;

/**
 * How a job of family `jobs` is followed once it exists: retrieved,
 * cancelled, and resolved to the artifact it makes, all read from the route
 * table (`KINDS[jobs].produces`: the job's field naming the artifact, and
 * the artifact's collection). Shared by the job builders and `ml.attach`.
 *
 * @example
 * ```ts
 * import { followJob } from "./job_builder.ts";
 * const calls: string[] = [];
 * const client = {
 *   trainingJobs: { get: (id: string) => (calls.push(`job ${id}`), Promise.resolve({})) },
 *   models: { get: (id: string) => (calls.push(`model ${id}`), Promise.resolve({ id })) },
 * };
 * const followed = followJob("trainingJobs")(client as never);
 * await followed.resolve({ model: { id: "m_1" } } as never, {});
 * if (followed.kind !== "training job" || calls[0] !== "model m_1") throw new Error(calls.join());
 * ```
 */
export function followJob<J extends JobKindName>(
  jobs: J,
): ProducingSteps<Item<J>, ArtifactOf<J>> {
  const { noun, produces } = KINDS[jobs];
  return <C extends ColumnSet>(client: BuilderClient) => {
    const collection = client[jobs] as unknown as Pick<
      BuilderClient["trainingJobs"],
      "get" | "cancel"
    >;
    const made = client[produces.kind] as unknown as Readable<ArtifactOf<J>>;
    return {
      kind: noun,
      retrieve: (id, o) => collection.get(id, o) as Promise<Item<J>>,
      resolve: (job, o) => {
        const ref = (job as unknown as Record<string, { id: string }>)[
          produces.field
        ];
        return made.get(ref.id, o) as Promise<TypedBy<ArtifactOf<J>, C>>;
      },
      cancel: (id, o) => collection.cancel(id, o) as Promise<Item<J>>,
    };
  };
}

/**
 * A builder of a job that makes an artifact (ingestion, onboarding,
 * training): followed by {@linkcode followJob}, so its spec needs no
 * `steps`, and awaited it gives the artifact typed with the column set `C`.
 */
export abstract class ProducingJobBuilder<
  K extends JobKindName,
  O extends ProcessingJobOptions,
  C extends ColumnSet,
> extends JobBuilder<K, O, TypedBy<ArtifactOf<K>, C>> {
  /** Types a subclass's spec and follows the job as the route table says. */
  protected override define(
    spec: BuilderSpec<K, O>,
  ): JobBuilderSpec<K, O, TypedBy<ArtifactOf<K>, C>> {
    // A job's `get` and its `create` answer with the same snapshot.
    const steps = followJob(spec.route)<C> as unknown as JobBuilderSpec<
      K,
      O,
      TypedBy<ArtifactOf<K>, C>
    >["steps"];
    return { ...spec, steps };
  }
}
