/**
 * A data schema's labels and anchors on the local platform
 * (docs/contract.md#labels-and-anchors): every label's create, read, list
 * and delete; 400s naming the field; the integrity 409s (a label a deployed
 * model shows, a schema with labels); views and explanations carrying the
 * labels and measured against an anchor, still adding up exactly.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import { ConflictError, ValidationError } from "../src/http/errors.ts";
import {
  deployPenguins,
  ingestPenguins,
  penguinQuery,
  setup,
  untilRunning,
} from "./_helpers/local_setup.ts";

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The column of `name` in a split table. */
function column(t: { columns: string[]; data: unknown[][] }, name: string) {
  const j = t.columns.indexOf(name);
  assert(j >= 0, `no column ${name}`);
  return t.data.map((r) => r[j]);
}

Deno.test("labels: each label's create, get, list and delete; the schema and its fields show them", async () => {
  const { platform, client } = await setup();
  try {
    const { schema } = await ingestPenguins(client);
    const fn = await client.friendlyNames.create(schema.id, {
      field_name: "body_mass_g",
      friendly_name: "Body mass",
    });
    const unit = await client.units.create(schema.id, {
      field_name: "body_mass_g",
      unit: "g",
    });
    const dim = await client.dimensions.create(schema.id, {
      field_name: "body_mass_g",
      dimension: "mass",
    });
    const cat = await client.categoryFriendlyNames.create(schema.id, {
      field_name: "species",
      category: "Adelie",
      friendly_name: "Adélie penguin",
    });
    const anchor = await client.dataAnchors.create(schema.id, {
      name: "typical",
      terms: [{ field_name: "body_mass_g", value: 4200 }, {
        field_name: "island",
        value: "Dream",
      }],
    });
    assert(fn.id.startsWith("fn_") && fn.field.name === "body_mass_g");
    assertEquals(anchor.default, false);
    assertEquals(anchor.terms.map((t) => t.field.name), [
      "body_mass_g",
      "island",
    ]);
    assert(anchor.terms.every((t) => typeof t.id === "string"));
    const stored = await client.dataSchemas.get(schema.id);
    const mass = stored.fields.find((f) => f.name === "body_mass_g")!;
    assertEquals([mass.unit, mass.dimension], ["g", "mass"]);
    assertEquals(stored.friendly_names.map((f) => f.id), [fn.id]);
    assertEquals(
      stored.category_friendly_names[0].friendly_name,
      "Adélie penguin",
    );
    assertEquals(stored.data_anchors[0].id, anchor.id);
    assertEquals((await client.units.get(schema.id, unit.id)).unit, "g");
    assertEquals((await client.dimensions.list(schema.id)).data.length, 1);
    assertEquals(
      (await client.categoryFriendlyNames.list(schema.id)).data[0].id,
      cat.id,
    );
    // Every collection lists and gets what it holds.
    const made = [
      [client.friendlyNames, fn.id],
      [client.units, unit.id],
      [client.dimensions, dim.id],
      [client.categoryFriendlyNames, cat.id],
      [client.dataAnchors, anchor.id],
    ] as const;
    for (const [labels, id] of made) {
      const page = await labels.list(schema.id);
      assertEquals(page.data.map((l) => l.id), [id]);
      assertEquals((await labels.get(schema.id, id)).id, id);
    }
    // The schema cannot go before its labels: 409 listing them.
    const blocked = await assertRejects(
      () => client.dataSchemas.delete(schema.id),
      ConflictError,
    );
    const types = (blocked.dependants ?? []).map((d) => d.dependant_type);
    for (
      const t of [
        "FRIENDLY_NAME",
        "UNIT",
        "DIMENSION",
        "CATEGORY_FRIENDLY_NAME",
        "DATA_ANCHOR",
        "DATA_ANCHOR_TERM",
        "DATA_PROCESSING_INGESTION_CONFIGURATION",
      ]
    ) assert(types.includes(t as never), `${t} in ${types}`);
    // Nothing deployed shows them: each goes, and the field forgets its unit.
    await client.units.delete(schema.id, unit.id);
    await client.dimensions.delete(schema.id, dim.id);
    await client.friendlyNames.delete(schema.id, fn.id);
    await client.categoryFriendlyNames.delete(schema.id, cat.id);
    await client.dataAnchors.delete(schema.id, anchor.id);
    const after = await client.dataSchemas.get(schema.id);
    const again = after.fields.find((f) => f.name === "body_mass_g")!;
    assertEquals([again.unit, again.dimension], [null, null]);
    assertEquals(after.friendly_names.length + after.data_anchors.length, 0);
    await assertRejects(
      () => client.units.get(schema.id, unit.id),
      Error,
      "No unit",
    );
  } finally {
    await platform.close();
  }
});

