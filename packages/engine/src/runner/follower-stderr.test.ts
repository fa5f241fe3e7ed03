import { describe, expect, it } from "vitest";
import { FollowerStderr } from "./follower-stderr.js";

describe("FollowerStderr", () => {
  // Heartbeat dots end no line: the follower begins the header with one.
  const sent = "pgid:42\nvia:tail\n..\nbw-telemetry:12\nP 2\nT 1.5\nC\nend:rc:0:1:2:3:0\n";

  it("keeps the telemetry apart from the lines around it, whole", () => {
    const r = new FollowerStderr();
    r.push(Buffer.from(sent));
    expect(r.telemetry).toBe("P 2\nT 1.5\nC\n");
    expect(r.text).toBe("pgid:42\nvia:tail\n..\nend:rc:0:1:2:3:0\n");
  });

  it("reads the same however the chunks cut it, the header included", () => {
    for (let size = 1; size <= sent.length; size++) {
      const r = new FollowerStderr();
      for (let i = 0; i < sent.length; i += size) r.push(Buffer.from(sent.slice(i, i + size)));
      expect(r.telemetry, `chunks of ${size}`).toBe("P 2\nT 1.5\nC\n");
      expect(r.text, `chunks of ${size}`).toBe("pgid:42\nvia:tail\n..\nend:rc:0:1:2:3:0\n");
    }
  });

  it("has none before the follower sent it, and an empty one when the step had no sampler", () => {
    const r = new FollowerStderr();
    r.push(Buffer.from("pgid:42\n"));
    expect(r.telemetry).toBeUndefined();
    r.push(Buffer.from("bw-telemetry:0\nend:gone::0\n"));
    expect(r.telemetry).toBe("");
    expect(r.text).toBe("pgid:42\nend:gone::0\n");
  });
});
