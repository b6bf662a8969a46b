/**
 * Schema inference in Node: the package's `inferSchema` reads a CSV path
 * (through node:fs, a piece at a time), a gzipped path (one gzip member
 * or several), a Blob of the
 * file's bytes and its text to the same schema, and a quoted cell and a
 * CRLF cut across the 64 KiB piece boundary read as in the text.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { inferSchema } from "@mlplatform/sdk";
import { datasetsDir } from "./_datasets.mjs";

const shown = (draft) => ({
  fields: draft.fields,
  review: draft.review,
  predictionType: draft.predictionType,
});

test("inferSchema reads a path, a .csv.gz path, a Blob and the text to one schema", async () => {
  const dir = await mkdtemp(join(tmpdir(), "infer-node-"));
  try {
    const path = join(datasetsDir(), "wa_churn.csv");
    const bytes = await readFile(path);
    const packed = join(dir, "wa_churn.csv.gz");
    await writeFile(packed, gzipSync(bytes));
    // Two gzip members one after another (`cat a.gz b.gz`), cut mid-line.
    const members = join(dir, "wa_churn_members.csv.gz");
    const cut = 100_001;
    await writeFile(
      members,
      Buffer.concat([
        gzipSync(bytes.subarray(0, cut)),
        gzipSync(bytes.subarray(cut)),
      ]),
    );
    const fromPath = await inferSchema(path, { target: "churn" });
    assert.equal(fromPath.name, "wa_churn");
    assert.equal(
      fromPath.fields.find((f) => f.name === "tenure").data_type.format,
      "INT64",
    );
    const expected = shown(fromPath);
    for (
      const source of [
        packed,
        members,
        new Blob([bytes]),
        { csv: bytes.toString("utf8") },
      ]
    ) {
      assert.deepEqual(
        shown(await inferSchema(source, { target: "churn" })),
        expected,
      );
    }
    const empty = join(dir, "empty.csv");
    await writeFile(empty, "");
    await assert.rejects(
      () => inferSchema(empty, { target: "y" }),
      /CSV is empty: expected a header line with column names/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("inferSchema reads a quoted cell and a CRLF across the 64 KiB piece boundary as the text", async () => {
  const dir = await mkdtemp(join(tmpdir(), "infer-node-"));
  try {
    const lines = ["note,n,y"];
    let size = lines[0].length + 2;
    for (let i = 0; size < 200_000; i++) {
      const line = i === 2000
        ? '"a ""quoted"", long\r\ncell",1,yes'
        : `plain ${i % 7},${i % 13},${i % 2 ? "yes" : "no"}`;
      lines.push(line);
      size += line.length + 2;
    }
    const text = lines.join("\r\n") + "\r\n";
    // Shift the text so a CR ends the first 64 KiB, and so the quoted cell
    // starts just before it.
    for (const at of [text.lastIndexOf("\r\n", 65535), text.indexOf('"a ')]) {
      const first = text.indexOf("\r\n") + 2;
      const shifted = text.slice(0, first) + "z".repeat(65535 - at) +
        text.slice(first);
      const path = join(dir, "cut.csv");
      await writeFile(path, shifted);
      assert.deepEqual(
        shown(await inferSchema(path, { target: "y" })),
        shown(await inferSchema({ csv: shifted }, { target: "y" })),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
