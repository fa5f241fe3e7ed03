import { describe, expect, it } from "vitest";
import type { Store } from "../store/store.js";
import { Alerts } from "./alerts.js";

describe("a change's alerts", () => {
  it("tells a revision of a change again, as the same change under a key of its own", async () => {
    const enqueued: Array<[string, string, string | null, unknown]> = [];
    const store = { webhooks: { enqueue: async (...args: [string, string, string | null, unknown]) => (enqueued.push(args), 1) } } as unknown as Store;
    const alerts = new Alerts({ store });
    const first = { id: "c1", direction: "regression" as const, seq: 12, size: -0.16, revision: 1 };
    const settled = { ...first, seq: 13, size: -0.2, revision: 2 };
    await alerts.onChange(first, { plan_id: null });
    await alerts.onChange(settled, { plan_id: "p1" });
    expect(enqueued).toEqual([
      ["regression", "change:c1", null, { change: first }],
      ["regression", "change:c1:2", "p1", { change: settled }],
    ]);
  });
});
