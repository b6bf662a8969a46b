/**
 * Line 1, client overhead: the SDK's call against a raw `fetch` +
 * `JSON.parse` of the same request to the same server, for a GET of one
 * workspace, a workspace create, a list page and a one-row views call, over
 * HTTP (the CLI server, `deno task local`, as a subprocess) and in-process
 * (`local()`; the raw side calls the app's fetch). Every case runs once per
 * round in a rotating order; a sample is the mean of a batch of calls and
 * the figure is the median of the per-round ratios SDK/raw.
 *
 * Run alone: `deno run -A scripts/bench.ts --only 1`.
 *
 * @module
 */
import {
  httpTarget,
  inProcessTarget,
  rawToken,
  type ViewsTarget,
} from "../api_views.ts";
import { type Figure, type LineResult, ratioFigure } from "../lib/figures.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "../lib/penguins.ts";
import { interleave, median } from "../lib/stats.ts";

/** Options of {@linkcode overheadLine}. */
export interface OverheadOptions {
  /** Rounds per target (default 60). */
  rounds?: number;
  /** Calls per sample (default 20). */
  batch?: number;
  /** Targets measured (default both). */
  targets?: ("http" | "in-process")[];
  /** Untimed rounds first (default 3). */
  warmup?: number;
  /** Calls measured (default all four), e.g. `["views"]` to look at one alone. */
  ops?: (keyof typeof LABELS)[];
}

/** Issue 23 (item 5) tightened the goal from 1.10x to 1.05x. */
const GOAL = { max: 1.05 };

/** The SDK and raw cases of one target. */
async function cases(target: ViewsTarget, where: "http" | "in-process") {
  const { ml, baseUrl, send } = target;
  const deployment = await deployPenguins(target);
  const row = await penguinsQuery(1);
  const token = await rawToken(target);
  const workspace = await ml.workspaces.create({ name: "bench-overhead" });
  // What a careful raw caller sends: the SDK's own body bytes and headers.
  const viewsBody = JSON.stringify(deployment.query(row).body());
  const auth = { accept: "application/json", authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  // Over HTTP the raw side calls fetch(url, init), as a user would (a
  // Request object first costs about 10 µs more a call); in-process the
  // app's fetch takes a Request.
  const raw = async (method: string, path: string, body?: string) => {
    const init = { method, headers: body === undefined ? auth : json, body };
    const res = where === "http"
      ? await fetch(`${baseUrl}${path}`, init)
      : await send(new Request(`${baseUrl}${path}`, init));
    const value = JSON.parse(await res.text());
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${value}`);
    }
    return value;
  };
  let n = 0;
  return {
    get: {
      sdk: () => ml.workspaces.get(workspace.id),
      raw: () => raw("GET", `/workspaces/${workspace.id}`),
    },
    create: {
      sdk: () => ml.workspaces.create({ name: `bench-sdk-${n++}` }),
      raw: () =>
        raw(
          "POST",
          "/workspaces",
          JSON.stringify({ name: `bench-raw-${n++}` }),
        ),
    },
    list: {
      sdk: () => ml.workspaces.list(),
      raw: () => raw("GET", "/workspaces?page=1&items_per_page=10"),
    },
    views: {
      sdk: () => deployment.views(row),
      raw: () =>
        raw("POST", `/deployed-models/${deployment.id}/views`, viewsBody),
    },
  };
}

const LABELS = {
  get: "GET one workspace",
  create: "create a workspace",
  list: "list page (10 workspaces)",
  views: "views, one row",
} as const;

/**
 * Measures line 1 on both targets.
 */
export async function overheadLine(
  options: OverheadOptions = {},
): Promise<LineResult> {
  const figures: Figure[] = [];
  for (
    const [where, open] of [
      ["http", httpTarget],
      ["in-process", inProcessTarget],
    ] as const
  ) {
    if (options.targets && !options.targets.includes(where)) continue;
    const target = await open(BUCKETS);
    try {
      const all = await cases(target, where);
      const flat: Record<string, () => unknown> = {};
      for (const [op, c] of Object.entries(all)) {
        if (options.ops && !options.ops.includes(op as keyof typeof LABELS)) {
          continue;
        }
        flat[`${op}.sdk`] = c.sdk;
        flat[`${op}.raw`] = c.raw;
      }
      const samples = await interleave(flat, {
        rounds: options.rounds ?? 60,
        batch: options.batch ?? 20,
        warmup: options.warmup ?? 3,
      });
      for (const op of Object.keys(all) as (keyof typeof LABELS)[]) {
        if (!flat[`${op}.sdk`]) continue;
        const sdk = samples[`${op}.sdk`];
        const raw = samples[`${op}.raw`];
        const us = (xs: number[]) => `${(median(xs) * 1000).toFixed(0)} µs`;
        figures.push(ratioFigure(
          {
            id: `overhead.${where}.${op}`,
            line: 1,
            label: `client overhead: ${LABELS[op]}, ${
              where === "http" ? "over HTTP" : "in-process"
            }`,
            against: "raw fetch + JSON.parse",
            goal: GOAL,
            detail: `SDK ${us(sdk)}, raw ${us(raw)} a call`,
          },
          sdk,
          raw,
        ));
      }
    } finally {
      await target.close();
    }
  }
  return { figures };
}
