import { describe, expect, it } from "vitest";
import { href, parseRoute } from "./router.js";

describe("hash routes", () => {
  it("read a path and a query", () => {
    const route = parseRoute("#/compare?ids=a,b&baseline=b");
    expect(route.path).toEqual(["compare"]);
    expect(route.query.get("ids")).toBe("a,b");
    expect(route.query.get("baseline")).toBe("b");
    expect(parseRoute("").path).toEqual([]);
  });

  it("round-trip through href", () => {
    const link = href(["executions", "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f"]);
    expect(parseRoute(link).path).toEqual(["executions", "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f"]);
    expect(parseRoute(href(["compare"], { ids: "a,b" })).query.get("ids")).toBe("a,b");
  });
});
