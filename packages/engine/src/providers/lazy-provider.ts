import type { Provider } from "./provider.js";

/**
 * A provider whose module loads on first use. The AWS SDK's EC2 client is the largest
 * module of the server (about 0.4 s to load and 70 MiB resident): a server that never opens an
 * EC2 session never loads it. A load that fails fails every call, as a constructor would.
 */
export function lazyProvider(load: () => Promise<Provider>): Provider {
  let loaded: Promise<Provider> | undefined;
  const provider = () => (loaded ??= load());
  return {
    ensureMachines: async (ctx) => (await provider()).ensureMachines(ctx),
    destroy: async (ctx) => (await provider()).destroy(ctx),
    sweep: async (options) => (await (await provider()).sweep?.(options)) ?? [],
  };
}
