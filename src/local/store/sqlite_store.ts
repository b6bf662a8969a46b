/**
 * A persistent {@linkcode Store}: every write goes to an SQLite file
 * (`node:sqlite`, built into Deno 2.9 and Node 22.5+) and reads come from the
 * in-memory copy loaded at startup, so a restart loses nothing and reads stay
 * as fast as with the memory store.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "./sqlite_store.ts";
 * const dir = await Deno.makeTempDir();
 * const store = await openSqliteStore(dir);
 * store.setMeta("hello", "world");
 * store.close();
 * const again = await openSqliteStore(dir);
 * if (again.getMeta("hello") !== "world") throw new Error("not persisted");
 * again.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
import { isKind, type KindName } from "../../schemas/routes.ts";
import { MemoryStore, type Store, type StoredRecord } from "./store.ts";

/** The file the store writes inside the data directory. */
export const DATABASE_FILE = "mlplatform-local.sqlite";

/**
 * The file a store locks for as long as it is open, so that one data
 * directory serves one platform at a time (the operating system drops the
 * lock when the process ends, even by `kill -9`).
 */
export const LOCK_FILE = "mlplatform-local.lock";

interface Statement {
  run(...args: unknown[]): unknown;
  all(...args: unknown[]): Record<string, unknown>[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

/**
 * Opens (or creates) the store in `dir`, creating the directory if needed.
 * The store holds the directory's lock until it is closed: a second store
 * on the same directory, in this process or another, is refused. Each store
 * keeps its own copy of the records in memory, so two at once (two servers
 * on one `--data-dir`) each answered from its own copy: names taken twice,
 * and the second one's start marked the first one's running jobs `FAILED`.
 *
 * @param dir The data directory.
 * @param options `lock: false` opens without the lock, for a reader beside
 * a running platform (a benchmark reading a stored model); it must not write.
 * @throws {Error} When `node:sqlite` is not available (Node older than 22.5),
 * saying to upgrade or to run without a data directory; when another store
 * has the directory open (`code` `EBUSY`), saying so.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "./sqlite_store.ts";
 * const dir = await Deno.makeTempDir();
 * const store = await openSqliteStore(dir);
 * const second = await openSqliteStore(dir).then(() => "opened", (e) => e.code);
 * if (second !== "EBUSY") throw new Error(second);
 * store.close();
 * (await openSqliteStore(dir)).close(); // free again once closed
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openSqliteStore(
  dir: string,
  options: { lock?: boolean } = {},
): Promise<Store> {
  let DatabaseSync: new (path: string) => Database;
  try {
    ({ DatabaseSync } = await import("node:sqlite"));
  } catch (cause) {
    throw new Error(
      "Persistence needs node:sqlite (Deno 2.2+ or Node 22.5+). Upgrade the runtime, or run the local platform without a data directory (state then lives in memory).",
      { cause },
    );
  }
  const { mkdir } = await import("node:fs/promises");
  const { join } = await import("node:path");
  await mkdir(dir, { recursive: true });
  const lock = options.lock === false
    ? undefined
    : lockDirectory(DatabaseSync, join(dir, LOCK_FILE), dir);
  let db: Database | undefined;
  try {
    db = new DatabaseSync(join(dir, DATABASE_FILE));
    db.exec(`
      PRAGMA journal_mode = WAL;
      CREATE TABLE IF NOT EXISTS records (
        kind TEXT NOT NULL, id TEXT NOT NULL, account TEXT NOT NULL,
        seq INTEGER NOT NULL, body TEXT NOT NULL, internal TEXT NOT NULL,
        PRIMARY KEY (kind, id));
      CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    return new SqliteStore(db, lock);
  } catch (error) {
    db?.close();
    lock?.close();
    throw error;
  }
}

/**
 * Takes the directory's lock: an SQLite file of its own held in exclusive
 * locking mode, which SQLite keeps until the connection closes and the
 * operating system drops when the process ends (no stale lock after a
 * crash). The lock is not on the store's own file, so a reader may still
 * open that one.
 */
function lockDirectory(
  DatabaseSync: new (path: string) => Database,
  file: string,
  dir: string,
): Database {
  const lock = new DatabaseSync(file);
  try {
    lock.exec(`
      PRAGMA locking_mode = EXCLUSIVE;
      PRAGMA journal_mode = MEMORY;
      BEGIN EXCLUSIVE;
      CREATE TABLE IF NOT EXISTS held (at TEXT);
      COMMIT;
    `);
    return lock;
  } catch (cause) {
    lock.close();
    const message = cause instanceof Error ? cause.message : String(cause);
    if (!/locked|busy/i.test(message)) throw cause;
    throw Object.assign(
      new Error(
        `another local platform has this data directory (${dir}) open: stop it first, or give this one a data directory of its own (two platforms on one store would each answer from their own copy and overwrite each other's records).`,
        { cause },
      ),
      { code: "EBUSY" },
    );
  }
}

/** Memory store with write-through to SQLite. */
class SqliteStore extends MemoryStore {
  #db: Database;
  #putRecord: Statement;
  #deleteRecord: Statement;
  #putBlob: Statement;
  #deleteBlob: Statement;
  #putMeta: Statement;
  #lock: Database | undefined;
  #loading = true;

  constructor(db: Database, lock: Database | undefined) {
    super();
    this.#db = db;
    this.#lock = lock;
    this.#putRecord = db.prepare(
      "INSERT OR REPLACE INTO records (kind, id, account, seq, body, internal) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.#deleteRecord = db.prepare(
      "DELETE FROM records WHERE kind = ? AND id = ?",
    );
    this.#putBlob = db.prepare(
      "INSERT OR REPLACE INTO blobs (key, value) VALUES (?, ?)",
    );
    this.#deleteBlob = db.prepare("DELETE FROM blobs WHERE key = ?");
    this.#putMeta = db.prepare(
      "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
    );
    // Load everything once; super's maps then serve every read.
    const rows = db.prepare("SELECT * FROM records ORDER BY seq").all();
    for (const row of rows) {
      const kind = String(row.kind);
      // A kind this version does not know could be neither read nor answered.
      if (!isKind(kind)) continue;
      super.put({
        kind,
        id: String(row.id),
        account: String(row.account),
        seq: Number(row.seq),
        body: JSON.parse(String(row.body)),
        internal: JSON.parse(String(row.internal)),
      });
    }
    for (const row of db.prepare("SELECT * FROM blobs").all()) {
      super.putBlob(String(row.key), JSON.parse(String(row.value)));
    }
    for (const row of db.prepare("SELECT * FROM meta").all()) {
      super.setMeta(String(row.key), JSON.parse(String(row.value)));
    }
    this.#loading = false;
  }

  /**
   * Serialises every record first (a value that cannot be serialised
   * refuses the whole write before anything is stored), then writes them in
   * one transaction; the caller makes them visible in memory only after.
   */
  protected override persist(records: StoredRecord[]): void {
    if (this.#loading) return;
    const rows = records.map((r) => [
      r.kind,
      r.id,
      r.account,
      r.seq,
      JSON.stringify(r.body),
      JSON.stringify(r.internal),
    ]);
    this.#transaction(() => {
      for (const row of rows) this.#putRecord.run(...row);
    });
  }

  override remove(kind: KindName, id: string): void {
    this.#deleteRecord.run(kind, id);
    super.remove(kind, id);
  }

  override putBlob(key: string, value: unknown): void {
    this.#putBlob.run(key, JSON.stringify(value));
    super.putBlob(key, value);
  }

  override deleteBlob(key: string): void {
    this.#deleteBlob.run(key);
    super.deleteBlob(key);
  }

  override setMeta(key: string, value: unknown): void {
    this.#putMeta.run(key, JSON.stringify(value));
    super.setMeta(key, value);
  }

  /** Runs `write` in one transaction: all its statements commit, or none. */
  #transaction(write: () => void): void {
    this.#db.exec("BEGIN");
    try {
      write();
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  override close(): void {
    this.#db.close();
    this.#lock?.close();
    this.#lock = undefined;
  }
}
