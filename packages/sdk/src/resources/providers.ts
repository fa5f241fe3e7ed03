import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import type { Provider, ProviderConfigDocument, ProviderConfiguration } from "../types.js";

/** The provider configurations: listed and read by any role, written by an admin. */
export interface ProvidersMethods {
  listProviders(options?: CallOptions): Promise<Provider[]>;
  /** One configuration; its credentials are never answered, `secrets_set` names those that are set. */
  getProvider(name: string, options?: CallOptions): Promise<ProviderConfiguration>;
  /**
   * Creates or replaces a configuration: `document` is what a file of the server's
   * `providers/` folder holds (a `provider` section and one per service type). Sessions made
   * before keep theirs. Refused whole (400) with every problem listed.
   */
  putProvider(name: string, document: ProviderConfigDocument, options?: CallOptions): Promise<ProviderConfiguration>;
  /** Deletes a configuration no live session uses (else 409 `in_use`). */
  deleteProvider(name: string, options?: RequestOptions): Promise<void>;
}

export function providersMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): ProvidersMethods {
  const at = (name: string) => ({ provider_name: name });
  return {
    listProviders: (o) => unwrap(raw.GET("/providers/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    getProvider: (name, o) => unwrap(raw.GET("/providers/{provider_name}", { params: { path: at(name), header: fieldsHeader(o) }, ...init(o) })),
    putProvider: (name, document, o) =>
      unwrap(raw.PUT("/providers/{provider_name}", { body: document, params: { path: at(name), header: fieldsHeader(o) }, ...init(o) })),
    deleteProvider: async (name, o) => {
      await unwrap<void>(raw.DELETE("/providers/{provider_name}", { params: { path: at(name) }, ...init(o) }));
    },
  };
}