Deno.test("labels: a label that does not fit its field is a 400 naming it, at create and as a sub-resource", async () => {
  const { platform, client } = await setup();
  try {
    const { schema } = await ingestPenguins(client);
    const cases: [() => Promise<unknown>, string][] = [
      [
        () =>
          client.units.create(schema.id, { field_name: "island", unit: "km" }),
        "field_name",
      ],
      [
        () =>
          client.friendlyNames.create(schema.id, {
            field_name: "nope",
            friendly_name: "N",
          }),
        "field_name",
      ],
      [
        () =>
          client.categoryFriendlyNames.create(schema.id, {
            field_name: "body_mass_g",
            category: "1",
            friendly_name: "x",
          }),
        "field_name",
      ],
      [
        () =>
          client.dataAnchors.create(schema.id, {
            name: "a",
            terms: [{ field_name: "species", value: "Adelie" }],
          }),
        "terms.0.field_name",
      ],
      [
        () =>
          client.dataAnchors.create(schema.id, {
            name: "a",
            terms: [{ field_name: "body_mass_g", value: "heavy" }],
          }),
        "terms.0.value",
      ],
    ];
    for (const [call, path] of cases) {
      const e = await assertRejects(call, ValidationError);
      assert(
        e.issues.some((i) => i.path === path),
        `${path}: ${JSON.stringify(e.issues)}`,
      );
    }
    await client.units.create(schema.id, {
      field_name: "body_mass_g",
      unit: "g",
    });
    await assertRejects(
      () =>
        client.units.create(schema.id, {
          field_name: "body_mass_g",
          unit: "kg",
        }),
      ConflictError,
      "has one already",
    );
    await client.dataAnchors.create(schema.id, {
      name: "d",
      default: true,
      terms: [{ field_name: "sex", value: null }],
    });
    await assertRejects(
      () =>
        client.dataAnchors.create(schema.id, {
          name: "e",
          default: true,
          terms: [{ field_name: "sex", value: "male" }],
        }),
      ConflictError,
      "default anchor already",
    );
    // At create, the same checks with the array's path.
    const created = await assertRejects(
      () =>
        client.dataSchemas.create({
          name: "bad",
          fields: [{
            name: "x",
            data_type: { data_type: "STRING" },
            designation: "FEATURE",
            semantic_type: "CATEGORICAL",
          }],
          units: [{ field_name: "x", unit: "m" }],
        }),
      ValidationError,
    );
    assertEquals(created.issues[0].path, "units.0.field_name");
  } finally {
    await platform.close();
  }
});

