/**
 * Fuzzing the local platform with fast-check (`deno task fuzz`): generated
 * requests against every route, through the app's own fetch (the HTTP layer
 * included: methods, paths, query strings, headers, content types, raw
 * bodies). Bodies are valid templates mutated (fields dropped, retyped,
 * unknown fields, prototype keys such as `__proto__` and `constructor`), any
 * JSON, malformed JSON, invalid UTF-8, deep nesting, huge strings and arrays
 * and bodies over the size limit; ids are real, foreign, malformed or
 * prototype names; the bucket holds generated bad CSV files (and a link out
 * of the bucket, and a folder) for ingestion jobs to read.
 *
 * Every answer must be a success with a JSON body (or none for 202/204) or a
 * 4xx with a JSON `message` and `error_code`; no 5xx, no answer slower than
 * the hang bound, no unexpected error logged. A refused POST or DELETE must
 * leave every collection unchanged, and at the end the SQLite file must hold
 * exactly what the API lists.
 *
 * ```sh
 * deno task fuzz                       # 10,000 requests, seed 1
 * deno task fuzz --requests=2000 --seed=7
 * FUZZ_TRACE=404 deno task fuzz --requests=300   # print each 404 and its request
 * ```
 *
 * @module
 */
import fc from "fast-check";
import { connect } from "../src/platform.ts";
import {
  createLocalPlatform,
  type LocalPlatform,
} from "../src/local/local_platform.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import type { Hyperparameters } from "../src/builders/hyperparameters.ts";
import { isKind, type Route, routes } from "../src/schemas/mod.ts";
import {
  intArg,
  listAll,
  listedCollections,
  tokenRequest,
} from "./lib/local_account.ts";

/** What a fuzz run saw. */
export interface FuzzFigure {
  /** Requests sent. */
  requests: number;
  /** Answers per status. */
  statuses: Record<number, number>;
  /** Answers with a 5xx status. */
  serverErrors: number;
  /** Every broken rule, with the request that broke it. */
  problems: string[];
}

/** One operation of the route table (or a made-up one). */
interface Op {
  group: string;
  name: string;
  route: Route;
}

const OPS: Op[] = Object.entries(routes).flatMap(([group, ops]) =>
  Object.entries(ops as Record<string, Route>).map(([name, route]) => ({
    group,
    name,
    route,
  }))
);

/** Ids that are not ids: prototype names, traversal, junk, huge. */
const BAD_IDS = [
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "toString",
  "../../etc/passwd",
  "%2e%2e%2f%2e%2e%2f",
  "%00",
  "a".repeat(5000),
  " ",
  "ws_00000000000000000000000000000000",
  "null",
  "undefined",
  "[]",
  "{}",
];

const PROTO_KEYS = ["__proto__", "constructor", "hasOwnProperty", "prototype"];

/** Penguin feature columns, for views queries. */
const PENGUIN_QUERY = {
  island: ["Biscoe", "Dream"],
  bill_length_mm: [46.5, 49.3],
  bill_depth_mm: [15.0, 19.5],
  flipper_length_mm: [214, 203],
  body_mass_g: [5200, 4050],
  sex: ["female", "male"],
};

/** The generated plan of one request; ids and names resolve when it runs. */
interface Plan {
  op: number;
  method?: string;
  id: number | string;
  query: [string, string][];
  auth: string;
  contentType: string;
  workspace: number | string;
  body:
    | { kind: "template"; mutations: Mutation[] }
    | { kind: "json"; value: unknown }
    | { kind: "text"; text: string }
    | { kind: "deep"; levels: number }
    | { kind: "hugeString"; length: number }
    | { kind: "hugeArray"; length: number }
    | { kind: "proto"; key: string; value: unknown; nested: boolean }
    | { kind: "bytes"; bytes: number[] }
    | { kind: "none" };
  name: number;
  pick: number;
  csv: number;
}

interface Mutation {
  op: "delete" | "set" | "add";
  key: number | string;
  value: unknown;
}

