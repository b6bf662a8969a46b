/**
 * The schema builder's labels and anchors, and the views builder's anchor,
 * checked before anything is sent (docs/contract.md#labels-and-anchors).
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { SchemaBuilder } from "../src/builders/schema.ts";
import { category, float, integer } from "../src/builders/fields.ts";
import { ViewsBuilder } from "../src/builders/views.ts";
import { ValidationError } from "../src/http/errors.ts";

Deno.test("schema builder: labels and anchors become the create body's arrays; an unlabelled body is unchanged", () => {
  const plain = new SchemaBuilder(undefined, "s").feature("tenure", integer())
    .target("churn").body();
  // data_protections is the create schema's default (docs/contract.md#create-bodies-and-defaults), not a label.
  assertEquals(Object.keys(plain).sort(), [
    "data_protections",
    "fields",
    "name",
  ]);
  assertEquals(plain.data_protections, []);
  const body = new SchemaBuilder(undefined, "s")
    .feature("tenure", integer(), { friendlyName: "Tenure", unit: "months" })
    .feature("contract", category())
    .feature("contract", { categories: { "Month-to-month": "Monthly" } })
    .feature("charges", { type: float(), unit: "USD", dimension: "currency" })
    .target("churn", category(), { categories: { Yes: "Churned" } })
    .label("tenure", { dimension: "time" })
    .anchor("median", { tenure: 29, contract: null }, { default: true })
    .body();
  assert(body.fields.every((f) => !("labels" in f)));
  assertEquals(body.friendly_names, [{
    field_name: "tenure",
    friendly_name: "Tenure",
  }]);
  assertEquals(body.units?.map((u) => u.field_name), ["tenure", "charges"]);
  assertEquals(body.dimensions?.map((d) => d.dimension), ["time", "currency"]);
  assertEquals(
    body.category_friendly_names?.map((c) => `${c.field_name}:${c.category}`),
    ["contract:Month-to-month", "churn:Yes"],
  );
  assertEquals(body.data_anchors, [{
    name: "median",
    default: true,
    terms: [{ field_name: "tenure", value: 29 }, {
      field_name: "contract",
      value: null,
    }],
  }]);
});

Deno.test("schema builder: a label that does not fit is refused before sending, naming the field", () => {
  const e = assertThrows(
    () => new SchemaBuilder(undefined, "s").feature("x", { unit: "kg" }),
    ValidationError,
  );
  assertEquals(e.issues[0].path, "fields.0.data_type");
  const unit = assertThrows(
    () =>
      new SchemaBuilder(undefined, "s").feature("c", category(), { unit: "kg" })
        .target("y").body(),
    ValidationError,
  );
  assertEquals(unit.issues[0].path, "units.0.field_name");
  const anchor = assertThrows(
    () =>
      new SchemaBuilder(undefined, "s").feature("n", float()).target("y")
        .anchor("a", { n: "high" as unknown as number }).body(),
    ValidationError,
  );
  assertEquals(anchor.issues[0].path, "data_anchors.0.terms.0.value");
});

Deno.test("views builder: the anchor reaches the body; a bad one is refused naming anchor", () => {
  const views = new ViewsBuilder(undefined, {
    deployment: "dm_1",
    query: { tenure: [1, 2] },
  });
  assertEquals(views.body().anchor, undefined);
  assertEquals(views.against("anc_1").body().anchor, "anc_1");
  assertEquals(
    views.against({ query: { tenure: [12] } }).body().anchor,
    { query: { tenure: [12] } },
  );
  assertEquals(views.against(null).body().anchor, null);
  const e = assertThrows(
    () => views.against({ query: { tenure: [1], x: [1, 2] } }).body(),
    ValidationError,
  );
  assertEquals(e.issues[0].path, "anchor");
});
