/**
 * Buckets mapped to local folders, and the containment check that keeps a
 * `data_path` inside its bucket: no `..` that climbs out, no absolute paths,
 * no symlink pointing outside (checked on the real, resolved path).
 *
 * @example
 * ```ts
 * import { resolveDataPath } from "./buckets.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "x\n1\n");
 * const file = await resolveDataPath({ demo: dir }, "demo", "a.csv");
 * if (!file.endsWith("a.csv")) throw new Error(file);
 * const refused = await resolveDataPath({ demo: dir }, "demo", "../etc/passwd").catch((e) => e.status);
 * if (refused !== 400) throw new Error("escape not refused");
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { invalidField } from "../errors.ts";
import { gunzipIfGzip } from "../../gzip.ts";
import { permissionRefusal } from "../../permissions.ts";

/**
 * Checks that `bucket` is configured; 400 naming the known buckets otherwise.
 *
 * @example
 * ```ts
 * import { checkBucket } from "./buckets.ts";
 * checkBucket({ demo: "." }, "demo");
 * if (!(() => { try { checkBucket({}, "x"); } catch { return true; } })()) throw new Error();
 * ```
 */
export function checkBucket(
  buckets: Record<string, string>,
  bucket: string,
  path = "bucket_name",
): string {
  const folder = Object.hasOwn(buckets, bucket) ? buckets[bucket] : undefined;
  if (folder === undefined) {
    const known = Object.keys(buckets);
    throw invalidField(
      path,
      `unknown bucket "${bucket}": ${
        known.length
          ? `this platform serves ${known.map((b) => `"${b}"`).join(", ")}`
          : "no buckets are configured (start the platform with buckets: { name: folder } or --bucket name=folder)"
      }`,
    );
  }
  return folder;
}

/**
 * Resolves `dataPath` inside the folder of `bucket` to a real file path.
 * Refuses (400 on `data_path`) absolute paths, paths that leave the folder
 * (also through symlinks), missing files and directories.
 *
 * @example
 * ```ts
 * import { resolveDataPath } from "./buckets.ts";
 * const status = await resolveDataPath({ b: "." }, "b", "/etc/passwd").catch((e) => e.status);
 * if (status !== 400) throw new Error();
 * ```
 */
export async function resolveDataPath(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
): Promise<string> {
  return (await resolveInside(buckets, bucket, dataPath)).real;
}

/**
 * The 400 of a bucket folder that cannot be resolved: it does not exist, or
 * (Deno without `--allow-read`) this process may not read it, which read as
 * a folder that did not exist.
 */
function folderError(error: unknown, folder: string, bucket: string) {
  const refusal = permissionRefusal(error);
  return invalidField(
    "storage_connector_id",
    refusal === undefined
      ? `the folder "${folder}" of bucket "${bucket}" does not exist on this machine: fix the bucket mapping`
      : `the folder "${folder}" of bucket "${bucket}" may not be read by this process (${refusal}): run the platform with --allow-read=${folder}, and --allow-write=${folder} to write scored files`,
  );
}

/** The bucket's real root and the real path of `dataPath` inside it. */
async function resolveInside(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
): Promise<{ root: string; real: string }> {
  const folder = checkBucket(buckets, bucket, "storage_connector_id");
  const { isAbsolute, resolve } = await import("node:path");
  const { realpath, stat } = await import("node:fs/promises");
  // Object keys in buckets look like s3 keys: a leading "/" is absolute, refuse it.
  if (
    isAbsolute(dataPath) || /^[a-zA-Z]:[\\/]/.test(dataPath) ||
    dataPath.startsWith("\\")
  ) {
    throw invalidField(
      "data_path",
      `"${dataPath}" is absolute: give a path relative to the bucket "${bucket}", like "folder/file.csv"`,
    );
  }
  let root: string;
  try {
    root = await realpath(folder);
  } catch (error) {
    throw folderError(error, folder, bucket);
  }
  const candidate = resolve(root, dataPath);
  if (await leaves(root, candidate)) {
    throw invalidField(
      "data_path",
      `"${dataPath}" leaves the bucket "${bucket}": use a path inside it, without ".." segments that climb out`,
    );
  }
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw invalidField(
      "data_path",
      `no file "${dataPath}" in bucket "${bucket}": check the path (it is relative to the bucket)`,
    );
  }
  if (await leaves(root, real)) {
    throw outsideLink(bucket, dataPath);
  }
  // The file can go between realpath and stat (it is replaced or removed
  // while we check it): that is the caller's missing file, not our failure.
  const found = await stat(real).catch(() => null);
  if (!found) {
    throw invalidField(
      "data_path",
      `"${dataPath}" in bucket "${bucket}" went away while it was being checked: retry once the file is in place`,
    );
  }
  if (!found.isFile()) {
    throw notAFile(bucket, dataPath, found);
  }
  return { root, real };
}

