/**
 * `createLocalPlatform`: the whole service in-process. It builds the store
 * (memory, or SQLite under `dataDir`), the operator setup, the token
 * service, the job runner and the model server, recovers after a restart,
 * and returns the Hono app with its `fetch`, the base URL and the
 * credentials of the default account.
 *
 * @example
 * ```ts
 * import { createLocalPlatform } from "./local_platform.ts";
 * const platform = await createLocalPlatform({ clientId: "me", clientSecret: "s3cret" });
 * const res = await platform.fetch(new Request(`${platform.baseUrl}/oauth/token`, {
 *   method: "POST",
 *   body: new URLSearchParams({ grant_type: "client_credentials", client_id: "me", client_secret: "s3cret" }),
 * }));
 * if (res.status !== 200 || (await res.json()).token_type !== "Bearer") throw new Error();
 * await platform.close();
 * ```
 *
 * @module
 */
import type { Hono } from "hono";
import { createApp } from "./http/app.ts";
import { readDataFile, withDataFile } from "./store/buckets.ts";
import { TokenService } from "./http/auth.ts";
import type { PlatformContext } from "./context.ts";
import { FaultInjector } from "./http/faults.ts";
import { JobRunner } from "./jobs/runner.ts";
import { JOB_KINDS, KINDS } from "../schemas/routes.ts";
import { Operations } from "./http/operations.ts";
import {
  type LocalPlatformOptions,
  type Operator,
  readConfigFile,
  resolveLimits,
  resolveOperator,
} from "./options.ts";
import { idOf, updateRecord } from "./store/records.ts";
import { Serving } from "./deployments/serving.ts";
import { openSqliteStore } from "./store/sqlite_store.ts";
import { isOfKind, MemoryStore, type Store } from "./store/store.ts";
import { removeBatchLeftovers } from "./jobs/batch.ts";
import { randomHex } from "./ids.ts";

/** A running local platform. */
export interface LocalPlatform {
  /** The app's fetch handler: give it to a client as its `fetch`. */
  fetch: (request: Request) => Promise<Response>;
  // deno-doc-ignore private-type-ref -- Hono's own app class
  /** The Hono app (serve it with `Deno.serve(app.fetch)` or any runtime). */
  app: Hono;
  /** The base URL the app answers under (any URL works for in-process fetch). */
  baseUrl: string;
  /** Credentials of the first account (the default one unless configured). */
  credentials: { clientId: string; clientSecret: string };
  /** The operator setup in force (accounts, credentials). */
  operator: Operator;
  /**
   * Reads an object of a bucket as text, with the same path checks as
   * ingestion (so schema inference sees exactly what a job would read).
   */
  readObject(bucket: string, path: string): Promise<string>;
  /**
   * Hands `use` an object of a bucket as a stream of its bytes, with the
   * same path checks (the file stays open until `use` settles).
   */
  streamObject<T>(
    bucket: string,
    path: string,
    use: (bytes: ReadableStream<Uint8Array>) => Promise<T>,
  ): Promise<T>;
  /** Stops jobs (they end FAILED), waits for them, closes the store. */
  close(): Promise<void>;
}

const DEFAULT_BASE_URL = "http://mlplatform.local";

/**
 * Starts a local platform.
 *
 * @param options Buckets, accounts, persistence, faults; see {@linkcode LocalPlatformOptions}.
 *
 * @example
 * ```ts
 * import { createLocalPlatform } from "./local_platform.ts";
 * const p = await createLocalPlatform({ buckets: { demo: "." } });
 * if (!p.credentials.clientId) throw new Error();
 * await p.close();
 * ```
 */
