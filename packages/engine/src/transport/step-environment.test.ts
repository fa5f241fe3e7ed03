import { describe, expect, it } from "vitest";
import { stepEnvironment } from "./step-environment.js";

describe("stepEnvironment", () => {
  it("keeps what a login shell sets and drops everything of the server's", () => {
    const env = stepEnvironment({
      PATH: "/usr/bin",
      HOME: "/home/bw",
      USER: "bw",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      TZ: "UTC",
      BENCHWRIGHT_SECRET_KEY: "k",
      BENCHWRIGHT_API_TOKEN: "t",
      DATABASE_URL: "postgres://u:p@h/db",
      AWS_SECRET_ACCESS_KEY: "a",
      NODE_OPTIONS: "--inspect",
      SSH_CLIENT: "10.0.0.1 1 22",
      BW_STEP: "run",
      PATHX: "no",
    });
    expect(env).toEqual({ PATH: "/usr/bin", HOME: "/home/bw", USER: "bw", LANG: "C.UTF-8", LC_ALL: "C", TZ: "UTC" });
  });
});
