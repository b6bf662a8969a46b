/**
 * The column names travel through the job builders as one type parameter
 * (`C extends ColumnSet`): from the typed input each factory method is given
 * to what awaiting its builder gives. The `@ts-expect-error` lines fail
 * `deno check` if a builder ever loses the names (they would type-check as
 * plain strings).
 */
import { assertEquals } from "@std/assert";
import { MLPlatform } from "../src/platform.ts";
import type {
  ColumnSet,
  FeaturesOf,
  TargetsOf,
  Typed,
} from "../src/builders/types.ts";
import type { IngestionJobBuilder } from "../src/builders/ingestion.ts";

type Penguin = ColumnSet<"island" | "bill_length_mm", "species">;
type PenguinRef = Typed<{ id: string }, "island" | "bill_length_mm", "species">;
/** A reference carrying the column names of `X`. */
type RefOf<X> = Typed<{ id: string }, FeaturesOf<X>, TargetsOf<X>>;

function platform(): MLPlatform {
  return new MLPlatform({
    baseUrl: "https://mlp.invalid",
    clientId: "id",
    clientSecret: "secret",
    progress: false,
  });
}

Deno.test("builder types: the column set is inferred from the typed input and reaches what await gives", () => {
  const ml = platform();
  const configuration: PenguinRef = { id: "ic_1" };
  const ingestion = ml.ingestionJob({
    configuration,
    storage: "sc_1",
    compute: "cc_1",
    path: "penguins.csv",
    datasourceName: "penguins",
  });
  const named: IngestionJobBuilder<Penguin> = ingestion;
  type Datasource = Awaited<typeof ingestion>;
  const features: FeaturesOf<Datasource>[] = ["island", "bill_length_mm"];
  const targets: TargetsOf<Datasource>[] = ["species"];
  // @ts-expect-error "bill" is not a feature of the datasource the job makes
  const notAFeature: FeaturesOf<Datasource> = "bill";
  // @ts-expect-error "specie" is not a target
  const notATarget: TargetsOf<Datasource> = "specie";
  void [notAFeature, notATarget];

  // Through onboarding and training: the names reach the model, or the
  // last line would type-check.
  const onboarding = ml.onboardingJob({
    datasource: { id: "src_1" } as RefOf<Datasource>,
    configuration: "oc_1",
    compute: "cc_1",
    datasetName: "penguins",
  });
  const training = ml.trainingJob({
    dataset: { id: "ds_1" } as RefOf<Awaited<typeof onboarding>>,
    configuration: "tc_1",
    compute: "cc_1",
    modelName: "penguins",
  });
  // @ts-expect-error the model keeps the schema's features
  const notInModel: FeaturesOf<Awaited<typeof training>> = "flipper";
  void notInModel;

  // The builders are the ordinary ones at run time: references go to `<x>_id`.
  assertEquals(named.body().data_processing_configuration_id, "ic_1");
  assertEquals(onboarding.body().datasource_id, "src_1");
  assertEquals(training.body().dataset_id, "ds_1");
  assertEquals([features, targets], [["island", "bill_length_mm"], [
    "species",
  ]]);
});

Deno.test("builder types: an untyped input gives untyped (any string) column names", () => {
  const training = platform().trainingJob({
    dataset: "ds_1",
    configuration: "tc_1",
    compute: "cc_1",
    modelName: "m",
  });
  const anyFeature: FeaturesOf<Awaited<typeof training>> = "whatever";
  assertEquals(anyFeature, "whatever");
  assertEquals(training.body().dataset_id, "ds_1");
});
