/**
 * Timeouts for many requests without a timer and a signal per request.
 *
 * - {@linkcode Deadlines}: a timer per request costs a setTimeout and a
 *   clearTimeout on every call although almost none fires; here each
 *   request only records its deadline, and one timer, armed for the
 *   earliest deadline, fires the expired ones and re-arms for the next.
 *   When nothing is pending the timer stays armed but no longer keeps the
 *   process alive (it is unref'd), so a script still exits at once.
 * - {@linkcode TimeoutSignals}: one AbortSignal shared by the requests that
 *   start close together, instead of one each.
 *
 * @module
 */

interface Entry {
  at: number;
  fire: () => void;
}

type TimerId = ReturnType<typeof setTimeout>;

// Deno has Deno.refTimer/unrefTimer(id); Node's timers have ref()/unref().
const denoTimers = (globalThis as {
  Deno?: {
    refTimer?: (id: number) => void;
    unrefTimer?: (id: number) => void;
  };
}).Deno;

function setRef(timer: TimerId, on: boolean): void {
  if (typeof timer === "number") {
    if (on) denoTimers?.refTimer?.(timer);
    else denoTimers?.unrefTimer?.(timer);
  } else {
    const t = timer as { ref?: () => void; unref?: () => void };
    if (on) t.ref?.();
    else t.unref?.();
  }
}

/**
 * Deadlines sharing one timer.
 *
 * @example
 * ```ts
 * import { Deadlines } from "./deadlines.ts";
 * const deadlines = new Deadlines();
 * const fired: string[] = [];
 * const releaseA = deadlines.add(10, () => fired.push("a"));
 * deadlines.add(5, () => fired.push("b"));
 * releaseA(); // a finished in time: it never fires
 * await new Promise((r) => setTimeout(r, 30));
 * fired; // ["b"]
 * ```
 */
export class Deadlines {
  #entries = new Set<Entry>();
  #timer?: TimerId;
  #armedAt = Infinity;
  #ref = false;

  /**
   * Calls `fire` in `ms` milliseconds unless the returned release function
   * is called first. `now` is `performance.now()`, for a caller that has
   * just read it.
   */
  add(
    ms: number,
    fire: () => void,
    now: number = performance.now(),
  ): () => void {
    const entry: Entry = { at: now + ms, fire };
    this.#entries.add(entry);
    if (entry.at < this.#armedAt) this.#arm(entry.at);
    else if (!this.#ref) this.#setRef(true);
    return () => {
      this.#entries.delete(entry);
      if (this.#entries.size === 0) this.#setRef(false);
    };
  }

  #setRef(on: boolean): void {
    if (this.#timer === undefined) return;
    this.#ref = on;
    setRef(this.#timer, on);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(
      () => this.#tick(),
      Math.max(0, at - performance.now()),
    );
    this.#ref = true;
    if (this.#entries.size === 0) this.#setRef(false);
  }

  #tick(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const entry of this.#entries) {
      if (entry.at <= now) {
        this.#entries.delete(entry);
        entry.fire();
      } else if (entry.at < next) next = entry.at;
    }
    if (next < Infinity) this.#arm(next);
  }
}

interface Bucket {
  controller: AbortController;
  /** Attempts starting after this instant open a new bucket. */
  closesAt: number;
  /** Attempts of the bucket still in flight. */
  active: number;
  /** Cancels the bucket's deadline (set while attempts are in flight). */
  release?: () => void;
  /** When the bucket's signal aborts. */
  at: number;
  /** The rejections of the attempts racing the signal (see `race`). */
  racing: Set<(reason: unknown) => void>;
}

/** A shared timeout signal taken by one attempt; release it when done. */
export interface TimeoutSlot {
  /** Aborts once the attempt has run out of time. */
  signal: AbortSignal;
  /** The attempt is over (done, failed or aborted). */
  release(): void;
  /**
   * Settles like `work`, or rejects with the signal's reason once it
   * aborts: what `abortable(work, signal)` does, without an abort listener
   * added and removed per attempt (the bucket rejects the attempts still
   * racing when it aborts), and without keeping `work`'s value once it
   * settles (a promise shared by the bucket's races would keep every
   * answer of the bucket's lifetime).
   */
  race<T>(work: Promise<T>): Promise<T>;
}

class Slot implements TimeoutSlot {
  #bucket: Bucket;
  #released = false;
  constructor(bucket: Bucket) {
    this.#bucket = bucket;
  }
  get signal(): AbortSignal {
    return this.#bucket.controller.signal;
  }
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const b = this.#bucket;
    if (--b.active === 0) {
      b.release?.();
      b.release = undefined;
    }
  }
  race<T>(work: Promise<T>): Promise<T> {
    const b = this.#bucket;
    const signal = b.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      b.racing.add(reject);
      work.then((value) => {
        b.racing.delete(reject);
        resolve(value);
      }, (error) => {
        b.racing.delete(reject);
        reject(error);
      });
    });
  }
}

/**
 * Timeout signals shared by the requests that start close together.
 * Giving each request its own AbortSignal costs more than the rest of a
 * small call (a fetch follows the signal through weak references); here the
 * requests with the same timeout that start within a tenth of it (at most
 * 1 s) share one signal, which aborts when the last of them would time out.
 * So a request times out after between `ms` and `ms` plus that slack; the
 * requests of its group that already finished are not affected.
 *
 * @example
 * ```ts
 * import { TimeoutSignals } from "./deadlines.ts";
 * const timeouts = new TimeoutSignals();
 * const fast = timeouts.take(20);
 * const slow = timeouts.take(20);
 * fast.release(); // done in time
 * await new Promise((r) => setTimeout(r, 40));
 * slow.signal.aborted; // true: still running after 20 ms (+ at most 2 ms)
 * slow.release();
 * const late = timeouts.take(20);
 * const error = await late.race(new Promise(() => {})).catch((e) => e.name);
 * late.release();
 * if (error !== "TimeoutError") throw new Error(String(error)); // the race lost to the clock
 * ```
 */
export class TimeoutSignals {
  #deadlines = new Deadlines();
  #open = new Map<number, Bucket>();

  /** A signal that aborts after about `ms`, for one attempt. */
  take(ms: number): TimeoutSlot {
    const now = performance.now();
    let bucket = this.#open.get(ms);
    if (!bucket || now > bucket.closesAt || bucket.controller.signal.aborted) {
      const slack = Math.min(1000, ms / 10);
      bucket = {
        controller: new AbortController(),
        closesAt: now + slack,
        at: now + slack + ms,
        active: 0,
        racing: new Set(),
      };
      this.#open.set(ms, bucket);
    }
    const b = bucket;
    if (b.active++ === 0) {
      b.release = this.#deadlines.add(Math.max(0, b.at - now), () => {
        b.release = undefined;
        b.controller.abort(
          new DOMException("The request timed out", "TimeoutError"),
        );
        for (const reject of b.racing) reject(b.controller.signal.reason);
        b.racing.clear();
        if (this.#open.get(ms) === b) this.#open.delete(ms);
      }, now);
    }
    return new Slot(b);
  }
}
