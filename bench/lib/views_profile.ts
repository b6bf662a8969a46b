/**
 * Where a one-row views call's server time goes: starts the CLI server
 * under `deno run --cpu-prof`, deploys the penguins model, loads it with
 * `wrk` (one penguins row, a bearer token, `-t2 -c<connections>`), stops the
 * server and reads its profile, keeping only the samples of the wrk window.
 * Prints the server's CPU µs a request and the functions by self time and by
 * inclusive time (shares of the busy, non-idle samples).
 *
 * `deno run -A bench/lib/views_profile.ts [--seconds 8] [--connections 64] [--top 30] [--interval 100]`
 * (the sampling interval in µs)
 *
 * @module
 */
import { connect } from "../../mod.ts";
import { rawToken, startCliServer, type ViewsTarget } from "../api_views.ts";
import { wrkPostScript } from "../lines/load.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { cpuSeconds } from "./proc.ts";

interface ProfileNode {
  id: number;
  callFrame: {
    functionName: string;
    url: string;
    lineNumber: number;
  };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self and inclusive sample counts per function, over `[from, to]` µs of the profile's clock. */
export function summarize(
  profile: CpuProfile,
  from: number,
  to: number,
): { busy: number; self: Map<string, number>; total: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const name = (n: ProfileNode) => {
    const f = n.callFrame;
    const file = f.url.replace(/^.*\/(src|bench|node_modules|ext)\//, "$1/")
      .replace(/^file:\/\/\//, "");
    return `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let t = profile.startTime;
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    const leaf = byId.get(profile.samples[i])!;
    const fn = leaf.callFrame.functionName;
    if (fn === "(idle)") continue;
    busy++;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (
      let id: number | undefined = leaf.id;
      id !== undefined;
      id = parent.get(id)
    ) {
      const key = name(byId.get(id)!);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + 1);
    }
  }
  return { busy, self, total };
}

async function wrk(args: string[]): Promise<string> {
  const out = await new Deno.Command("wrk", { args, stderr: "inherit" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

if (import.meta.main) {
  const at = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const seconds = Number(at("--seconds") ?? 8);
  const connections = Number(at("--connections") ?? 64);
  const top = Number(at("--top") ?? 30);
  const dir = at("--dir") ?? await Deno.makeTempDir({ prefix: "views_prof" });
  const server = await startCliServer(BUCKETS, 60_000, [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
    `--cpu-prof-interval=${at("--interval") ?? 100}`,
  ]);
  const target: ViewsTarget = {
    ml: connect({
      baseUrl: server.baseUrl,
      ...server.credentials,
      progress: false,
    }),
    baseUrl: server.baseUrl,
    send: (r) => fetch(r),
    credentials: server.credentials,
    close: () => server.stop(),
    pid: server.pid,
  };
  const deployment = await deployPenguins(target, 64);
  const token = await rawToken(target);
  const body = JSON.stringify(deployment.query(await penguinsQuery(1)).body());
  const script = await wrkPostScript(body, token);
  const url = `${target.baseUrl}/deployed-models/${deployment.id}/views`;
  await wrk(["-t2", "-c8", "-d2s", "-s", script, url]); // warm-up
  const t0 = performance.now();
  const cpu0 = cpuSeconds(server.pid);
  const out = await wrk([
    "-t2",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    "-s",
    script,
    url,
  ]);
  const cpu = cpuSeconds(server.pid) - cpu0;
  const t1 = performance.now();
  await server.stop();
  const t2 = performance.now();
  const requests = Number(out.match(/(\d+) requests in/)?.[1]);
  console.log(out.trim());
  console.log(
    `server CPU ${(cpu * 1e6 / requests).toFixed(1)} µs a request (${
      cpu.toFixed(2)
    } s over ${requests} requests); load ${Deno.loadavg().join(" ")}`,
  );
  const file = [...Deno.readDirSync(dir)].map((e) =>
    e.name
  ).filter((n) => n.endsWith(".cpuprofile")).map((n) =>
    `${dir}/${n}`
  ).sort((a, b) => Deno.statSync(b).size - Deno.statSync(a).size)[0];
  const profile: CpuProfile = JSON.parse(Deno.readTextFileSync(file));
  // The profile's clock ends at the exit: map the wrk window onto it.
  const to = profile.endTime - (t2 - t1) * 1000;
  const from = to - (t1 - t0) * 1000;
  const { busy, self, total } = summarize(profile, from + 2e5, to - 1e5);
  const show = (title: string, m: Map<string, number>) => {
    console.log(`\n${title} (${busy} busy samples)`);
    for (
      const [k, v] of [...m].sort((a, b) =>
        b[1] - a[1]
      ).slice(0, top)
    ) {
      console.log(`${(100 * v / busy).toFixed(1).padStart(6)}%  ${k}`);
    }
  };
  show("self", self);
  show("inclusive", total);
  console.log(`\nprofile: ${file}`);
  await Deno.remove(script);
}