/** Arbitrary request plans. */
function planArbitrary(csvCount: number): fc.Arbitrary<Plan> {
  const json = fc.jsonValue({ maxDepth: 3 });
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    op: fc.constantFrom("delete", "set", "add"),
    key: fc.oneof(
      fc.nat(20),
      fc.constantFrom(...PROTO_KEYS, "unknown_field", "id", "account"),
    ),
    value: fc.oneof(
      json,
      fc.constantFrom(...BAD_IDS),
      fc.double(),
      fc.constantFrom(1e12, -1, 0, Number.MAX_SAFE_INTEGER),
    ),
  });
  return fc.record({
    op: fc.nat(OPS.length), // OPS.length: a made-up path
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "PUT",
          "PATCH",
          "GET",
          "POST",
          "DELETE",
          "HEAD",
        ),
      },
    ),
    id: fc.oneof(
      { weight: 6, arbitrary: fc.nat(50) },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_IDS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    ),
    query: fc.array(
      fc.tuple(
        fc.constantFrom("page", "items_per_page", ...PROTO_KEYS, "x"),
        fc.oneof(
          fc.string({ maxLength: 10 }),
          fc.integer().map(String),
          fc.constantFrom("1e12", "-1", "NaN", "0x10", "1.5", "0", ""),
        ),
      ),
      { maxLength: 3 },
    ),
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant("valid") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "none",
          "garbage",
          "basic",
          "huge",
          "tampered",
          "lowercase",
          "empty-bearer",
          "two-tokens",
        ),
      },
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant("application/json") },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "application/json; charset=utf-8",
          "APPLICATION/JSON",
          "text/plain",
          "none",
          "application/x-www-form-urlencoded",
          "application/json; charset=latin1",
          "multipart/form-data; boundary=x",
          "application/problem+json",
        ),
      },
    ),
    workspace: fc.oneof(
      { weight: 8, arbitrary: fc.nat(10) },
      { weight: 1, arbitrary: fc.constantFrom(...BAD_IDS, "") },
    ),
    body: fc.oneof(
      {
        weight: 14,
        arbitrary: fc.record({
          kind: fc.constant("template" as const),
          mutations: fc.array(mutation, { maxLength: 3 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant("json" as const),
          value: json,
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("text" as const),
          text: fc.oneof(
            fc.string({ maxLength: 200 }),
            fc.constantFrom(
              "{",
              '{"a":',
              "[1,2",
              "nul",
              '{"name":"x"}}',
              "\u0000",
            ),
          ),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("deep" as const),
          levels: fc.integer({ min: 30, max: 20_000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("hugeString" as const),
          length: fc.integer({ min: 10_000, max: 400_000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("hugeArray" as const),
          length: fc.integer({ min: 1_000, max: 60_000 }),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant("proto" as const),
          key: fc.constantFrom(...PROTO_KEYS),
          value: json,
          nested: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("bytes" as const),
          bytes: fc.array(fc.nat(255), { maxLength: 64 }),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    ),
    name: fc.nat(30),
    pick: fc.nat(1000),
    csv: fc.nat(csvCount - 1),
  });
}

/** Generated CSV contents for the bucket: broken in many ways. */
function csvArbitrary(): fc.Arbitrary<string> {
  const cell = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.double().map(String),
    fc.constantFrom(
      '"',
      '""',
      '"a,b"',
      "\r",
      "\n",
      "NA",
      "",
      "\uFEFF",
      "\u0000",
    ),
    fc.constantFrom(...PROTO_KEYS),
  );
  const line = fc.array(cell, { minLength: 0, maxLength: 9 }).map((c) =>
    c.join(",")
  );
  return fc.oneof(
    fc.array(line, { maxLength: 30 }).map((l) => l.join("\n")),
    fc.array(line, { maxLength: 30 }).map((l) =>
      ["species,island,bill_length_mm,__proto__,constructor", ...l].join("\n")
    ),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.constant(""),
    fc.constant("species\n"),
    fc.constant(`${"x".repeat(200_000)}\n1\n`),
  );
}

/**
 * Runs `requests` generated requests (seeded) against a fresh local
 * platform persisted in a temporary folder.
 *
 * @example
 * ```ts ignore
 * import { fuzz } from "./fuzz.ts";
 * const figure = await fuzz({ requests: 200, seed: 1 });
 * if (figure.serverErrors || figure.problems.length) throw new Error(figure.problems[0]);
 * ```
 */
export async function fuzz(options: {
  requests: number;
  seed: number;
  log?: (line: string) => void;
  hangMs?: number;
  /**
   * Hyperparameters of the seed workflow's quickstart (default: the
   * model's). The fuzz needs a model to refer to, not a good one.
   */
  training?: Hyperparameters;
}): Promise<FuzzFigure> {
  const log = options.log ?? (() => {});
  const hangMs = options.hangMs ?? 20_000;
  const trace = Deno.env.get("FUZZ_TRACE");
  const bucket = await Deno.makeTempDir({ prefix: "fuzz-bucket-" });
  const dataDir = await Deno.makeTempDir({ prefix: "fuzz-data-" });
  const outside = await Deno.makeTempFile({ prefix: "fuzz-outside-" });
  const unexpected: string[] = [];
  const figure: FuzzFigure = {
    requests: 0,
    statuses: {},
    serverErrors: 0,
    problems: [],
  };
  let platform: LocalPlatform | undefined;
  try {
    await Deno.copyFile(
      new URL("../datasets/penguins.csv", import.meta.url),
      `${bucket}/penguins.csv`,
    );
    const csvs = fc.sample(csvArbitrary(), {
      numRuns: 30,
      seed: options.seed,
    });
    const files = ["penguins.csv", "link.csv", "folder.csv", "missing.csv"];
    for (const [i, text] of csvs.entries()) {
      await Deno.writeTextFile(`${bucket}/bad${i}.csv`, text);
      files.push(`bad${i}.csv`);
    }
    await Deno.writeTextFile(outside, "species\nOUTSIDE\n");
    await Deno.symlink(outside, `${bucket}/link.csv`);
    await Deno.mkdir(`${bucket}/folder.csv`);

    platform = await createLocalPlatform({
      buckets: { demo: bucket },
      dataDir,
      limits: { maxBodyBytes: 256 * 1024 },
      logger: (message, error) =>
        unexpected.push(`${message} ${(error as Error)?.stack ?? error}`),
    });
    const p = platform;
    // A full workflow first, so that references can be real and views run.
    await connect({
      baseUrl: p.baseUrl,
      ...p.credentials,
      fetch: (input, init) => p.fetch(new Request(input, init)),
      pollInterval: 10,
    }).quickstart({
      bucket: "demo",
      path: "penguins.csv",
      sample: `${bucket}/penguins.csv`,
      target: "species",
      name: "seed",
      ...(options.training ? { training: options.training } : {}),
    });
    const tokenOf = async () => {
      const res = await p.fetch(tokenRequest(p));
      return (await res.json()).access_token as string;
    };
    const token = await tokenOf();
    /** Ids per collection, as the API lists them. */
    const snapshot = async (): Promise<Record<string, string[]>> => {
      const out: Record<string, string[]> = {};
      for (const { group, path } of listedCollections()) {
        const items = await listAll<{ id: string }>(path, async (url) => {
          const res = await p.fetch(
            new Request(`${p.baseUrl}${url}`, {
              headers: { Authorization: `Bearer ${token}` },
            }),
          );
          return await res.json();
        });
        out[group] = items.map((r) => r.id);
      }
      return out;
    };
    let state = await snapshot();
    const pick = (group: string, n: number) => {
      const ids = state[group] ?? [];
      return ids.length ? ids[n % ids.length] : `missing_${n}`;
    };
    const anyId = (n: number) => {
      const all = Object.values(state).flat();
      return all.length ? all[n % all.length] : "none";
    };

    const run = async (plan: Plan): Promise<void> => {
      const op = OPS[plan.op];
      const route: Route = op?.route ??
        {
          method: "GET",
          path: "/no-such-things/{id}",
          status: 200,
          summary: "",
        };
      const group = op?.group ?? "none";
      const method = plan.method ?? route.method;
      const id = typeof plan.id === "number"
        ? (plan.id % 5 === 4 ? anyId(plan.id) : pick(group, plan.id))
        : plan.id;
      let path = route.path.replace("{id}", encodeURIComponent(id));
      if (plan.query.length) {
        path += `?${new URLSearchParams(plan.query)}`;
      }
      const headers = new Headers();
      const auth: Record<string, string | undefined> = {
        valid: `Bearer ${token}`,
        none: undefined,
        garbage: "Bearer garbage.garbage.garbage",
        basic: `Basic ${btoa("a:b")}`,
        huge: `Bearer ${"a".repeat(100_000)}`,
        tampered: `Bearer ${token.slice(0, -3)}abc`,
        lowercase: `bearer ${token}`,
        "empty-bearer": "Bearer ",
        "two-tokens": `Bearer ${token} ${token}`,
      };
      if (auth[plan.auth] !== undefined) {
        headers.set("Authorization", auth[plan.auth]!);
      }
      if (plan.contentType !== "none") {
        headers.set("Content-Type", plan.contentType);
      }
      if (route.workspace) {
        headers.set(
          "X-Active-Workspace",
          typeof plan.workspace === "number"
            ? pick("workspaces", plan.workspace)
            : plan.workspace,
        );
      }
      const body = method === "GET" || method === "HEAD"
        ? undefined
        : bodyOf(plan, group, route, pick, files);
      if (body === undefined && plan.contentType === "application/json") {
        headers.delete("Content-Type");
      }
      const request = new Request(`${p.baseUrl}${path}`, {
        method,
        headers,
        body,
      });
      const label = `${method} ${
        path.slice(0, 120)
      } [${plan.body.kind}, auth ${plan.auth}, ${plan.contentType}]`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answer = await Promise.race([
        p.fetch(request).then(async (res) => ({
          status: res.status,
          text: await res.text(),
        })),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), hangMs);
        }),
      ]).finally(() => clearTimeout(timer));
      figure.requests++;
      if (!answer) {
        figure.problems.push(`no answer within ${hangMs} ms: ${label}`);
        return;
      }
      const { status, text } = answer;
      figure.statuses[status] = (figure.statuses[status] ?? 0) + 1;
      if (trace === String(status)) log(`${label} ${text.slice(0, 160)}`);
      if (status >= 500) {
        figure.serverErrors++;
        figure.problems.push(`${status} ${text.slice(0, 300)}: ${label}`);
        return;
      }
      let parsed: Record<string, unknown> | undefined;
      if (text !== "") {
        try {
          parsed = JSON.parse(text);
        } catch {
          figure.problems.push(`${status} body is not JSON: ${label}`);
          return;
        }
      } else if (status !== 204 && status !== 202 && method !== "HEAD") {
        figure.problems.push(`${status} with an empty body: ${label}`);
        return;
      }
      if (status >= 400 && method !== "HEAD") {
        if (
          typeof parsed?.message !== "string" ||
          typeof parsed?.error_code !== "string"
        ) {
          figure.problems.push(
            `${status} without message and error_code: ${label}`,
          );
          return;
        }
      }
      if (method === "POST" || method === "DELETE") {
        const after = await snapshot();
        if (status >= 400 && JSON.stringify(after) !== JSON.stringify(state)) {
          figure.problems.push(
            `refused with ${status} but the state changed: ${label}`,
          );
        }
        state = after;
      }
    };

    await fc.assert(
      fc.asyncProperty(planArbitrary(files.length), async (plan) => {
        const before = figure.problems.length;
        await run(plan);
        if (figure.requests % 1000 === 0) {
          log(
            `${figure.requests} requests, ${figure.problems.length} problems`,
          );
        }
        return figure.problems.length === before ||
          figure.problems.length > 20; // keep going; report them all at the end
      }),
      {
        numRuns: options.requests,
        seed: options.seed,
        endOnFailure: true,
      },
    ).catch((error) => {
      figure.problems.push(
        `fast-check: ${(error as Error).message.slice(0, 2000)}`,
      );
    });
    // Wait for jobs started by the fuzz to end, then compare with SQLite.
    for (let i = 0; i < 600; i++) {
      const jobs = await Promise.all(
        ["ingestionJobs", "onboardingJobs", "trainingJobs"].map(async (g) => {
          const path = (routes as Record<string, Record<string, Route>>)[g]
            .list.path;
          const res = await p.fetch(
            new Request(`${p.baseUrl}${path}?items_per_page=100`, {
              headers: { Authorization: `Bearer ${token}` },
            }),
          );
          return (await res.json()).data as {
            status: string;
            message?: string;
          }[];
        }),
      );
      const flat = jobs.flat();
      for (const job of flat) {
        if (String(job.message ?? "").includes("OUTSIDE")) {
          figure.problems.push(`a job read outside the bucket: ${job.message}`);
        }
      }
      if (flat.every((j) => !["STARTING", "RUNNING"].includes(j.status))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const final = await snapshot();
    await p.close();
    platform = undefined;
    const store = await openSqliteStore(dataDir);
    try {
      for (const [group, ids] of Object.entries(final)) {
        const stored = isKind(group) ? store.all(group).map((r) => r.id) : [];
        if (
          JSON.stringify([...stored].sort()) !== JSON.stringify([...ids].sort())
        ) {
          figure.problems.push(
            `SQLite holds ${stored.length} ${group}, the API listed ${ids.length}`,
          );
        }
      }
    } finally {
      store.close();
    }
    for (const message of unexpected) {
      figure.problems.push(`unexpected error logged: ${message.slice(0, 500)}`);
    }
    return figure;
  } finally {
    await platform?.close();
    await Deno.remove(bucket, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(outside);
  }
}

/** The request body of a plan (a string, bytes, or none). */
function bodyOf(
  plan: Plan,
  group: string,
  route: Route,
  pick: (group: string, n: number) => string,
  files: string[],
): string | Uint8Array<ArrayBuffer> | undefined {
  const b = plan.body;
  switch (b.kind) {
    case "none":
      return undefined;
    case "json":
      return JSON.stringify(b.value);
    case "text":
      return b.text;
    case "bytes":
      return new Uint8Array(b.bytes);
    case "deep":
      return `{"name":"deep","feature_groups":${"[".repeat(b.levels)}${
        "]".repeat(b.levels)
      }}`;
    case "hugeString":
      return JSON.stringify({
        ...template(plan, group, route, pick, files),
        name: "x".repeat(b.length),
      });
    case "hugeArray":
      return JSON.stringify({
        ...template(plan, group, route, pick, files),
        feature_groups: Array.from({ length: b.length }, (_, i) => i),
        targets: Array.from({ length: b.length }, (_, i) => `t${i}`),
      });
    case "proto": {
      const base = JSON.stringify(template(plan, group, route, pick, files));
      const inject = `${JSON.stringify(b.key)}:${
        JSON.stringify(b.value ?? null)
      }`;
      if (b.nested && base.includes('"query":{')) {
        return base.replace('"query":{', `"query":{${inject},`);
      }
      return base === "{}" ? `{${inject}}` : `{${inject},${base.slice(1)}`;
    }
    case "template": {
      const body: Record<string, unknown> = template(
        plan,
        group,
        route,
        pick,
        files,
      );
      const keys = Object.keys(body);
      for (const m of b.mutations) {
        const key = typeof m.key === "number"
          ? keys[m.key % Math.max(keys.length, 1)] ?? "name"
          : m.key;
        if (m.op === "delete") delete body[key];
        else {Object.defineProperty(body, key, {
            value: m.value,
            enumerable: true,
            configurable: true,
            writable: true,
          });}
      }
      return JSON.stringify(body);
    }
  }
}

/** A valid body for the route, with references to existing resources. */
function template(
  plan: Plan,
  group: string,
  route: Route,
  pick: (group: string, n: number) => string,
  files: string[],
): Record<string, unknown> {
  const name = `n${plan.name}`;
  const ref = (g: string) => pick(g, plan.pick);
  if (group === "deployedModels" && route.views) {
    return { data: [{ view_type: "RESULTS" }], query: PENGUIN_QUERY };
  }
  if (group === "auth") {
    return {
      grant_type: "client_credentials",
      client_id: "x",
      client_secret: "y",
    };
  }
  switch (group) {
    case "storageConnectors":
      return { name, bucket_name: plan.pick % 7 ? "demo" : "nope" };
    case "computeConfigurations":
      return {
        name,
        machine_type: "ml.m5.large",
        compute_type: plan.pick % 2 ? "PROCESSING" : "TRAINING",
      };
    case "dataSchemas":
      return {
        name,
        fields: [["species", "STRING"], ["island", "STRING"], [
          ["bill_length_mm", "__proto__", "constructor"][plan.pick % 3],
          "NUMBER",
        ]].map(([n, t], i) => ({
          name: n,
          data_type: t === "NUMBER"
            ? { data_type: "NUMBER", format: "FLOAT64" }
            : { data_type: "STRING", format: null },
          designation: i === 0 ? "TARGET" : "FEATURE",
          semantic_type: t === "NUMBER" ? "CONTINUOUS" : "CATEGORICAL",
        })),
      };
    case "ingestionConfigurations":
      return { name, data_schema_id: ref("dataSchemas") };
    case "ingestionJobs":
      return {
        name,
        compute_configuration_id: ref("computeConfigurations"),
        data_processing_configuration_id: ref("ingestionConfigurations"),
        storage_connector_id: ref("storageConnectors"),
        data_path: files[plan.csv],
        datasource_name: `${name}-src`,
      };
    case "onboardingConfigurations":
      return { name, targets: ["species"] };
    case "onboardingJobs":
      return {
        name,
        compute_configuration_id: ref("computeConfigurations"),
        data_processing_configuration_id: ref("onboardingConfigurations"),
        datasource_id: ref("datasources"),
        dataset_name: `${name}-set`,
      };
    case "workspaces":
      return { name };
    case "trainingConfigurations":
      return {
        name,
        model_training_type: "EBM",
        max_rounds: [10, 1e12, -1, 0.5][plan.pick % 4],
      };
    case "trainingJobs":
      return {
        name,
        dataset_id: ref("datasets"),
        training_configuration_id: ref("trainingConfigurations"),
        compute_configuration_id: ref("computeConfigurations"),
        model_name: `${name}-model`,
      };
    case "deploymentConfigurations":
      return { name, maximum_concurrency: 2 };
    case "deployedModels":
      return {
        name,
        model_id: ref("models"),
        deployment_configuration_id: ref("deploymentConfigurations"),
      };
    default:
      return {};
  }
}

if (import.meta.main) {
  const requests = intArg("requests", 10_000);
  const seed = intArg("seed", 1);
  const started = performance.now();
  const figure = await fuzz({ requests, seed, log: console.log });
  for (const problem of figure.problems) console.log(`problem: ${problem}`);
  const statuses = Object.entries(figure.statuses).sort().map(([s, n]) =>
    `${s}: ${n}`
  ).join(", ");
  console.log(
    `took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(
    `fuzz: ${figure.requests} generated requests (seed ${seed}), statuses {${statuses}}, ${figure.serverErrors} 5xx, ${figure.problems.length} problems`,
  );
  Deno.exit(figure.problems.length ? 1 : 0);
}
