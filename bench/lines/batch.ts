/**
 * Line 3, batch scoring: 200,000 penguins rows through `deployment.views()`
 * over HTTP (the CLI server as a subprocess), in chunks of 1,000 rows sent
 * concurrently (the default: as many in flight as the deployment's
 * `maximum_concurrency`, 4) against the same chunks one request at a time
 * (`concurrency: 1`). Alternating runs; figures are medians.
 *
 * Reported: the throughput ratio concurrent/sequential, the peak resident
 * memory of the client process (concurrent/sequential) and, to say where
 * the time goes, the CPU time each process used per second of wall-clock
 * time (1.0 = one core busy the whole run; the machine has 2 cores, and the
 * local platform scores on one JavaScript thread), and the cores the whole
 * machine kept busy (other processes included: the machine is shared).
 *
 * `deno task bench` runs this line in a process of its own, so the client's
 * peak memory is this line's, not what earlier lines left in the heap.
 *
 * @module
 */
import { httpTarget } from "../api_views.ts";
import { type Figure, type LineResult, ratioFigure } from "../lib/figures.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "../lib/penguins.ts";
import { watch } from "../lib/proc.ts";
import { median } from "../lib/stats.ts";

/** Options of {@linkcode batchLine}. */
export interface BatchOptions {
  /** Rows scored per run (default 200,000). */
  rows?: number;
  /** Runs of each mode (default 3). */
  rounds?: number;
}

/**
 * Measures line 3.
 */
export async function batchLine(
  options: BatchOptions = {},
): Promise<LineResult> {
  const rows = options.rows ?? 200_000;
  const target = await httpTarget(BUCKETS);
  try {
    const deployment = await deployPenguins(target);
    const query = await penguinsQuery(rows);
    const server = target.pid!;
    const modes = {
      concurrent: {},
      sequential: { concurrency: 1 },
    } as const;
    type Mode = keyof typeof modes;
    const seen: Record<Mode, {
      seconds: number[];
      clientMb: number[];
      serverMb: number[];
      clientCpu: number[];
      serverCpu: number[];
      machine: number[];
    }> = {
      concurrent: {
        seconds: [],
        clientMb: [],
        serverMb: [],
        clientCpu: [],
        serverCpu: [],
        machine: [],
      },
      sequential: {
        seconds: [],
        clientMb: [],
        serverMb: [],
        clientCpu: [],
        serverCpu: [],
        machine: [],
      },
    };
    // A short warm-up of both paths (JIT, connection pool).
    const warm = await penguinsQuery(5000);
    for (const mode of Object.values(modes)) {
      await deployment.views(warm, mode);
    }
    for (let r = 0; r < (options.rounds ?? 3); r++) {
      const order: Mode[] = r % 2 ? ["sequential", "concurrent"] : [
        "concurrent",
        "sequential",
      ];
      for (const mode of order) {
        (globalThis as { gc?: () => void }).gc?.();
        const w = await watch([Deno.pid, server], async () => {
          const result = await deployment.views(query, modes[mode]);
          if (result.length !== rows) {
            throw new Error(`views answered ${result.length} rows of ${rows}`);
          }
        });
        const s = seen[mode];
        s.seconds.push(w.seconds);
        s.clientMb.push(w.peakMb[Deno.pid]);
        s.serverMb.push(w.peakMb[server]);
        s.clientCpu.push(w.cpu[Deno.pid] / w.seconds);
        s.serverCpu.push(w.cpu[server] / w.seconds);
        s.machine.push(w.machineBusy);
      }
    }
    const c = seen.concurrent, q = seen.sequential;
    const rate = (xs: number[]) =>
      `${Math.round(rows / median(xs)).toLocaleString("en-US")} rows/s`;
    const busy = (s: typeof c) =>
      `client ${median(s.clientCpu).toFixed(2)}, server ${
        median(s.serverCpu).toFixed(2)
      } cores`;
    const figures: Figure[] = [
      ratioFigure(
        {
          id: "batch.throughput",
          line: 3,
          label: "batch scoring 200,000 rows over HTTP: throughput",
          against: "one request at a time",
          detail: `concurrent ${rate(c.seconds)}, sequential ${
            rate(q.seconds)
          }; CPU busy: concurrent ${busy(c)}; sequential ${busy(q)}`,
          raw: { seen },
          // Throughput is the inverse of time: sequential time / concurrent time.
        },
        q.seconds,
        c.seconds,
      ),
      ratioFigure(
        {
          id: "batch.client_memory",
          line: 3,
          label: "batch scoring 200,000 rows: peak client memory (RSS)",
          against: "one request at a time",
          detail: `concurrent ${median(c.clientMb).toFixed(0)} MB, sequential ${
            median(q.clientMb).toFixed(0)
          } MB; server peak ${median(c.serverMb).toFixed(0)} MB / ${
            median(q.serverMb).toFixed(0)
          } MB`,
        },
        c.clientMb,
        q.clientMb,
      ),
    ];
    const serverBusy = median(c.serverCpu);
    const clientBusy = median(c.clientCpu);
    const machineBusy = median(c.machine);
    const notes = [
      `Line 3: while scoring concurrently the server process used ${
        serverBusy.toFixed(2)
      } cores and the client ${
        clientBusy.toFixed(2)
      } (of 2), and the whole machine ${
        machineBusy.toFixed(2)
      } cores, other processes included. ${
        serverBusy >= 0.85
          ? "The server's single scoring thread is the bottleneck: concurrency can only overlap the client's work and the network with it."
          : serverBusy + clientBusy >= 1.7
          ? "Both cores are busy: the machine, not either side alone, is the bound."
          : clientBusy >= 0.85
          ? "The client is the bottleneck."
          : machineBusy >= 1.7
          ? "Other processes kept the machine's cores busy: neither side got a core to itself, so this run measured the shared machine more than either side."
          : "Neither side keeps a core busy: waiting (latency) bounds it."
      }`,
    ];
    return { figures, notes };
  } finally {
    await target.close();
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await batchLine()));
}
