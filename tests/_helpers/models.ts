/**
 * Assertions on trained models shared by the model tests.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import type { EbmModel } from "../../src/local/model/types.ts";

/**
 * A regression model's record: one score column, no classes, no
 * classification metrics, and error metrics that hold together (RMSE
 * positive, MAE at most RMSE).
 */
export function assertRegressionRecord(model: EbmModel): void {
  assertEquals(model.task, "regression");
  assertEquals(model.classes, []);
  assertEquals(model.scoreColumns, 1);
  assertEquals(model.metrics.validationAuc, null);
  assertEquals(model.metrics.trainLogLoss, null);
  assert(model.metrics.validationRmse! > 0);
  assert(model.metrics.validationMae! <= model.metrics.validationRmse!);
}
