import { RestError } from "@azure/core-rest-pipeline";
import { describe, expect, it } from "vitest";
import { PUBLIC_ONLY } from "../../net/outbound-guard.js";
import { azureFailure } from "./azure-clients.js";

const SECRET = "INTERNAL-SECRET-7f3a";
const ALLOWED = { allowPrivate: true };

/** As Resource Manager's client throws an answer: its code, its message, its status. */
function armError(code: string, status: number): RestError {
  return new RestError(`${SECRET}: what the remote said`, { code, statusCode: status });
}

describe("azureFailure", () => {
  it("keeps the status and code of a configured endpoint's answer, not its message", async () => {
    const out = (await azureFailure(armError("QuotaExceeded", 409), true, PUBLIC_ONLY, [])) as Error;
    expect(out.name).toBe("QuotaExceeded");
    expect(out.message).toBe("HTTP 409 from the configured endpoint");
  });

  it("drops a code that is not one: free text could carry what the remote read", async () => {
    const out = (await azureFailure(armError(`${SECRET} root:x:0:0`, 400), true, PUBLIC_ONLY, [])) as Error;
    expect(out.name).toBe("Error");
    expect(out.message).not.toContain(SECRET);
  });

  it("passes on Microsoft's own answers, and any answer when the operator allows private endpoints", async () => {
    const error = armError("PlatformImageNotFound", 404);
    expect(await azureFailure(error, false, PUBLIC_ONLY, [])).toBe(error);
    expect(await azureFailure(error, true, ALLOWED, [])).toBe(error);
  });

  it("says which host the guard refused when the failure does not (MSAL's endpoints_resolution_error)", async () => {
    const hidden = new Error("endpoints_resolution_error: See https://aka.ms/msal.js.errors#endpoints_resolution_error for details");
    const out = (await azureFailure(hidden, true, PUBLIC_ONLY, ["login.example.invalid", "127.0.0.1"])) as Error;
    expect(out.message).toBe(
      "azure: endpoint refused: 127.0.0.1 is a loopback address, which the server does not call unless BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is set",
    );
    expect(await azureFailure(hidden, true, ALLOWED, ["127.0.0.1"])).toBe(hidden);
  });
});
