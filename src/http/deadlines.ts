/**
 * Timeouts for many requests without a timer and a signal per request.
 *
 * - {@linkcode Deadlines}: a timer per request costs a setTimeout and a
 *   clearTimeout on every call although almost none fires; here each
 *   request only records its deadline, and one timer, armed for the
 *   earliest deadline, fires the expired ones and re-arms for the next.
 *   When nothing is pending the timer stays armed but no longer keeps the
 *   process alive (it is unref'd), so a script still exits at once.
 * - {@linkcode TimeoutSignals}: one deadline shared by the requests that
 *   start close together, instead of one each: an attempt only counts
 *   itself in and out (and makes its own signal when it needs one).
 *
 * @module
 */
import { MAX_TIMER_MS } from "../abort.ts";

interface Entry {
  at: number;
  fire: () => void;
  /** The entry keeps the process alive while it is pending. */
  keepAlive: boolean;
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
  /** Pending entries that keep the process alive, plus holds. */
  #alive = 0;

  /**
   * Calls `fire` in `ms` milliseconds unless the returned release function
   * is called first. `now` is `performance.now()`, for a caller that has
   * just read it. With `keepAlive` false the entry alone does not keep the
   * process alive (see {@linkcode Deadlines.hold}).
   */
  add(
    ms: number,
    fire: () => void,
    now: number = performance.now(),
    keepAlive = true,
  ): () => void {
    const entry: Entry = { at: now + ms, fire, keepAlive };
    this.#entries.add(entry);
    if (keepAlive) this.#alive++;
    if (entry.at < this.#armedAt) this.#arm(entry.at);
    else this.#updateRef();
    return () => {
      if (!this.#entries.delete(entry)) return;
      if (entry.keepAlive) this.#alive--;
      this.#updateRef();
    };
  }

  /**
   * Keeps the process alive (the timer referenced) until the matching
   * {@linkcode Deadlines.unhold}, for entries added with `keepAlive` false
   * while something waits on them.
   *
   * @example
   * ```ts
   * import { Deadlines } from "./deadlines.ts";
   * const deadlines = new Deadlines();
   * let fired = false;
   * deadlines.add(5, () => (fired = true), performance.now(), false);
   * deadlines.hold(); // an attempt waits on it: the timer may not be dropped
   * await new Promise((r) => setTimeout(r, 20));
   * deadlines.unhold();
   * fired; // true
   * ```
   */
  hold(): void {
    this.#alive++;
    this.#updateRef();
  }

  /** Ends one {@linkcode Deadlines.hold}. */
  unhold(): void {
    this.#alive--;
    this.#updateRef();
  }

  #updateRef(): void {
    const on = this.#alive > 0;
    if (on === this.#ref || this.#timer === undefined) return;
    this.#ref = on;
    setRef(this.#timer, on);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    // At most one timer's longest delay (a longer one fires after 1 ms:
    // a client `timeout` over 24.8 days re-armed it every millisecond,
    // each time with a warning); the tick re-arms for what is left.
    this.#timer = setTimeout(
      () => this.#tick(),
      Math.min(MAX_TIMER_MS, Math.max(0, at - performance.now())),
    );
    this.#ref = true;
    this.#updateRef();
  }

  #tick(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const entry of this.#entries) {
      if (entry.at <= now) {
        this.#entries.delete(entry);
        if (entry.keepAlive) this.#alive--;
        entry.fire();
      } else if (entry.at < next) next = entry.at;
    }
    if (next < Infinity) this.#arm(next);
  }
}

interface Bucket {
  /** Attempts starting after this instant open a new bucket. */
  closesAt: number;
  /** Attempts of the bucket still in flight. */
  active: number;
  /** Cancels the bucket's deadline (once no attempt can need it). */
  release: () => void;
  /** A newer bucket took its place: no attempt will join it. */
  closed: boolean;
  /** Set when the deadline passed with attempts in flight: they timed out. */
  reason?: DOMException;
  /** The signals of the attempts in flight that asked for one. */
  controllers: Set<AbortController>;
  /** The rejections of the attempts racing the deadline (see `race`). */
  racing: Set<(reason: unknown) => void>;
}

/** A timeout taken by one attempt; release it when done. */
export interface TimeoutSlot {
  /** Aborts once the attempt has run out of time. */
  signal: AbortSignal;
  /** The attempt is over (done, failed or aborted). */
  release(): void;
  /**
   * Settles like `work`, or rejects with the timeout once it fires: what
   * `abortable(work, signal)` does, without an AbortSignal or an abort
   * listener per attempt (the bucket rejects the attempts still racing
   * when its deadline passes), and without keeping `work`'s value once it
   * settles (a promise shared by the bucket's races would keep every
   * answer of the bucket's lifetime).
   */
  race<T>(work: Promise<T>): Promise<T>;
}

