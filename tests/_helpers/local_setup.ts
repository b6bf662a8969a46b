/**
 * Helpers of the local platform tests: a client on an in-process platform,
 * the penguins schema, and polling until a job or deployment is ready.
 *
 * @module
 */
import { Client } from "../../src/client.ts";
import {
  createLocalPlatform,
  type LocalPlatform,
} from "../../src/local/local_platform.ts";
import type { LocalPlatformOptions } from "../../src/local/options.ts";
import type { LocalMLPlatform } from "../../local.ts";
import { connect, type MLPlatform } from "../../src/platform.ts";

/** Folder of the shared datasets. */
export const DATASETS = new URL("../../datasets/", import.meta.url).pathname;

/** A platform and a client on it (retries off so error statuses surface). */
export async function setup(
  options: LocalPlatformOptions = {},
  clientOptions: Record<string, unknown> = {},
) {
  const platform = await createLocalPlatform({
    buckets: { demo: DATASETS },
    logger: () => {},
    ...options,
  });
  return {
    platform,
    client: clientFor(platform, platform.credentials, clientOptions),
  };
}

/** A client with the given credentials on the platform's own fetch. */
export function clientFor(
  platform: LocalPlatform,
  credentials: { clientId: string; clientSecret: string },
  extra: Record<string, unknown> = {},
): Client {
  return new Client({
    baseUrl: platform.baseUrl,
    ...credentials,
    fetch: (input, init) => platform.fetch(new Request(input, init)),
    maxRetries: 0,
    pollInterval: 10,
    ...extra,
  });
}

/** The penguins columns: species is the target, island and sex categorical. */
export const PENGUIN_FIELDS = [
  ["species", "STRING", "TARGET"],
  ["island", "STRING", "FEATURE"],
  ["bill_length_mm", "NUMBER", "FEATURE"],
  ["bill_depth_mm", "NUMBER", "FEATURE"],
  ["flipper_length_mm", "NUMBER", "FEATURE"],
  ["body_mass_g", "NUMBER", "FEATURE"],
  ["sex", "STRING", "FEATURE"],
].map(([name, type, designation]) => ({
  name,
  data_type: type === "NUMBER"
    ? { data_type: "NUMBER" as const, format: "FLOAT64" as const }
    : { data_type: "STRING" as const, format: null },
  designation: designation as "TARGET" | "FEATURE",
  semantic_type: type === "NUMBER"
    ? "CONTINUOUS" as const
    : "CATEGORICAL" as const,
}));

/** Polls `get` every 20 ms until `done(value)`, or `waitMs` have passed. */
export async function until<T>(
  get: () => Promise<T>,
  done: (value: T) => boolean,
  // A bound on a broken run, not a timing assertion: generous, so a loaded
  // machine (a CI box shared with other jobs) only makes it slower.
  waitMs = 300_000,
): Promise<T> {
  const giveUp = Date.now() + waitMs;
  let value = await get();
  while (!done(value) && Date.now() < giveUp) {
    await new Promise((r) => setTimeout(r, 20));
    value = await get();
  }
  return value;
}

/** Polls the deployed model `id` until it is RUNNING. */
export function untilRunning(client: Client, id: string) {
  return until(
    () => client.deployedModels.get(id),
    (d) => d.status === "RUNNING",
  );
}

/** Whether a job status is final. */
export const ended = (job: { status: string }) =>
  job.status === "COMPLETED" || job.status === "FAILED";

/** Runs the steps up to an ingested penguins datasource; returns the ids. */
export async function ingestPenguins(
  client: Client,
  suffix = "",
  dataPath = "penguins.csv",
) {
  const storage = await client.storageConnectors.create({
    name: `demo${suffix}`,
    bucket_name: "demo",
  });
  const cpu = await client.computeConfigurations.create({
    name: `cpu${suffix}`,
    machine_type: "ml.m5.large",
    compute_type: "PROCESSING",
  });
  const schema = await client.dataSchemas.create({
    name: `penguins${suffix}`,
    fields: PENGUIN_FIELDS,
  });
  const config = await client.ingestionConfigurations.create({
    name: `ingest${suffix}`,
    data_schema_id: schema.id,
  });
  const job = await client.ingestionJobs.create({
    name: `ingest-job${suffix}`,
    compute_configuration_id: cpu.id,
    data_processing_configuration_id: config.id,
    storage_connector_id: storage.id,
    data_path: dataPath,
    datasource_name: `penguins-source${suffix}`,
  });
  const done = await until(() => client.ingestionJobs.get(job.id), ended);
  return { storage, cpu, schema, config, job, done };
}

