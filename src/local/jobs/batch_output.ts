/**
 * Where a views batch job writes its output: the folders it makes, and the
 * checks that the output's folder is still the real folder inside the bucket
 * that the job's create resolved (`resolveOutputPath` in
 * ../store/buckets.ts), so a folder swapped for a link that leads out of the
 * bucket is never written through (docs/contract.md#buckets-local-platform).
 * `display` names the output to the user (`"x.csv" in bucket "b"`).
 *
 * @module
 */

import { nearestExisting, sameFile } from "../store/buckets.ts";

/**
 * Thrown when the output's folder is no longer the real folder the create
 * resolved (a link now stands in its place, or in one of its parents').
 */
function movedFolder(display = "file"): Error {
  return new Error(
    `The folder of the output ${display} changed while the job ran (it is now a link, or under one, that leads elsewhere), so nothing was written there; restore the folder inside the bucket and start a new views batch job.`,
  );
}

/**
 * Makes the output's `folder` (a real path: its existing part resolved when
 * the job was created, see `resolveOutputPath`) below its nearest existing
 * folder, once that folder still resolves to itself (no link swapped in).
 *
 * @example
 * ```ts
 * import { makeFolder } from "./batch_output.ts";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await makeFolder(`${root}/a/b`);
 * if (!(await Deno.stat(`${root}/a/b`)).isDirectory) throw new Error("not made");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function makeFolder(
  folder: string,
  display?: string,
): Promise<void> {
  const { mkdir, realpath } = await import("node:fs/promises");
  const existing = await nearestExisting(folder);
  if ((await realpath(existing).catch(() => "")) !== existing) {
    throw movedFolder(display);
  }
  await mkdir(folder, { recursive: true });
}

/**
 * Whether `file` is still the file this job opened (`own`: its handle's
 * stat) in `folder`, and `folder` still its own real path; throws otherwise.
 * Node has no rename relative to an open folder, so the folder is checked
 * around each step that writes by name instead.
 *
 * @example
 * ```ts
 * import { stillInPlace } from "./batch_output.ts";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * const outside = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/out`);
 * const file = `${root}/out/x.csv`;
 * await Deno.writeTextFile(file, "x\n");
 * const own = (await import("node:fs")).statSync(file);
 * await stillInPlace(`${root}/out`, file, own);
 * // The folder swapped for a link out: refused.
 * await Deno.rename(`${root}/out`, `${root}/old`);
 * await Deno.symlink(outside, `${root}/out`);
 * const refused = await stillInPlace(`${root}/out`, file, own).then(() => false, () => true);
 * if (!refused) throw new Error("a swapped folder passed");
 * await Deno.remove(root, { recursive: true });
 * await Deno.remove(outside, { recursive: true });
 * ```
 */
export async function stillInPlace(
  folder: string,
  file: string,
  own: { ino: number; dev: number },
  display?: string,
): Promise<void> {
  const { lstat, realpath } = await import("node:fs/promises");
  // Gone (the folder removed, or the file in it): the system's ENOENT, which
  // the job's message names in the bucket's terms.
  const gone = (error: { code?: unknown }) => {
    if (error?.code === "ENOENT") throw error;
    return null;
  };
  const real = await realpath(folder).catch(gone);
  const named = await lstat(file).catch(gone);
  if (real !== folder || !named || !sameFile(named, own)) {
    throw movedFolder(display);
  }
}