Deno.test("labels: views and explanations show the labels; an anchor's contributions add up exactly; a shown label cannot be deleted", async () => {
  const { platform, client } = await setup();
  try {
    const { dm, model } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    const schemaId = (await client.dataSchemas.list()).data[0].id;
    const fn = await client.friendlyNames.create(schemaId, {
      field_name: "body_mass_g",
      friendly_name: "Body mass",
    });
    const unit = await client.units.create(schemaId, {
      field_name: "body_mass_g",
      unit: "g",
    });
    await client.categoryFriendlyNames.create(schemaId, {
      field_name: "species",
      category: "Gentoo",
      friendly_name: "Gentoo penguin",
    });
    const query = penguinQuery(9);
    const plain = await client.deployedModels.views(dm.id, { query });
    // Raw names on the wire, labels beside them.
    assert(plain.columns.includes("contribution.body_mass_g"));
    assertEquals(plain.field_labels?.body_mass_g.label, "Body mass (g)");
    assertEquals(
      plain.field_labels?.species.categories.Gentoo,
      "Gentoo penguin",
    );
    assertEquals(plain.anchor, undefined);
    const g = await client.models.explanation(model.id);
    assertEquals(g.field_labels?.body_mass_g.unit, "g");

    // An anchor: a stored row, then rows sent with the request.
    const anchor = await client.dataAnchors.create(schemaId, {
      name: "heavy Biscoe",
      terms: [{ field_name: "body_mass_g", value: 5000 }, {
        field_name: "island",
        value: "Biscoe",
      }],
    });
    const contributions = (t: typeof plain) =>
      t.columns.flatMap((c, j) => c.startsWith("contribution.") ? [j] : []);
    for (
      const body of [
        { query, anchor: anchor.id },
        {
          query,
          anchor: {
            query: {
              body_mass_g: [3000, 4000, 5000],
              island: ["Dream", "Dream", "Biscoe"],
            },
          },
        },
        { query, anchor: { query } },
      ]
    ) {
      const t = await client.deployedModels.views(dm.id, body);
      assert(t.anchor && t.anchor.rows >= 1);
      const bias = column(t, "bias") as number[];
      const bias0 = column(plain, "bias") as number[];
      t.data.forEach((row, i) => {
        const total = (bias[i] as number) +
          sum(contributions(t).map((j) => row[j] as number));
        const total0 = bias0[i] +
          sum(contributions(plain).map((j) => plain.data[i][j] as number));
        assertAlmostEquals(total, total0, 1e-9);
      });
      // Predictions do not move.
      assertEquals(
        column(t, "prediction.species"),
        column(plain, "prediction.species"),
      );
    }
    // The query as its own population, one class explained: every
    // contribution's mean over the rows is 0.
    const self = await client.deployedModels.views(dm.id, {
      query,
      targets: { species: "Adelie" },
      anchor: { query },
    });
    assertEquals(self.anchor?.rows, 9);
    for (const j of contributions(self)) {
      const mean = sum(self.data.map((r) => r[j] as number)) / 9;
      assertAlmostEquals(mean, 0, 1e-9);
    }
    const unknown = await assertRejects(
      () => client.deployedModels.views(dm.id, { query, anchor: "anc_nope" }),
      ValidationError,
    );
    assertEquals(unknown.issues[0].path, "anchor");
    const badColumn = await assertRejects(
      () =>
        client.deployedModels.views(dm.id, {
          query,
          anchor: { query: { nope: [1] } },
        }),
      ValidationError,
    );
    assertEquals(badColumn.issues[0].path, "anchor.query.nope");
    // The target is no feature: it fixed nothing and was passed over.
    const target = await assertRejects(
      () =>
        client.deployedModels.views(dm.id, {
          query,
          anchor: { query: { species: ["Adelie"] } },
        }),
      ValidationError,
    );
    assertEquals(target.issues[0].path, "anchor.query.species");
    assertStringIncludes(target.message, "not a feature of this model");
    // An empty column is named, not "Invalid input" for the whole anchor.
    const empty = await assertRejects(
      () =>
        client.deployedModels.views(dm.id, {
          query,
          anchor: { query: { bill_length_mm: [] } },
        }),
      ValidationError,
    );
    assertEquals(empty.issues[0].path, "anchor.query.bill_length_mm");
    assertStringIncludes(empty.message, "at least one reference value");

    // Explanation against the anchor: shapes shift, the intercept takes the sum.
    const ga = await client.models.explanation(model.id, {
      anchorId: anchor.id,
    });
    assertEquals(ga.anchor?.id, anchor.id);
    // Each shape moves by one constant per class; the intercept gains their sum.
    g.score_classes.forEach((_, k) => {
      let moved = 0;
      for (const t of g.terms) {
        const a = ga.terms.find((x) => x.name === t.name)!;
        const d = t.scores[k][0] - a.scores[k][0];
        t.scores[k].forEach((v, q) =>
          assertAlmostEquals(v - a.scores[k][q], d, 1e-9)
        );
        moved += d;
      }
      assertAlmostEquals(ga.intercept[k] - g.intercept[k], moved, 1e-9);
      assert(Math.abs(moved) > 0);
    });
    const none = await client.models.explanation(model.id, {
      anchorId: "none",
    });
    assertEquals(none.intercept, g.intercept);
    const wrong = await assertRejects(
      () => client.models.explanation(model.id, { anchorId: "anc_nope" }),
      ValidationError,
    );
    assertEquals(wrong.issues[0].path, "anchor_id");

    // A default anchor applies when the request names none, and null turns it off.
    await client.dataAnchors.delete(schemaId, anchor.id); // not default: nothing uses it
    const def = await client.dataAnchors.create(schemaId, {
      name: "default",
      default: true,
      terms: [{ field_name: "flipper_length_mm", value: 200 }],
    });
    const byDefault = await client.deployedModels.views(dm.id, { query });
    assertEquals(byDefault.anchor?.id, def.id);
    const off = await client.deployedModels.views(dm.id, {
      query,
      anchor: null,
    });
    assertEquals(off.anchor, undefined);
    assertEquals(off.data, plain.data);

    // Labels and the default anchor that the deployed model shows: 409 naming it.
    for (
      const del of [
        () => client.friendlyNames.delete(schemaId, fn.id),
        () => client.units.delete(schemaId, unit.id),
        () => client.dataAnchors.delete(schemaId, def.id),
      ]
    ) {
      const e = await assertRejects(del, ConflictError);
      assertEquals(e.dependants?.map((d) => d.id), [dm.id]);
      assertEquals(e.dependants?.[0].dependant_type, "DEPLOYED_MODEL");
    }
    await client.deployedModels.delete(dm.id);
    await client.friendlyNames.delete(schemaId, fn.id);
  } finally {
    await platform.close();
  }
});
