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
import { invalidField } from "./http_errors.ts";

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
  const folder = checkBucket(buckets, bucket, "storage_connector_id");
  const { isAbsolute, resolve, relative, sep } = await import("node:path");
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
  const leaves = (root: string, p: string) => {
    const rel = relative(root, p);
    return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  };
  let root: string;
  try {
    root = await realpath(folder);
  } catch {
    throw invalidField(
      "storage_connector_id",
      `the folder "${folder}" of bucket "${bucket}" does not exist on this machine: fix the bucket mapping`,
    );
  }
  const candidate = resolve(root, dataPath);
  if (leaves(root, candidate)) {
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
  if (leaves(root, real)) {
    throw invalidField(
      "data_path",
      `"${dataPath}" is a link that points outside the bucket "${bucket}": copy the file into the bucket instead`,
    );
  }
  if (!(await stat(real)).isFile()) {
    throw invalidField(
      "data_path",
      `"${dataPath}" in bucket "${bucket}" is a folder, not a file: name a CSV file`,
    );
  }
  return real;
}
