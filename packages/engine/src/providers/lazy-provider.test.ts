import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadedAfter as loadedAfterIn } from "@benchwright/testing";
import { lazyProvider } from "./lazy-provider.js";
import type { Provider } from "./provider.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist");

const loadedAfter = (script: string) => loadedAfterIn(DIST, script, "@aws-sdk/client-ec2");

describe("lazyProvider", () => {
  it("loads once, on the first call, and fails every call when the load fails", async () => {
    let loads = 0;
    const real: Provider = { ensureMachines: async () => [], destroy: async () => {} };
    const provider = lazyProvider(async () => (loads++, real));
    expect(loads).toBe(0);
    expect(await provider.ensureMachines({} as never)).toEqual([]);
    await provider.destroy({} as never);
    expect(await provider.sweep!({} as never)).toEqual([]);
    expect(loads).toBe(1);

    const broken = lazyProvider(async () => Promise.reject(new Error("no module")));
    await expect(broken.ensureMachines({} as never)).rejects.toThrow("no module");
    await expect(broken.destroy({} as never)).rejects.toThrow("no module");
  });

  // Built code: the server process as it runs. The AWS SDK costs ~0.4 s and ~70 MiB at start.
  it("keeps the AWS SDK out of a process that opens no EC2 session (built engine)", () => {
    // The probe sees the SDK when it is loaded...
    expect(loadedAfter(`await import("./providers/cloud/ec2-driver.js");`)).toBe(true);
    // ...and the engine, with an EC2 provider made but not used, does not load it.
    expect(
      loadedAfter(`
      await import("./index.js");
      const { parseProviderConfig } = await import("./config/parse-provider-config.js");
      const { createCloudProvider } = await import("./providers/cloud/index.js");
      createCloudProvider(parseProviderConfig({ name: "x", serviceType: "d", providerClass: "cloud",
        provider: { class: "cloud", driver: "ec2", access_id: "a", secret_key: "b", region: "eu-west-1" },
        service: { image: "i", size: "t", vm_user: "u" } }));
    `),
    ).toBe(false);
  }, 120_000);

  // Google's Compute client is heavier still (seconds to load on a busy machine); Azure's clients load MSAL and both ARM SDKs.
  const heavier = [
    {
      sdk: "@google-cloud/compute",
      driver: "gce-driver",
      provider: { driver: "gce", access_id: "a@b", secret_key: "k", project: "p", region: "europe-west1-b" },
      image: "i",
    },
    {
      // Azure's SDKs load as ES modules, which the probe does not see: core-client is the CommonJS part they load.
      sdk: "@azure/core-client",
      driver: "azure-driver",
      provider: { driver: "azure", access_id: "c", secret_key: "s", tenant: "t", subscription_id: "s", resource_group: "g", region: "westeurope" },
      image: "Debian:debian-12:12-gen2:latest",
    },
  ];
  for (const { sdk, driver, provider, image } of heavier) {
    it(`keeps ${sdk} out of a process that opens no ${provider.driver} session (built engine)`, () => {
      const loaded = (script: string) => loadedAfterIn(DIST, script, sdk);
      expect(loaded(`await import("./providers/cloud/${driver}.js");`)).toBe(true);
      const config = {
        name: "x",
        serviceType: "d",
        providerClass: "cloud",
        provider: { class: "cloud", ...provider },
        service: { image, size: "s", vm_user: "u", network: "v/s" },
      };
      expect(
        loaded(`
        await import("./index.js");
        const { parseProviderConfig } = await import("./config/parse-provider-config.js");
        const { createCloudProvider } = await import("./providers/cloud/index.js");
        createCloudProvider(parseProviderConfig(${JSON.stringify(config)}));
      `),
      ).toBe(false);
    }, 120_000);
  }
});
