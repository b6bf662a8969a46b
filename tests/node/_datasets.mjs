/**
 * Where the Node tests find the shared datasets: `MLP_DATASETS` when set,
 * else `datasets/` at the repository root, found by walking up
 * from this file to deno.json (so it works from tests/node/ and from the copy
 * in npm/test/, where runNodeTests puts it next to the tests).
 *
 * @module
 */

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: the nearest folder above this file with a deno.json. */
export function repositoryDir() {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "deno.json"))) {
    const up = dirname(dir);
    if (up === dir) {
      throw new Error(
        `no deno.json above ${
          fileURLToPath(import.meta.url)
        }: set MLP_DATASETS to the datasets folder`,
      );
    }
    dir = up;
  }
  return dir;
}

/** The datasets folder. */
export function datasetsDir() {
  if (process.env.MLP_DATASETS) return resolve(process.env.MLP_DATASETS);
  return resolve(repositoryDir(), "datasets");
}
