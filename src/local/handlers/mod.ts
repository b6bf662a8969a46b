/**
 * Every operation of the route table and the function that answers it, in
 * one object that `satisfies` {@linkcode Handlers}: the compiler checks that
 * no operation is missing and that each handler takes its route's body and
 * path parameters and answers its route's response. The app mounts this
 * object with one loop (http/app.ts).
 *
 * To add an operation: add its route to src/schemas/routes.ts, then its
 * handler here (the compiler names what is missing).
 *
 * @module
 */
import {
  type Account,
  ExplanationQuerySchema,
  ListQuerySchema,
} from "../../schemas/mod.ts";
import type { JobKindName, KindName } from "../../schemas/routes.ts";
import type { PlatformContext } from "../context.ts";
import { forbidden, notFound } from "../errors.ts";
import { parseOr400, tokenBody } from "../http/request_body.ts";
import { datasourceBlobKey } from "../jobs/ingest.ts";
import { datasetBlobs } from "../jobs/onboard.ts";
import { modelBlobs } from "../store/blobs.ts";
import { dependantsOf, pageOf } from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import { collection, refusePending } from "./collection.ts";
import {
  createComputeConfiguration,
  createDataSchema,
  createDeploymentConfiguration,
  createIngestionConfiguration,
  createOnboardingConfiguration,
  createStorageConnector,
  createTrainingConfiguration,
  createWorkspace,
} from "./configs.ts";
import {
  cancelJob,
  createDeployedModel,
  createIngestionJob,
  createOnboardingJob,
  createTrainingJob,
  refuseRunningJob,
} from "./jobs.ts";
import type { Handlers, Op } from "./types.ts";
import {
  computeViews,
  explanationOf,
  prepareViews,
  viewsNow,
} from "./views.ts";
import {
  createViewsBatchConfiguration,
  createViewsBatchJob,
  viewsBatchResults,
} from "./batch.ts";
import { batchIndexBlobs } from "../jobs/batch_results.ts";
import { labelHandlers, labelledModel, refuseLabelled } from "./labels.ts";
import {
  constraintHandlers,
  protectionDependants,
  refuseConstrained,
} from "./constraint_resources.ts";

/** `POST /oauth/token`: the form (or JSON) body, read within the limits. */
const issueToken: Op<"auth", "token"> = async ({ ctx, request }) => {
  const body = await tokenBody(request, ctx.settings.limits);
  return {
    body: await ctx.tokens.issue(body.client_id, body.client_secret),
    headers: { "Cache-Control": "no-store" },
  };
};

/** The one page `GET /accounts/{id}` answers with: the list defaults. */
const FIRST_PAGE = ListQuerySchema.parse({});

/** `GET /accounts`: the caller's own account. */
const listAccounts: Op<"accounts", "list"> = ({ ctx, caller, query }) => {
  const visible = ctx.operator.accounts.filter((a) =>
    a.id === caller.account.id
  );
  return {
    body: pageOf(visible.map(accountBody), parseOr400(ListQuerySchema, query)),
  };
};

/** `GET /accounts/{id}`: 404 for an unknown id, 403 for another account. */
const getAccount: Op<"accounts", "get"> = ({ ctx, caller, params: { id } }) => {
  const account = ctx.operator.accounts.find((a) => a.id === id);
  if (!account) throw notFound("account", id);
  if (account.id !== caller.account.id) {
    throw forbidden(
      `These credentials belong to account ${caller.account.id} and cannot see account ${id}; use that account's credentials.`,
    );
  }
  return { body: pageOf([accountBody(account)], FIRST_PAGE) };
};

/**
 * `POST /deployed-models/{id}/views`: answered at once, or 202 + Location
 * past `viewsAsyncRows` rows.
 */
const views: Op<"deployedModels", "views"> = (
  { ctx, caller, params: { id }, body },
) => {
  const { model, rows, concurrency, extras } = prepareViews(
    ctx,
    caller,
    id,
    body,
  );
  const headers = { "Cache-Control": "no-store" };
  // The common call, answered without a promise: one chunk of rows, a
  // serving slot free (views.ts).
  const now = rows <= ctx.settings.viewsAsyncRows
    ? viewsNow(ctx, id, concurrency, model, body, rows, extras.offsets)
    : undefined;
  if (now) return { body: { ...now, ...extras.wire }, headers };
  const answer = async () => {
    const table = await ctx.serving.run(
      id,
      concurrency,
      ctx.settings.viewsQueueSize,
      () => computeViews(model, body, rows, extras.offsets),
    );
    // The model's table, as the wire's (open) split table.
    return { body: { ...table, ...extras.wire }, headers };
  };
  if (rows > ctx.settings.viewsAsyncRows) return { later: answer() };
  return answer();
};

