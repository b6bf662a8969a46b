/**
 * A `.csv.gz` file works wherever its `.csv` does (issue 22, item 5):
 * schema inference from a path, `quickstart` from a bucket (inference,
 * ingestion, training, views) give what the plain CSV gives, also when the
 * file holds several gzip members one after another (`cat a.gz b.gz`, pigz,
 * bgzip); a gzip file that does not inflate fails ingestion saying so.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { local } from "../local.ts";
import { inferSchema } from "../src/infer/infer.ts";
import { createRng } from "../src/local/model/rng.ts";

/** A seeded CSV: a number, a category with spaces, a binary target. */
function csvText(n: number): string {
  const rng = createRng(5);
  const lines = ["x,kind,label"];
  for (let i = 0; i < n; i++) {
    const x = Math.round((rng() * 10 - 5) * 100) / 100;
    const kind = ["red", "green", "blue sky"][Math.floor(rng() * 3)];
    const z = x + (kind === "red" ? 1 : -0.5) + rng() * 2 - 1;
    lines.push(`${x},${kind},${z > 0 ? "yes" : "no"}`);
  }
  return lines.join("\n") + "\n";
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const dir = await Deno.makeTempDir({ prefix: "model_gzip_" });
const text = csvText(400);
await Deno.writeTextFile(`${dir}/plain.csv`, text);
await Deno.writeFile(`${dir}/packed.csv.gz`, await gzip(text));
// Three members, cut mid-field and mid-line: RFC 1952 reads them as one
// stream of their contents (Deno's DecompressionStream stopped after the
// first).
const cuts = [0, 1234, 1240, text.length];
await Deno.writeFile(
  `${dir}/members.csv.gz`,
  new Uint8Array(
    await new Blob(
      await Promise.all(
        cuts.slice(1).map((end, k) => gzip(text.slice(cuts[k], end))),
      ),
    ).arrayBuffer(),
  ),
);
// Gzip's magic bytes, then not a deflate stream.
await Deno.writeFile(
  `${dir}/broken.csv.gz`,
  Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3),
);

Deno.test("gzip: schema inference reads a .csv.gz path as its CSV", async () => {
  const plain = await inferSchema(`${dir}/plain.csv`, { target: "label" });
  const packed = await inferSchema(`${dir}/packed.csv.gz`, {
    target: "label",
  });
  assertEquals(packed.fields, plain.fields);
  assertEquals(packed.predictionType, plain.predictionType);
  const members = await inferSchema(`${dir}/members.csv.gz`, {
    target: "label",
  });
  assertEquals(members.fields, plain.fields);
});

Deno.test("gzip: a file of several gzip members ingests every row, as its CSV does", async () => {
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const schema = await ml.schema("members").feature("x", ml.float())
      .feature("kind", ml.category()).target("label", ml.category()).create();
    const storage = await ml.storageConnector("data");
    const plain = await ml.ingest("plain.csv", { storage, schema });
    const members = await ml.ingest("members.csv.gz", { storage, schema });
    assertEquals(members.row_count, 400);
    assertEquals(members.columns, plain.columns);
  } finally {
    await ml.close();
  }
});

Deno.test("gzip: quickstart on a .csv.gz file trains the model the .csv gives, and its views agree", async () => {
  const ml = await local({ buckets: { data: dir }, progress: false });
  // Same file, same model, whatever the training: few rounds and two bags
  // (still averaged), a small part of the defaults' CPU.
  const training = { maxRounds: 60, estimators: 2 };
  try {
    const a = await ml.quickstart({
      bucket: "data",
      path: "plain.csv",
      target: "label",
      name: "plain",
      training,
    });
    const b = await ml.quickstart({
      bucket: "data",
      path: "packed.csv.gz",
      target: "label",
      name: "packed",
      training,
    });
    assertEquals(b.model.metrics, a.model.metrics);
    assertEquals(b.model.validation, a.model.validation);
    const query = { x: [-2, 0.5, 3], kind: ["red", "blue sky", "green"] };
    const va = await a.deployment.views(query);
    const vb = await b.deployment.views(query);
    assertEquals(vb.table.data, va.table.data);
  } finally {
    await ml.close();
  }
});

Deno.test("gzip: a .csv.gz file that does not inflate fails ingestion, saying so", async () => {
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const schema = await ml.schema("broken").feature("x", ml.float())
      .target("label", ml.category()).create();
    const storage = await ml.storageConnector("data");
    const error = await ml.ingest("broken.csv.gz", { storage, schema }).then(
      () => null,
      (e: unknown) => e,
    );
    assert(error instanceof Error, "ingestion failed");
    assertStringIncludes(error.message, "gzip data that does not inflate");
    // The file is there: the advice is about the file, not the bucket.
    assert(!error.message.includes("still in the bucket"), error.message);
  } finally {
    await ml.close();
  }
});

Deno.test({
  name: "gzip: clean up",
  fn: () => Deno.remove(dir, { recursive: true }),
});