export async function createLocalPlatform(
  options: LocalPlatformOptions = {},
): Promise<LocalPlatform> {
  const fromFile = options.configFile
    ? await readConfigFile(options.configFile)
    : {};
  const o: LocalPlatformOptions = { ...fromFile, ...stripUndefined(options) };
  const store: Store = o.dataDir
    ? await openSqliteStore(o.dataDir)
    : new MemoryStore();
  try {
    return start(o, store);
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * The app's fetch for in-process clients. A base URL with a path
 * (`http://mlplatform.local/api/v1`) is where the client sends its requests,
 * while the app routes from the root, as behind a proxy that removes the
 * path: the path is removed here the same way (before, every call was a
 * 404 naming `/api/v1/...`).
 */
function inProcessFetch(
  app: Hono,
  baseUrl: string,
): (request: Request) => Promise<Response> {
  const prefix = URL.canParse(baseUrl) ? new URL(baseUrl).pathname : "/";
  if (prefix === "/" || prefix === "") {
    return (request) => Promise.resolve(app.fetch(request));
  }
  return (request) => {
    const url = new URL(request.url);
    if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) {
      url.pathname = url.pathname.slice(prefix.length) || "/";
      request = new Request(url, request);
    }
    return Promise.resolve(app.fetch(request));
  };
}

function start(
  o: LocalPlatformOptions,
  store: Store,
): LocalPlatform {
  const stored = store.getMeta("operator");
  const operator = stableOperator(
    resolveOperator(o),
    isOperator(stored) ? stored : undefined,
  );
  store.setMeta("operator", operator);
  const storedKey = store.getMeta("signing_key");
  let keyHex = typeof storedKey === "string" ? storedKey : undefined;
  if (!keyHex) {
    keyHex = randomHex(32);
    store.setMeta("signing_key", keyHex);
  }
  const key = new Uint8Array(keyHex.match(/../g)!.map((h) => parseInt(h, 16)));
  const log = o.logger ??
    ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const ttl = o.tokenTtlSeconds ?? 2592000;
  if (!Number.isInteger(ttl) || ttl <= 0) {
    throw new Error(`tokenTtlSeconds must be a positive integer, got ${ttl}.`);
  }
  const ctx: PlatformContext = {
    store,
    operator,
    buckets: { ...o.buckets },
    tokens: new TokenService(operator, key, ttl, o.clock),
    runner: new JobRunner(store, log),
    serving: new Serving(store, log, o.deploymentGate),
    operations: new Operations(),
    faults: new FaultInjector(o.faults),
    settings: {
      maximumRuntimeSeconds: o.maximumRuntimeSeconds ?? 3600,
      viewsAsyncRows: o.viewsAsyncRows ?? 1000,
      viewsQueueSize: o.viewsQueueSize ?? 16,
      limits: resolveLimits(o.limits),
    },
    log,
  };
  recover(ctx);
  const app = createApp(ctx);
  const first = operator.accounts[0].credentials[0];
  const baseUrl = (o.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return {
    fetch: inProcessFetch(app, baseUrl),
    app,
    baseUrl,
    credentials: { clientId: first.clientId, clientSecret: first.clientSecret },
    operator,
    readObject: (bucket, path) => readDataFile(ctx.buckets, bucket, path),
    streamObject: (bucket, path, use) =>
      withDataFile(ctx.buckets, bucket, path, (handle) =>
        use(
          new ReadableStream({
            async pull(controller) {
              const chunk = new Uint8Array(1 << 16);
              const { bytesRead } = await handle.read(chunk, 0, chunk.length);
              if (bytesRead === 0) controller.close();
              else controller.enqueue(chunk.subarray(0, bytesRead));
            },
          }),
        )),
    async close() {
      await ctx.runner.close();
      await ctx.serving.idle();
      store.close();
    },
  };
}

/**
 * Keeps ids stable across restarts: an account configured again without an
 * explicit id (matched by name) keeps its stored id, so its resources stay
 * its own; with no accounts configured, the stored setup is reused whole.
 */
function stableOperator(
  fresh: Operator,
  stored: Operator | undefined,
): Operator {
  if (!stored) return fresh;
  const configuredDefault = fresh.accounts.length === 1 &&
    fresh.accounts[0].name === "Local account";
  const organisations = fresh.organisations.map((org) => {
    const old = stored.organisations.find((s) => s.name === org.name);
    return old && org.id.startsWith("org_") ? { ...org, id: old.id } : org;
  });
  const accounts = fresh.accounts.map((a) => {
    const old = stored.accounts.find((s) => s.name === a.name);
    const organisation = organisations.find((g) =>
      g.name === a.organisation.name
    ) ?? a.organisation;
    if (!old) return { ...a, organisation };
    // A default account with random credentials keeps its stored credentials too.
    const randomCredentials = configuredDefault &&
      a.credentials[0].clientId.startsWith("local-");
    return {
      ...a,
      id: a.id.startsWith("acc_") ? old.id : a.id,
      created_at: old.created_at,
      organisation,
      credentials: randomCredentials ? old.credentials : a.credentials,
    };
  });
  return { organisations, accounts };
}

/** After a restart: interrupted jobs end FAILED, deployments load again. */
function recover(ctx: PlatformContext): void {
  const message =
    "The local platform restarted while this job ran, so the job was stopped; create the job again.";
  for (const kind of JOB_KINDS) {
    for (const job of ctx.store.all(kind)) {
      if (job.body.status !== "STARTING" && job.body.status !== "RUNNING") {
        continue;
      }
      updateRecord(ctx.store, kind, job.id, { status: "FAILED", message });
      if (isOfKind(job, "viewsBatchJobs")) {
        // What a killed batch left under its temporary name goes too.
        try {
          removeBatchLeftovers(ctx, job);
        } catch (error) {
          ctx.log(`removing what views batch job ${job.id} left failed`, error);
        }
      }
      const produces = KINDS[kind].produces;
      const ref = idOf(job.body[produces.field]);
      const artifact = ref ? ctx.store.get(produces.kind, ref) : undefined;
      if (ref && artifact?.body.status === "PENDING") {
        updateRecord(ctx.store, produces.kind, ref, { status: "FAILED" }, {
          failure: message,
        });
      }
    }
  }
  for (const dm of ctx.store.all("deployedModels")) {
    if (dm.body.status === "RUNNING" || dm.body.status === "STARTING") {
      updateRecord(ctx.store, "deployedModels", dm.id, { status: "STARTING" });
      ctx.serving.deploy(dm.id);
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = { ...o };
  for (const [key, value] of Object.entries(out)) {
    if (value === undefined) Reflect.deleteProperty(out, key);
  }
  return out;
}

/** Whether a stored setting is an operator setup (written by an earlier start). */
function isOperator(value: unknown): value is Operator {
  return typeof value === "object" && value !== null &&
    "accounts" in value && Array.isArray(value.accounts) &&
    "organisations" in value && Array.isArray(value.organisations);
}
