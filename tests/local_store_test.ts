import { assertEquals } from "@std/assert";
import { MemoryStore } from "../src/local/store/store.ts";
import { newRecord } from "../src/local/store/records.ts";

const caller = (account: string) => ({
  account: { id: account, name: account },
  user: { id: "u", name: "U" },
});

Deno.test("store: lists by kind and account stay in step with puts, replacements and removals", () => {
  const s = new MemoryStore();
  const a1 = newRecord(s, caller("a"), "workspaces", { name: "one" });
  s.put(a1);
  const b1 = newRecord(s, caller("b"), "workspaces", { name: "one" });
  s.put(b1);
  const a2 = newRecord(s, caller("a"), "workspaces", { name: "two" });
  const m = newRecord(s, caller("a"), "models", { name: "one" });
  s.putMany([a2, m]);
  const names = (account: string) =>
    s.list("workspaces", account).map((r) => r.body.name);
  assertEquals(names("a"), ["one", "two"]);
  assertEquals(names("b"), ["one"]);
  assertEquals(s.list("models", "a").map((r) => r.id), [m.id]);
  // A replacement keeps its place and shows its new body.
  s.put({ ...a1, body: { ...a1.body, name: "first" } });
  assertEquals(names("a"), ["first", "two"]);
  // A removal leaves every list; the same id stored again comes last.
  s.remove("workspaces", a1.id);
  assertEquals(names("a"), ["two"]);
  assertEquals(s.get("workspaces", a1.id), undefined);
  s.put(a1);
  assertEquals(names("a"), ["two", "one"]);
  s.remove("workspaces", b1.id);
  assertEquals(names("b"), []);
  assertEquals(s.inAccount("a").length, 3);
});
