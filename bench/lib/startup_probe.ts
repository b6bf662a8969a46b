/**
 * One start-up measurement in a fresh process (run by bench/lines/startup.ts):
 * prints the milliseconds of one step as JSON, `{"ms": 12.3}`.
 *
 * - `mod`: `await import("../../mod.ts")` (the client entry);
 * - `zod`: `await import("zod")` (the client's one runtime dependency, floor of `mod`);
 * - `local`: `local()` to a platform that has answered a first call (local.ts already imported);
 * - `hono`: import Hono, build a hello-world app, answer a first in-process request (floor of `local`);
 * - `dataframe`: the first `toDataFrame()` of a 100-row table, danfo's load included;
 * - `danfo`: `await import("danfojs-node")` alone (floor of `dataframe`).
 *
 * Run: `deno run -A bench/lib/startup_probe.ts mod`.
 *
 * @module
 */
const step = Deno.args[0];
let t0 = performance.now();
switch (step) {
  case "mod":
    await import("../../mod.ts");
    break;
  case "zod":
    await import("zod");
    break;
  case "local": {
    const { local } = await import("../../local.ts");
    t0 = performance.now();
    const ml = await local({ progress: false });
    await ml.accounts.list();
    const ms = performance.now() - t0;
    await ml.close();
    console.log(JSON.stringify({ ms }));
    Deno.exit(0);
    break;
  }
  case "hono": {
    const { Hono } = await import("hono");
    const app = new Hono();
    app.get("/", (c) => c.text("Hello Hono!"));
    await (await app.fetch(new Request("http://localhost/"))).text();
    break;
  }
  case "dataframe": {
    const { toDataFrame } = await import("../../src/frames/mod.ts");
    t0 = performance.now();
    const data = Array.from({ length: 100 }, (_, i) => [i, `c${i % 3}`, i / 7]);
    const df = await toDataFrame({
      columns: ["a", "b", "c"],
      index: data.map((_, i) => i),
      data,
    });
    if (df.shape[0] !== 100) throw new Error("unexpected frame");
    break;
  }
  case "danfo":
    await import("danfojs-node");
    break;
  default:
    throw new Error(`unknown step ${step}; see the module doc`);
}
console.log(JSON.stringify({ ms: performance.now() - t0 }));
