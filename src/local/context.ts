/**
 * The state every handler of the local platform shares: the store, the
 * operator setup, buckets, the token service, the job runner and the model
 * server. Built once by `createLocalPlatform`.
 *
 * @module
 */
import type { TokenService } from "./http/auth.ts";
import type { FaultInjector } from "./http/faults.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { Operations } from "./http/operations.ts";
import type { Operator, RequestLimits } from "./options.ts";
import type { Serving } from "./deployments/serving.ts";
import type { Store } from "./store/store.ts";

/** Settings after defaults. */
export interface PlatformSettings {
  /** `maximum_runtime_seconds` of new jobs. */
  maximumRuntimeSeconds: number;
  /** Views with more rows are answered 202 + Location. */
  viewsAsyncRows: number;
  /** Views requests that may wait per deployed model beyond its concurrency. */
  viewsQueueSize: number;
  /** Request body limits, enforced before a body is parsed. */
  limits: Required<RequestLimits>;
}

/** Shared state of one local platform. */
export interface PlatformContext {
  /** Resources, blobs and settings. */
  store: Store;
  /** Accounts and credentials. */
  operator: Operator;
  /** Bucket name to folder. */
  buckets: Record<string, string>;
  /** Token issue and verification. */
  tokens: TokenService;
  /** Background jobs. */
  runner: JobRunner;
  /** Loaded models of deployed models. */
  serving: Serving;
  /** Results answered with 202 + Location. */
  operations: Operations;
  /** Fault injection. */
  faults: FaultInjector;
  /** Settings after defaults. */
  settings: PlatformSettings;
  /** Reports unexpected errors (with their stack). */
  log: (message: string, error?: unknown) => void;
}
