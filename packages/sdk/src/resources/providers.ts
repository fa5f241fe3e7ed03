import type { CallOptions, ClientContext } from "../client-context.js";
import type { Provider } from "../types.js";

export interface ProvidersMethods {
  listProviders(options?: CallOptions): Promise<Provider[]>;
}

export function providersMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): ProvidersMethods {
  return {
    listProviders: (o) => unwrap(raw.GET("/providers/", { params: { header: fieldsHeader(o) }, ...init(o) })),
  };
}
