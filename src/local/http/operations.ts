/**
 * Results answered with `202 Accepted` and a `Location` (docs/api.md#endpoints,
 * rule 4): the work runs on, the answer names `/operations/{id}`, and a GET
 * there answers 202 again until the final status and body are ready.
 * Operations live in memory for ten minutes after they finish.
 *
 * @example
 * ```ts
 * import { Operations } from "./operations.ts";
 * const ops = new Operations();
 * const id = ops.begin("acc", Promise.resolve(new Response("{}", { status: 201 })));
 * await new Promise((r) => setTimeout(r, 0));
 * if (ops.lookup("acc", id)?.response?.status !== 201) throw new Error();
 * ```
 *
 * @module
 */
import { newId } from "../ids.ts";

/** A finished result. */
export interface FinishedResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

interface Operation {
  account: string;
  response?: FinishedResponse;
  finishedAt?: number;
}

const KEEP_MS = 10 * 60 * 1000;

/** The table of pending and finished operations. */
export class Operations {
  #ops = new Map<string, Operation>();

  /**
   * Records an operation whose final answer `result` will give.
   *
   * @returns The operation id (the Location is `/operations/{id}`).
   *
   * @example
   * ```ts
   * import { Operations } from "./operations.ts";
   * const id = new Operations().begin("a", new Promise(() => {}));
   * if (!id.startsWith("op_")) throw new Error();
   * ```
   */
  begin(account: string, result: Promise<Response>): string {
    this.#sweep();
    const id = newId("op");
    const op: Operation = { account };
    this.#ops.set(id, op);
    result.then(async (res) => {
      op.response = {
        status: res.status,
        headers: [...res.headers],
        body: await res.text(),
      };
      op.finishedAt = Date.now();
    });
    return id;
  }

  /**
   * The operation if it belongs to `account` (another account's is unknown).
   *
   * @example
   * ```ts
   * import { Operations } from "./operations.ts";
   * if (new Operations().lookup("a", "op_x") !== undefined) throw new Error();
   * ```
   */
  lookup(
    account: string,
    id: string,
  ): { response?: FinishedResponse } | undefined {
    const op = this.#ops.get(id);
    return op && op.account === account ? op : undefined;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, op] of this.#ops) {
      if (op.finishedAt && now - op.finishedAt > KEEP_MS) this.#ops.delete(id);
    }
  }
}
