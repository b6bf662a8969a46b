/**
 * A client that must not send anything: for the checks that refuse bad
 * input before a request. Every request it is asked to send is counted and
 * fails, so a test that expects none can say so.
 */
import { MLPlatform } from "../../src/platform.ts";

/** An `MLPlatform` whose every request fails, and how many it was asked for. */
export function offlinePlatform(): { ml: MLPlatform; requests: () => number } {
  let requests = 0;
  const ml = new MLPlatform({
    baseUrl: "https://mlp.test",
    clientId: "id",
    clientSecret: "secret",
    fetch: () => {
      requests++;
      return Promise.reject(new Error("no request may be sent"));
    },
    progress: false,
  });
  return { ml, requests: () => requests };
}
