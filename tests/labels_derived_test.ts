// A labelled date column's derived features are shown by the column's
// label: the platform adds them to `field_labels` of the model record, its
// explanation and its views, so cards, frames and charts print
// "Ride date (weekday)", not `day:weekday`.
import { assert, assertEquals } from "@std/assert";
import { local } from "../local.ts";
import { columnLabel } from "../src/schemas/label_display.ts";

Deno.test("labels: a labelled date's weekday shows as the date's friendly name with its part", async () => {
  const dir = await Deno.makeTempDir({ prefix: "labels_derived_" });
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    // 120 days from Monday 2024-01-01; weekends are busier.
    const lines = ["day,x,y"];
    for (let i = 0; i < 120; i++) {
      const day = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
      const x = (i * 37) % 11;
      lines.push(`${day},${x},${x + (i % 7 >= 5 ? 10 : 0)}`);
    }
    await Deno.writeTextFile(`${dir}/rides.csv`, lines.join("\n") + "\n");
    const storage = await ml.storageConnector("data");
    const schema = await ml.schema("rides")
      .feature("day", ml.category(), { friendlyName: "Ride date" })
      .feature("x", ml.float())
      .target("y", ml.float())
      .create();
    const source = await ml.ingest("rides.csv", { storage, schema });
    const dataset = await ml.onboard(source, { predictionType: "REGRESSION" });
    const model = await ml.train(dataset, { randomSeed: 1, maxRounds: 30 });
    assert(model.terms!.includes("day:weekday"), model.terms!.join());

    const record = await ml.models.get(model.id);
    assertEquals(
      record.field_labels?.["day:weekday"].label,
      "Ride date (weekday)",
    );
    assertEquals(record.field_labels?.day.label, "Ride date");
    // An unlabelled column gets no entry, derived or not.
    assertEquals(record.field_labels?.x, undefined);

    const explained = await ml.models.explanation(model.id);
    assertEquals(
      explained.field_labels?.["day:weekday"].label,
      "Ride date (weekday)",
    );

    const live = await ml.deploy(model);
    const answer = await live.views({ day: ["2024-02-03"], x: [4] });
    const labels = answer.table.field_labels;
    assertEquals(
      columnLabel("contribution.day:weekday", labels),
      "Ride date (weekday)",
    );
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});