/**
 * Whether two stats name the very same file (device and inode): what a
 * handle opened by name is checked against once the name is resolved again.
 *
 * @example
 * ```ts
 * import { sameFile } from "./buckets.ts";
 *
 * if (!sameFile({ dev: 1, ino: 2 }, { dev: 1, ino: 2 }) || sameFile({ dev: 1, ino: 2 }, { dev: 1, ino: 3 })) throw new Error("example failed");
 * ```
 */
export function sameFile(
  a: { dev: number; ino: number },
  b: { dev: number; ino: number },
): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * The nearest of `path` and its parent folders that exists (not followed:
 * a link counts as existing), or the file system's root.
 *
 * @example
 * ```ts
 * import { nearestExisting } from "./buckets.ts";
 *
 * const dir = await Deno.realPath(await Deno.makeTempDir());
 * if ((await nearestExisting(`${dir}/a/b/c.csv`)) !== dir) throw new Error("example failed");
 * await Deno.remove(dir);
 * ```
 */
export async function nearestExisting(path: string): Promise<string> {
  const { dirname } = await import("node:path");
  const { lstat } = await import("node:fs/promises");
  let at = path;
  while (!(await lstat(at).catch(() => undefined))) {
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  return at;
}

/** Whether the absolute path `p` is outside the folder `root`. */
async function leaves(root: string, p: string): Promise<boolean> {
  const { isAbsolute, relative, sep } = await import("node:path");
  const rel = relative(root, p);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

// `field` names the request field: an output path through a link out of
// the bucket was reported as `data_path`, which the request did not get wrong.
const outsideLink = (bucket: string, dataPath: string, field = "data_path") =>
  invalidField(
    field,
    `"${dataPath}" is a link that points outside the bucket "${bucket}": copy the file into the bucket instead`,
  );

/** What a path that is no regular file is, for a message ("a folder"). */
function kindOf(stats: { isDirectory(): boolean; isSymbolicLink(): boolean }) {
  // A pipe, socket or device was called "a folder".
  return stats.isDirectory()
    ? "a folder"
    : stats.isSymbolicLink()
    ? "a link"
    : "not a regular file (a pipe, socket or device)";
}

const notAFile = (
  bucket: string,
  dataPath: string,
  stats: { isDirectory(): boolean; isSymbolicLink(): boolean },
) =>
  invalidField(
    "data_path",
    `"${dataPath}" in bucket "${bucket}" is ${
      kindOf(stats)
    }, not a file: name a CSV file`,
  );

/**
 * Reads `dataPath` of `bucket` (UTF-8 text), with the containment check and
 * the read as one operation: the file is opened (not following a link in its
 * last component), then the opened handle itself is checked, namely it is a
 * regular file and it is the very file (same device and inode) that the path
 * names inside the bucket after the open. A path swapped for a link at any
 * moment therefore fails with a 400 instead of reading outside the bucket,
 * and the text returned is read from that checked handle.
 *
 * @throws {HttpError} 400 on `data_path` like {@linkcode resolveDataPath}, or
 * when the file changed while it was being opened.
 *
 * @example
 * ```ts
 * import { readDataFile } from "./buckets.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "x\n1\n");
 * if (await readDataFile({ demo: dir }, "demo", "a.csv") !== "x\n1\n") throw new Error();
 * const outside = await Deno.makeTempFile();
 * await Deno.symlink(outside, `${dir}/b.csv`);
 * const status = await readDataFile({ demo: dir }, "demo", "b.csv").catch((e) => e.status);
 * if (status !== 400) throw new Error("a link out of the bucket was read");
 * await Deno.remove(dir, { recursive: true });
 * await Deno.remove(outside);
 * ```
 */
export function readDataFile(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
  signal?: AbortSignal,
): Promise<string> {
  return readChecked(
    buckets,
    bucket,
    dataPath,
    async (handle) => {
      // A .csv.gz file reads as the CSV it holds; as readFile's "utf8", a
      // byte-order mark is kept (the CSV parser skips it).
      const bytes = await gunzipIfGzip(await handle.readFile({ signal }));
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    },
  );
}

/**
 * Reads `dataPath` of `bucket` as bytes, with the same checks as
 * {@linkcode readDataFile} (the open handle is the very file the path names
 * inside the bucket). Ingestion reads this way: the bytes (their own buffer)
 * can be handed to the parsing worker without a copy, so no text of the
 * whole file is ever made on the server's thread.
 *
 * @throws {HttpError} As {@linkcode readDataFile}.
 *
 * @example
 * ```ts
 * import { readDataBytes } from "./buckets.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "x\n1\n");
 * const bytes = await readDataBytes({ demo: dir }, "demo", "a.csv");
 * if (new TextDecoder().decode(bytes) !== "x\n1\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function readDataBytes(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  return readChecked(
    buckets,
    bucket,
    dataPath,
    (handle) => handle.readFile({ signal }),
  );
}

/** Opens `dataPath` of `bucket`, checks the open handle, and reads it with `read`. */
async function readChecked<T>(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
  read: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  const { root, real } = await resolveInside(buckets, bucket, dataPath);
  const { constants } = await import("node:fs");
  const { open, realpath, stat } = await import("node:fs/promises");
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    // The last component became a link (ELOOP) or vanished since the check.
    throw changed(bucket, dataPath);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notAFile(bucket, dataPath, opened);
    // The opened file must be the one the path names inside the bucket now.
    let again: string;
    try {
      again = await realpath(real);
    } catch {
      throw changed(bucket, dataPath);
    }
    if (await leaves(root, again)) throw outsideLink(bucket, dataPath);
    const named = await stat(again).catch(() => undefined);
    if (!named || !sameFile(named, opened)) {
      throw changed(bucket, dataPath);
    }
    return await read(handle);
  } finally {
    await handle.close();
  }
}

const changed = (bucket: string, dataPath: string) =>
  invalidField(
    "data_path",
    `"${dataPath}" in bucket "${bucket}" changed while it was being opened (replaced, moved or turned into a link): put the file back in place and retry`,
  );

/**
 * Opens `dataPath` of `bucket` with the checks of {@linkcode readDataFile}
 * (the open handle is the very file the path names inside the bucket) and
 * hands the handle to `use`, closing it after: for readers that stream the
 * file in pieces (batch views) instead of reading it whole.
 *
 * @throws {HttpError} As {@linkcode readDataFile}.
 *
 * @example
 * ```ts
 * import { withDataFile } from "./buckets.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.csv`, "x\n1\n");
 * const size = await withDataFile({ demo: dir }, "demo", "a.csv", async (h) => (await h.stat()).size);
 * if (size !== 4) throw new Error(String(size));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function withDataFile<T>(
  buckets: Record<string, string>,
  bucket: string,
  dataPath: string,
  use: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  return readChecked(buckets, bucket, dataPath, use);
}

/**
 * Why no file system here can hold `path` (a NUL byte, a name over 255
 * bytes), or undefined. Checked before folders are made for an output.
 */
function nameProblem(path: string): string | undefined {
  if (path.includes("\0")) return "a NUL character";
  const encoder = new TextEncoder();
  if (path.split(/[\\/]/).some((part) => encoder.encode(part).length > 255)) {
    return "a name too long";
  }
  return undefined;
}

/** Where an output file goes: its final path and the real root of its bucket. */
export interface OutputPath {
  /** The bucket's real root folder. */
  root: string;
  /**
   * The file's path: its folder's real path (the part that exists resolved,
   * the folders still to make below it) and its own name.
   */
  file: string;
}

/**
 * Resolves `outputPath` of `bucket` for writing, with ingestion's rules: not
 * absolute, no `..` that climbs out, and its folder must really be inside
 * the bucket (no link out). Nothing is made here: the folders still missing
 * are made by the job that writes (`batchWork`), which checks the folder
 * again as it writes. An existing folder or link at
 * the path itself is refused; an existing file will be replaced. `field`
 * names the request field in the 400.
 *
 * @example
 * ```ts
 * import { resolveOutputPath } from "./buckets.ts";
 * const dir = await Deno.makeTempDir();
 * const out = await resolveOutputPath({ demo: dir }, "demo", "out/scored.csv");
 * if (!out.file.endsWith("out/scored.csv")) throw new Error(out.file);
 * // A refused path or a path merely resolved makes no folder.
 * if ((await Array.fromAsync(Deno.readDir(dir))).length !== 0) throw new Error("a folder was made");
 * const status = await resolveOutputPath({ demo: dir }, "demo", "../x.csv").catch((e) => e.status);
 * if (status !== 400) throw new Error("escape not refused");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function resolveOutputPath(
  buckets: Record<string, string>,
  bucket: string,
  outputPath: string,
  field = "output_path",
): Promise<OutputPath> {
  const folder = checkBucket(buckets, bucket, "storage_connector_id");
  const { basename, dirname, isAbsolute, join, relative, resolve } =
    await import("node:path");
  const { lstat, realpath, stat } = await import("node:fs/promises");
  if (
    isAbsolute(outputPath) || /^[a-zA-Z]:[\\/]/.test(outputPath) ||
    outputPath.startsWith("\\")
  ) {
    throw invalidField(
      field,
      `"${outputPath}" is absolute: give a path relative to the bucket "${bucket}", like "scored/file.csv"`,
    );
  }
  // Before any folder is made: a refused path must leave none behind.
  const problem = nameProblem(outputPath);
  if (problem) {
    throw invalidField(
      field,
      `"${outputPath}" cannot name a file in bucket "${bucket}" (${problem}): use a shorter name of plain characters`,
    );
  }
  // A path ending in a slash names a folder ("scored/"): resolving drops
  // the slash, and a file named "scored" was written in its place.
  if (/[\\/]$/.test(outputPath)) {
    throw invalidField(
      field,
      `"${outputPath}" ends with a slash, so it names a folder: give a file path, like "${outputPath}scored.csv"`,
    );
  }
  let root: string;
  try {
    root = await realpath(folder);
  } catch (error) {
    throw folderError(error, folder, bucket);
  }
  const candidate = resolve(root, outputPath);
  if (candidate === root || await leaves(root, candidate)) {
    throw invalidField(
      field,
      `"${outputPath}" leaves the bucket "${bucket}": use a file path inside it, without ".." segments that climb out`,
    );
  }
  const parent = dirname(candidate);
  // Folders are made as object stores make them (by writing under them),
  // but only below an existing folder that is really inside the bucket: a
  // link out of it must not get folders made at its far end. They are made
  // by the job (see `batchWork`), not here: a create refused after this
  // check (a name taken) must leave no folder behind.
  const existingAncestor = await nearestExisting(parent);
  let realAncestor: string;
  try {
    realAncestor = await realpath(existingAncestor);
    // realpath also resolves a file: an output under an existing file's
    // name ("in.csv/x.csv") passed here and failed only in the job.
    if (!(await stat(realAncestor)).isDirectory()) throw new Error("a file");
  } catch {
    throw invalidField(
      field,
      `the folder of "${outputPath}" cannot be made in bucket "${bucket}": a file stands in its way`,
    );
  }
  if (await leaves(root, realAncestor)) {
    throw outsideLink(bucket, outputPath, field);
  }
  // The folder's real path: the existing part resolved, the rest to make.
  const realParent = join(realAncestor, relative(existingAncestor, parent));
  const file = join(realParent, basename(candidate));
  // Only "no such file" means the name is free: a NUL byte or a name too
  // long for the file system was taken as free and failed only in the job.
  // (The system's message is not passed on: it holds the folder's real path.)
  const existing = await lstat(file).catch((e) =>
    e?.code === "ENOENT" ? undefined : String(e?.code)
  );
  if (typeof existing === "string") {
    throw invalidField(
      field,
      `"${outputPath}" cannot name a file in bucket "${bucket}" (${
        existing === "ENAMETOOLONG"
          ? "a name too long"
          : existing === "ERR_INVALID_ARG_VALUE"
          ? "a NUL character"
          : existing
      }): use a shorter name of plain characters`,
    );
  }
  if (existing && !existing.isFile()) {
    throw invalidField(
      field,
      `"${outputPath}" in bucket "${bucket}" is ${
        kindOf(existing)
      }: name a new file, or an existing file to replace`,
    );
  }
  return { root, file };
}
