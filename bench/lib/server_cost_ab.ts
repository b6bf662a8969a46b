/**
 * Two versions of the server's one-row views path in one process, paired:
 * another tree of this repository (a copy with its `src` from the commit to
 * compare against, and this `bench/lib/server_cost.ts`) and this one, each
 * with its own platform and model, their cases (`server_cost.ts`) run in
 * batches that alternate which goes first, round by round. Prints each
 * side's median CPU µs a call and the median of the per-round ratios (new /
 * base) with its interquartile range.
 *
 * ```sh
 * mkdir /tmp/base && tar --exclude=./.git -cf - . | tar -xf - -C /tmp/base
 * git archive c03dbad src | tar -x -C /tmp/base
 * cp bench/lib/server_cost.ts /tmp/base/bench/lib/
 * deno run -A bench/lib/server_cost_ab.ts /tmp/base app,table,parse 40 1000
 * ```
 *
 * (arguments: base tree, cases, rounds, calls a batch).
 *
 * @module
 */
import process from "node:process";
import { serverCases } from "./server_cost.ts";
import { median } from "./stats.ts";

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * q)];
}

if (import.meta.main) {
  const [root, only = "app", roundsText = "40", batchText = "1000"] = Deno.args;
  if (!root) throw new Error("give the base tree's path first");
  const rounds = Number(roundsText), batch = Number(batchText);
  const base = await import(`file://${root}/bench/lib/server_cost.ts`);
  const a = await base.serverCases();
  const b = await serverCases();
  try {
    for (const name of only.split(",")) {
      const ratios: number[] = [], ta: number[] = [], tb: number[] = [];
      for (let r = -3; r < rounds; r++) {
        const order = r % 2 ? [a, b] : [b, a];
        const t = new Map<unknown, number>();
        for (const side of order) {
          const c0 = process.cpuUsage();
          for (let i = 0; i < batch; i++) await side.cases[name]();
          const c = process.cpuUsage(c0);
          t.set(side, (c.user + c.system) / batch);
        }
        if (r < 0) continue;
        ta.push(t.get(a)!);
        tb.push(t.get(b)!);
        ratios.push(t.get(b)! / t.get(a)!);
      }
      console.log(
        `${name.padEnd(8)} base ${median(ta).toFixed(1)} µs, new ${
          median(tb).toFixed(1)
        } µs a call; paired ratio ${median(ratios).toFixed(3)} (IQR ${
          quantile(ratios, 0.25).toFixed(3)
        }-${quantile(ratios, 0.75).toFixed(3)})`,
      );
    }
    console.log(`load ${Deno.loadavg().join(" ")}`);
  } finally {
    await a.close();
    await b.close();
  }
}