class Slot implements TimeoutSlot {
  #bucket: Bucket;
  #deadlines: Deadlines | undefined;
  #controller?: AbortController;
  #released = false;
  constructor(bucket: Bucket, deadlines: Deadlines | undefined) {
    this.#bucket = bucket;
    this.#deadlines = deadlines;
  }
  /**
   * The attempt's own signal, made when first asked for: a fetch given a
   * signal shared by many requests registers each one with it (a weak
   * reference kept for the signal's life), where one per attempt dies
   * with the attempt.
   */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = this.#controller = new AbortController();
      const b = this.#bucket;
      if (b.reason && !this.#released) controller.abort(b.reason);
      else if (!this.#released) b.controllers.add(controller);
    }
    return this.#controller.signal;
  }
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const b = this.#bucket;
    if (this.#controller) b.controllers.delete(this.#controller);
    if (--b.active === 0) {
      this.#deadlines?.unhold();
      // Nobody can join a closed bucket: its deadline is not needed.
      if (b.closed) b.release();
    }
  }
  race<T>(work: Promise<T>): Promise<T> {
    const b = this.#bucket;
    if (b.reason) return Promise.reject(b.reason);
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

/** Options of {@linkcode TimeoutSignals}. */
export interface TimeoutSignalsOptions {
  /**
   * Keep the process alive while an attempt waits on a signal (default
   * true). An attempt whose own work keeps it alive (a global `fetch`: its
   * connection does) can say false, which spares each attempt a timer
   * reference and release.
   */
  keepAlive?: boolean;
}

/**
 * Timeouts on one shared deadline per group of requests: a timer per
 * request costs more than the rest of a small call. The requests with the
 * same timeout that start within a tenth of it (at most 1 s) form a group,
 * whose deadline is when the last of them would time out. So a request
 * times out after between `ms` and `ms` plus that slack; the requests of
 * its group that already finished are not affected. The group's deadline
 * is recorded when it opens: an attempt only counts itself in and out, and
 * at the deadline the attempts still counted time out (their signals
 * abort, their races reject). An attempt that asks for a signal gets one
 * of its own, made on demand (fetch registers each request with the signal
 * it follows: one signal shared by thousands kept each registration for
 * its life).
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
  #keepAlive: boolean;

  /** Signals on one shared timer; see {@linkcode TimeoutSignalsOptions}. */
  constructor(options: TimeoutSignalsOptions = {}) {
    this.#keepAlive = options.keepAlive ?? true;
  }

  /** A signal that aborts after about `ms`, for one attempt. */
  take(ms: number): TimeoutSlot {
    let bucket = this.#open.get(ms);
    if (bucket && !bucket.reason) {
      const now = performance.now();
      if (now > bucket.closesAt) bucket = this.#openBucket(ms, now, bucket);
    } else bucket = this.#openBucket(ms, performance.now(), bucket);
    if (bucket.active++ === 0 && this.#keepAlive) this.#deadlines.hold();
    return new Slot(bucket, this.#keepAlive ? this.#deadlines : undefined);
  }

  /** A new bucket for `ms` from `now`, in place of `old`. */
  #openBucket(ms: number, now: number, old: Bucket | undefined): Bucket {
    if (old) {
      old.closed = true;
      if (old.active === 0) old.release();
    }
    const slack = Math.min(1000, ms / 10);
    const b: Bucket = {
      closesAt: now + slack,
      active: 0,
      release: () => {},
      closed: false,
      controllers: new Set(),
      racing: new Set(),
    };
    // The bucket's one deadline: it does not keep the process alive by
    // itself (an attempt in flight holds the timer instead).
    b.release = this.#deadlines.add(
      slack + ms,
      () => {
        if (this.#open.get(ms) === b) this.#open.delete(ms);
        b.closed = true;
        if (b.active === 0) return; // every attempt finished in time
        const reason = b.reason = new DOMException(
          "The request timed out",
          "TimeoutError",
        );
        for (const controller of b.controllers) controller.abort(reason);
        b.controllers.clear();
        for (const reject of b.racing) reject(reason);
        b.racing.clear();
      },
      now,
      false,
    );
    this.#open.set(ms, b);
    return b;
  }
}
