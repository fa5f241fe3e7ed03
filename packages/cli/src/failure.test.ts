import { BenchwrightProblemError, type Problem } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { ExitCode, UsageError } from "./exit-codes.js";
import { failureOf } from "./failure.js";
import { Interrupted } from "./interrupt.js";

const problem = (p: Partial<Problem> & Pick<Problem, "code" | "status">) =>
  new BenchwrightProblemError({ type: "about:blank", title: "T", ...p }, new Response(null, { status: p.status }));

describe("failureOf", () => {
  it("gives each kind of failure its exit code", () => {
    const url = "http://127.0.0.1:5000";
    expect(failureOf(problem({ code: "step_failed", status: 502 }), url).exitCode).toBe(ExitCode.stepFailed);
    expect(failureOf(problem({ code: "step_timeout", status: 502 }), url).exitCode).toBe(ExitCode.stepFailed);
    expect(failureOf(problem({ code: "unknown_tool", status: 400 }), url).exitCode).toBe(ExitCode.usage);
    expect(failureOf(problem({ code: "wrong_state", status: 409 }), url).exitCode).toBe(ExitCode.api);
    expect(failureOf(problem({ code: "unauthorized", status: 401 }), url).exitCode).toBe(ExitCode.api);
    expect(failureOf(new UsageError("no"), url).exitCode).toBe(ExitCode.usage);
    expect(failureOf(new Interrupted("SIGINT"), url).exitCode).toBe(130);
    expect(failureOf(new Interrupted("SIGTERM"), url).exitCode).toBe(143);
    expect(failureOf(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }), url)).toEqual({
      exitCode: ExitCode.api,
      message: `cannot reach the server at ${url}: ECONNREFUSED`,
    });
  });

  it("says what the server said: the detail, each failing field and the valid names", () => {
    const { message } = failureOf(
      problem({
        code: "unknown_provider",
        status: 400,
        title: "Unknown provider configuration",
        detail: "No provider 'x'",
        choices: ["local", "aws"],
        errors: [{ path: "/provider", message: "bad" }],
      }),
      "u",
    );
    expect(message).toBe("Unknown provider configuration: No provider 'x' (unknown_provider, HTTP 400)\n  /provider: bad\n  choices: local, aws");
  });

  it("tells how to send the token when the server asks for one", () => {
    const { message, exitCode } = failureOf(
      problem({ code: "unauthorized", status: 401, title: "Unauthorized", detail: "Send Authorization: Bearer <token>" }),
      "u",
    );
    expect(exitCode).toBe(ExitCode.api);
    expect(message).toContain("this server needs an API token: pass --token <token> or set BENCHWRIGHT_API_TOKEN");
  });
});
