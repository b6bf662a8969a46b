/**
 * The views server beside its floors under the same wrk load, interleaved
 * round by round: the CLI server answering one-row views, a bare
 * `Deno.serve` JSON POST endpoint and the same behind a Hono route
 * (`floor_server.ts`, both answering the views server's own answer), and
 * Hono's hello world. Prints, per server, the
 * median requests a second, p99 and CPU µs a request (the process's user +
 * system time over the run, all threads, divided by the requests completed).
 *
 * `deno run -A bench/lib/load_floors.ts [--rounds 5] [--seconds 3] [--connections 64] [--base <tree>]`
 *
 * With `--base`, the CLI server of another tree of this repository (a copy
 * with the `src` of the commit to compare against; see
 * `server_cost_ab.ts`) runs beside this one's, with its own platform and
 * token, as the case `base`: the two views servers measured in the same
 * rounds.
 *
 * @module
 */
import { connect } from "../../mod.ts";
import {
  httpTarget,
  postViews,
  rawToken,
  type ServerProcess,
  startServerProcess,
  type ViewsTarget,
} from "../api_views.ts";
import { randomHex } from "../../src/local/ids.ts";
import { parseWrk, wrkPostScript, type WrkRun } from "../lines/load.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { cpuSeconds } from "./proc.ts";
import { median } from "./stats.ts";

async function wrk(
  url: string,
  connections: number,
  seconds: number,
  pid: number,
  script?: string,
): Promise<WrkRun> {
  const args = [
    "-t2",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    ...(script ? ["-s", script] : []),
    url,
  ];
  const cpu0 = cpuSeconds(pid);
  const out = await new Deno.Command("wrk", { args }).output();
  const cpu = cpuSeconds(pid) - cpu0;
  const run = parseWrk(new TextDecoder().decode(out.stdout));
  run.cpuUs = cpu * 1e6 / run.requests;
  return run;
}

/** The CLI server of the tree at `root`, as a views target. */
async function treeTarget(root: string): Promise<ViewsTarget> {
  const credentials = {
    clientId: `bench-${randomHex(6)}`,
    clientSecret: randomHex(24),
  };
  const server = await startServerProcess([
    `${root}/src/local/cli.ts`,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    ...Object.entries(BUCKETS).flatMap(([name, dir]) => [
      "--bucket",
      `${name}=${dir}`,
    ]),
  ], {
    MLP_CLIENT_ID: credentials.clientId,
    MLP_CLIENT_SECRET: credentials.clientSecret,
  });
  return {
    ml: connect({ baseUrl: server.baseUrl, ...credentials, progress: false }),
    baseUrl: server.baseUrl,
    send: (request) => fetch(request),
    credentials,
    close: () => server.stop(),
    pid: server.pid,
  };
}

if (import.meta.main) {
  const at = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const rounds = Number(at("--rounds") ?? 5);
  const seconds = Number(at("--seconds") ?? 3);
  const connections = Number(at("--connections") ?? 64);
  const baseRoot = at("--base");
  const target = await httpTarget(BUCKETS);
  const base = baseRoot ? await treeTarget(baseRoot) : undefined;
  const baseScript = await Deno.makeTempFile({ suffix: ".lua" });
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  const answer = await Deno.makeTempFile({ suffix: ".json" });
  const servers: Record<string, ServerProcess> = {};
  try {
    const deployment = await deployPenguins(target, 64);
    const token = await rawToken(target);
    const body = JSON.stringify(
      deployment.query(await penguinsQuery(1)).body(),
    );
    const path = `/deployed-models/${deployment.id}/views`;
    // The floors answer the views server's own answer (its size matters).
    const text = JSON.stringify(
      await postViews(target.send, target.baseUrl, deployment.id, token, body),
    );
    await Deno.writeTextFile(answer, text);
    for (const mode of ["hello", "post", "hono-post"]) {
      servers[mode] = await startServerProcess([
        "bench/lib/floor_server.ts",
        mode === "hello" ? "hono" : mode,
        answer,
      ]);
    }
    await wrkPostScript(body, token, script);
    const baseDeployment = base && await deployPenguins(base, 64);
    if (base) await wrkPostScript(body, await rawToken(base), baseScript);
    const cases: Record<string, () => Promise<WrkRun>> = {
      ...(base && baseDeployment
        ? {
          base: () =>
            wrk(
              `${base.baseUrl}/deployed-models/${baseDeployment.id}/views`,
              connections,
              seconds,
              base.pid!,
              baseScript,
            ),
        }
        : {}),
      views: () =>
        wrk(
          `${target.baseUrl}${path}`,
          connections,
          seconds,
          target.pid!,
          script,
        ),
      post: () =>
        wrk(
          `${servers.post.baseUrl}${path}`,
          connections,
          seconds,
          servers.post.pid,
          script,
        ),
      "hono-post": () =>
        wrk(
          `${servers["hono-post"].baseUrl}${path}`,
          connections,
          seconds,
          servers["hono-post"].pid,
          script,
        ),
      hello: () =>
        wrk(servers.hello.baseUrl, connections, seconds, servers.hello.pid),
    };
    const names = Object.keys(cases);
    for (const name of names) await cases[name](); // warm-up
    const runs: Record<string, WrkRun[]> = Object.fromEntries(
      names.map((n) => [n, []]),
    );
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r) % names.length];
        runs[name].push(await cases[name]());
      }
    }
    console.log(
      `load ${Deno.loadavg().join(" ")}; the views answer: ${
        new TextEncoder().encode(text).length
      } bytes`,
    );
    for (const name of names) {
      const m = (k: keyof WrkRun) => median(runs[name].map((x) => x[k] ?? NaN));
      const ratio = median(
        runs[name].map((x, i) => x.rps / runs.hello[i].rps),
      );
      console.log(
        `${name.padEnd(10)} ${
          Math.round(m("rps")).toString().padStart(6)
        } req/s (${ratio.toFixed(2)}x hello), p99 ${
          m("p99").toFixed(2)
        } ms, CPU ${m("cpuUs").toFixed(1)} µs a request${
          runs[name].some((x) => x.errors) ? " (errors!)" : ""
        }`,
      );
    }
  } finally {
    await Deno.remove(script).catch(() => {});
    await Deno.remove(baseScript).catch(() => {});
    await base?.close();
    await Deno.remove(answer).catch(() => {});
    for (const s of Object.values(servers)) await s.stop();
    await target.close();
  }
}
