/**
 * The SDK's own JavaScript per call on the path calls over HTTP take (the
 * global `fetch`, not the custom fetch `client_cost.ts` times), with the
 * global `fetch` stubbed: every case gets a `Response` made afresh from the
 * same text, so what differs between cases is the client's work above
 * `fetch`. Cases: `raw` (stub + `text()` + `JSON.parse`, body prepared),
 * `raw fresh body` (the body stringified each call), then for each tree
 * given (default: this one; `--base DIR` adds another, e.g. main's from
 * `git archive`) `transport.call` of the views route, `deployedModels.views`,
 * `deployment.views(row)` and `workspaces.get`. Figures: the main thread's
 * CPU per call (`/proc/self/task/<pid>/stat`, 10 ms ticks over `--calls`
 * calls a block), median and mean over `--rounds` rounds, cases rotated.
 *
 * `deno run -A bench/lib/transport_js_cost.ts [--rounds 12] [--calls 20000]
 * [--base DIR]`
 *
 * @module
 */
import { mainThreadCpu } from "./proc.ts";
import { median } from "./stats.ts";

const TABLE = JSON.stringify({
  columns: ["prediction.species", "probability.species.Adelie"],
  index: [0],
  data: [["Adelie", 0.9]],
});
const TOKEN = JSON.stringify({
  access_token: "tok",
  token_type: "Bearer",
  expires_in: 3600,
});
const WORKSPACE = JSON.stringify({
  id: "ws_1",
  name: "w",
  created_at: "2024-01-01T00:00:00Z",
  account: { id: "acc" },
  created_by: { id: "u" },
});
const RESOURCE = {
  id: "dm_1",
  name: "p",
  status: "RUNNING",
  model: { id: "m_1" },
  deployment_configuration: { id: "dc_1" },
  tags: [],
  account: { id: "acc" },
  created_at: "2024-01-01T00:00:00Z",
  created_by: { id: "u" },
};

if (import.meta.main) {
  const arg = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const rounds = Number(arg("--rounds") ?? 12);
  const calls = Number(arg("--calls") ?? 20_000);
  const base = arg("--base");
  globalThis.fetch = ((input: string) => {
    const url = String(input);
    const text = url.endsWith("/oauth/token")
      ? TOKEN
      : url.includes("/workspaces/")
      ? WORKSPACE
      : TABLE;
    return Promise.resolve(new Response(text, { status: 200 }));
  }) as typeof fetch;
  const row = { bill_length_mm: [39.1], island: ["Torgersen"] };
  const body = { data: [{ view_type: "RESULTS" }], query: row };
  const prepared = JSON.stringify(body);
  const send = async (text: string) => {
    const res = await fetch("http://127.0.0.1:9/views", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    return JSON.parse(await res.text());
  };
  const cases: Record<string, () => Promise<unknown>> = {
    "raw": () => send(prepared),
    "raw fresh body": () => send(JSON.stringify(body)),
  };
  const trees = base ? [".", base] : ["."];
  for (const [i, tree] of trees.entries()) {
    const root = new URL(`file://${Deno.realPathSync(tree)}/`);
    const at = (path: string) => import(new URL(path, root).href);
    const { connect } = await at("mod.ts");
    const { routes } = await at("src/schemas/routes.ts");
    const { Deployment } = await at("src/builders/deployment.ts");
    const ml = connect({
      baseUrl: "http://127.0.0.1:9",
      clientId: "a",
      clientSecret: "b",
      progress: false,
    });
    const transport = ml.deployedModels.transport;
    const deployment = new Deployment(ml, RESOURCE, {
      features: ["bill_length_mm", "island"],
      targets: ["species"],
    });
    await deployment.views(row);
    const tag = base ? (i === 0 ? "" : "base ") : "";
    cases[`${tag}transport.call`] = () =>
      transport.call(routes.deployedModels.views, {
        params: { id: "dm_1" },
        body,
        validated: true,
      });
    cases[`${tag}deployedModels.views`] = () =>
      ml.deployedModels.views("dm_1", body, { validated: true });
    cases[`${tag}deployment.views`] = () => deployment.views(row);
    cases[`${tag}workspaces.get`] = () => ml.workspaces.get("ws_1");
  }
  const names = Object.keys(cases);
  const cpu: Record<string, number[]> = {};
  for (const n of names) cpu[n] = [];
  for (let round = -1; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round + names.length) % names.length];
      const c0 = mainThreadCpu();
      for (let i = 0; i < calls; i++) await cases[name]();
      if (round >= 0) cpu[name].push((mainThreadCpu() - c0) / calls);
    }
  }
  for (const n of names) {
    const mean = cpu[n].reduce((a, b) => a + b, 0) / cpu[n].length;
    console.log(
      `${n.padEnd(26)} ${
        median(cpu[n]).toFixed(2).padStart(6)
      } µs CPU median, ${mean.toFixed(2)} mean`,
    );
  }
}