/** A token for the credentials, from the token endpoint. */
export async function tokenFor(
  platform: LocalPlatform,
  credentials: { clientId: string; clientSecret: string } =
    platform.credentials,
): Promise<string> {
  const res = await platform.fetch(
    new Request(`${platform.baseUrl}/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
    }),
  );
  if (res.status !== 200) {
    throw new Error(`token call answered ${res.status}: ${await res.text()}`);
  }
  return (await res.json()).access_token;
}

/** A raw call to the app (no client): status, headers and parsed body. */
export async function raw(
  platform: LocalPlatform,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    text?: string;
    /** The body's bytes as they are (a compressed body, say). */
    bytes?: Uint8Array<ArrayBuffer>;
    headers?: Record<string, string>;
  } = {},
): Promise<
  {
    status: number;
    headers: Headers;
    body: Record<string, unknown> & {
      errors?: { path: string; message: string }[];
    };
  }
> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.bytes ??
    options.text;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await platform.fetch(
    new Request(`${platform.baseUrl}${path}`, { method, headers, body }),
  );
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : {},
  };
}

/**
 * Onboards an ingested penguins datasource (target `species`) on compute
 * `cpu`; returns the configuration and the ended job.
 */
export async function onboardPenguins(
  client: Client,
  cpu: string,
  datasource: string,
) {
  const oc = await client.onboardingConfigurations.create({
    name: "onboard",
    targets: ["species"],
  });
  const oj = await client.onboardingJobs.create({
    name: "onboard-job",
    compute_configuration_id: cpu,
    data_processing_configuration_id: oc.id,
    datasource_id: datasource,
    dataset_name: "dataset",
  });
  const job = await until(() => client.onboardingJobs.get(oj.id), ended);
  return { oc, job };
}

/**
 * Starts training `dataset` in a new workspace `lab` on a new TRAINING
 * compute, with the training configuration `configuration` (and any more
 * fields of the job's body, constraints say); returns the job as created.
 */
export async function startPenguinTraining(
  client: Client,
  dataset: string,
  configuration: { max_rounds: number; estimators: number },
  more: Record<string, unknown> = {},
) {
  const ws = await client.workspaces.create({ name: "lab" });
  const gpu = await client.computeConfigurations.create({
    name: "gpu",
    machine_type: "g5",
    compute_type: "TRAINING",
  });
  const tc = await client.trainingConfigurations.create({
    name: "ebm",
    ...configuration,
  });
  return await client.trainingJobs.create({
    name: "train",
    dataset_id: dataset,
    training_configuration_id: tc.id,
    compute_configuration_id: gpu.id,
    model_name: "model",
    ...more,
  }, { workspaceId: ws.id });
}

/** Ingests, onboards, trains and deploys penguins; returns the client ids. */
export async function deployPenguins(
  client: Client,
  deployment: { maximum_concurrency?: number } = {},
) {
  const { cpu, done } = await ingestPenguins(client);
  const { job: onboarded } = await onboardPenguins(
    client,
    cpu.id,
    done.datasource.id,
  );
  // One bag: these tests serve, store and explain a model; its accuracy
  // is tested in the model tests.
  const tj = await startPenguinTraining(client, onboarded.dataset.id, {
    max_rounds: 40,
    estimators: 1,
  });
  const trained = await until(() => client.trainingJobs.get(tj.id), ended);
  if (trained.status !== "COMPLETED") {
    throw new Error(`training failed: ${trained.message}`);
  }
  const dc = await client.deploymentConfigurations.create({
    name: "dc",
    ...deployment,
  });
  const dm = await client.deployedModels.create({
    name: "live",
    model_id: trained.model.id,
    deployment_configuration_id: dc.id,
  });
  return { dm, model: trained.model, job: trained, dataset: onboarded.dataset };
}

/** A penguin query of `n` rows (cycling over a few real rows). */
export function penguinQuery(n: number) {
  const rows = [
    ["Biscoe", 48.0, 15.0, 220, 5200, "male"],
    ["Dream", 50.0, 19.0, 195, 3800, null],
    ["Torgersen", 39.0, 18.5, 185, 3600, "female"],
  ] as const;
  const names = [
    "island",
    "bill_length_mm",
    "bill_depth_mm",
    "flipper_length_mm",
    "body_mass_g",
    "sex",
  ];
  return Object.fromEntries(
    names.map((name, c) => [
      name,
      Array.from({ length: n }, (_, i) => rows[i % 3][c]),
    ]),
  ) as Record<string, (string | number | null)[]>;
}

/**
 * A local platform served over HTTP on a free port, and a client on it
 * (retries off, short polls): tests that hold the in-process and the HTTP
 * answers equal. `close` stops the server (not the platform).
 */
export function overHttp(
  ml: LocalMLPlatform,
): { http: MLPlatform; close: () => Promise<void> } {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request) => ml.platform.fetch(request),
  );
  const http = connect({
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    ...ml.platform.credentials,
    maxRetries: 0,
    pollInterval: 10,
  });
  return { http, close: () => server.shutdown() };
}