/** `GET /models/{id}/explanation`. */
const explanation: Op<"models", "explanation"> = (
  { ctx, caller, params: { id }, query },
) => ({
  body: explanationOf(
    ctx,
    caller,
    id,
    parseOr400(ExplanationQuerySchema, query).anchor_id,
  ),
});

/**
 * An artifact collection: the shared operations; no delete while its job
 * produces it, and its blob goes with it.
 */
function artifactCollection<K extends KindName>(
  kind: K,
  blobKey: (id: string) => string,
) {
  return collection(kind, {
    before: refusePending,
    after: (ctx, record) => ctx.store.deleteBlob(blobKey(record.id)),
  });
}

/** A configuration collection: the shared operations and its create. */
function configCollection<K extends KindName, C>(kind: K, create: C) {
  return { ...collection(kind), create };
}

/** A job collection: the shared operations (no delete while running), its create, cancel. */
function jobCollection<J extends JobKindName, C>(kind: J, create: C) {
  return {
    ...collection(kind, { before: refuseRunningJob }),
    create,
    cancel: cancelJob(kind),
  };
}

/** Every operation of the route table, answered. */
export const handlers = {
  auth: { token: issueToken },
  accounts: { list: listAccounts, get: getAccount },
  storageConnectors: configCollection(
    "storageConnectors",
    createStorageConnector,
  ),
  computeConfigurations: configCollection(
    "computeConfigurations",
    createComputeConfiguration,
  ),
  dataSchemas: {
    ...collection("dataSchemas", {
      before: (ctx, record) =>
        refuseLabelled(
          ctx,
          record,
          protectionDependants(
            (record as StoredRecord<"dataSchemas">).body.data_protections,
          ),
        ),
    }),
    create: createDataSchema,
  },
  ...labelHandlers,
  ...constraintHandlers,
  ingestionConfigurations: configCollection(
    "ingestionConfigurations",
    createIngestionConfiguration,
  ),
  ingestionJobs: jobCollection("ingestionJobs", createIngestionJob),
  onboardingConfigurations: configCollection(
    "onboardingConfigurations",
    createOnboardingConfiguration,
  ),
  onboardingJobs: jobCollection("onboardingJobs", createOnboardingJob),
  workspaces: configCollection("workspaces", createWorkspace),
  trainingConfigurations: configCollection(
    "trainingConfigurations",
    createTrainingConfiguration,
  ),
  trainingJobs: {
    ...jobCollection("trainingJobs", createTrainingJob),
    ...collection("trainingJobs", {
      before: (ctx, record) => {
        refuseRunningJob(ctx, record);
        refuseConstrained(dependantsOf(ctx.store, record), record);
      },
    }),
  },
  deploymentConfigurations: configCollection(
    "deploymentConfigurations",
    createDeploymentConfiguration,
  ),
  deployedModels: {
    ...collection("deployedModels", {
      after: (ctx, record) => ctx.serving.undeploy(record.id),
    }),
    create: createDeployedModel,
    views,
  },
  datasources: artifactCollection("datasources", datasourceBlobKey),
  datasets: artifactCollection("datasets", datasetBlobs.key),
  models: {
    ...artifactCollection("models", modelBlobs.key),
    get: labelledModel(artifactCollection("models", modelBlobs.key).get),
    explanation,
  },
  viewsBatchConfigurations: configCollection(
    "viewsBatchConfigurations",
    createViewsBatchConfiguration,
  ),
  viewsBatchJobs: jobCollection("viewsBatchJobs", createViewsBatchJob),
  viewsBatches: {
    ...artifactCollection("viewsBatches", batchIndexBlobs.key),
    results: viewsBatchResults,
  },
} satisfies Handlers;

function accountBody(
  a: PlatformContext["operator"]["accounts"][number],
): Account {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    organisation: a.organisation,
    created_at: a.created_at,
    updated_at: null,
  };
}
