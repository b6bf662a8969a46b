/**
 * Process CPU time and memory from Linux's `/proc`, for the bench lines that
 * say which side (client or server) is the bottleneck and how much memory
 * a run took. Both read any process id, the bench's own (`Deno.pid`) included.
 *
 * @module
 */
import process from "node:process";
import { median } from "./stats.ts";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * CPU seconds (user + system) a process has used so far.
 *
 * @example
 * ```ts
 * import { cpuSeconds } from "./proc.ts";
 * if (!(cpuSeconds(Deno.pid) >= 0)) throw new Error();
 * ```
 */
export function cpuSeconds(pid: number): number {
  return statTicks(`/proc/${pid}/stat`) / TICKS_PER_SECOND;
}

/**
 * CPU µs (user + system) the main thread alone has used so far, where a
 * whole-process figure would count the runtime's other threads too; 0 where
 * `/proc` is not there. Ticks are 10 ms: measure over many calls.
 *
 * @example
 * ```ts
 * import { mainThreadCpu } from "./proc.ts";
 * if (!(mainThreadCpu() >= 0)) throw new Error();
 * ```
 */
export function mainThreadCpu(): number {
  try {
    return statTicks(`/proc/self/task/${Deno.pid}/stat`) *
      (1_000_000 / TICKS_PER_SECOND);
  } catch {
    return 0;
  }
}

/** User + system ticks of a `/proc/.../stat` file. */
function statTicks(path: string): number {
  const stat = Deno.readTextFileSync(path);
  // The command name (field 2) may hold spaces: count from its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * A process's resident memory now, in MB.
 *
 * @example
 * ```ts
 * import { rssMb } from "./proc.ts";
 * if (!(rssMb(Deno.pid) > 0)) throw new Error();
 * ```
 */
export function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * Busy and total CPU time of the whole machine so far, in seconds (from
 * `/proc/stat`; busy is everything but idle and iowait).
 *
 * @example
 * ```ts
 * import { machineCpu } from "./proc.ts";
 * const { busy, total } = machineCpu();
 * if (!(busy > 0 && total >= busy)) throw new Error();
 * ```
 */
export function machineCpu(): { busy: number; total: number } {
  const line = Deno.readTextFileSync("/proc/stat").split("\n")[0];
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = ticks[3] + (ticks[4] ?? 0);
  return {
    busy: (total - idle) / TICKS_PER_SECOND,
    total: total / TICKS_PER_SECOND,
  };
}

/** What {@linkcode watch} saw while a task ran. */
export interface Watched<T> {
  /** The task's result. */
  result: T;
  /** Wall-clock seconds. */
  seconds: number;
  /** Per process id: CPU seconds used during the task. */
  cpu: Record<number, number>;
  /** Per process id: peak resident memory sampled during the task, MB. */
  peakMb: Record<number, number>;
  /** Cores the whole machine kept busy on average (every process, not only `pids`). */
  machineBusy: number;
}

/**
 * Runs `task` while sampling the resident memory of `pids` every
 * `everyMs` ms, and measures their CPU time over it.
 *
 * @example
 * ```ts
 * import { watch } from "./proc.ts";
 * const w = await watch([Deno.pid], () => new Promise((r) => setTimeout(() => r(1), 30)));
 * if (w.result !== 1 || !(w.peakMb[Deno.pid] > 0)) throw new Error();
 * ```
 */
export async function watch<T>(
  pids: readonly number[],
  task: () => Promise<T>,
  everyMs = 25,
): Promise<Watched<T>> {
  const peakMb: Record<number, number> = {};
  const sample = () => {
    for (const pid of pids) {
      peakMb[pid] = Math.max(peakMb[pid] ?? 0, rssMb(pid));
    }
  };
  const cpu0 = pids.map(cpuSeconds);
  const machine0 = machineCpu().busy;
  sample();
  const timer = setInterval(sample, everyMs);
  const t0 = performance.now();
  try {
    const result = await task();
    const seconds = (performance.now() - t0) / 1000;
    sample();
    const cpu = Object.fromEntries(
      pids.map((pid, i) => [pid, cpuSeconds(pid) - cpu0[i]]),
    );
    const machineBusy = (machineCpu().busy - machine0) / seconds;
    return { result, seconds, cpu, peakMb, machineBusy };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Median CPU µs a call of each case, interleaved round by round over
 * `rounds` rounds of 400 calls each.
 *
 * @example
 * ```ts
 * import { measureCases } from "./proc.ts";
 * const cost = await measureCases({ a: () => 1, b: () => [1, 2] }, 2);
 * if (!(cost.a >= 0 && cost.b >= 0)) throw new Error(JSON.stringify(cost));
 * ```
 */
export async function measureCases(
  cases: Record<string, () => unknown>,
  rounds = 30,
): Promise<Record<string, number>> {
  const names = Object.keys(cases);
  const cpu: Record<string, number[]> = Object.fromEntries(
    names.map((n) => [n, []]),
  );
  const batch = 400;
  for (let round = -3; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round + 3) % names.length];
      const c0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) await cases[name]();
      const c = process.cpuUsage(c0);
      if (round >= 0) cpu[name].push((c.user + c.system) / batch);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(cpu[n])]));
}
