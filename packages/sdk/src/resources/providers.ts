import type { Client, HeadersOptions } from "openapi-fetch";
import type { paths } from "../generated/schema.js";
import type { Provider, ProviderConfigDocument, ProviderConfiguration } from "../generated/schema-types.js";

/** What the provider methods are built on: the typed fetch client and the client's own call helpers. */
export interface ProvidersContext {
  raw: Client<paths>;
  unwrap<T>(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T>;
  init(options: { headers?: HeadersOptions; signal?: AbortSignal } | undefined): { headers?: HeadersOptions; signal?: AbortSignal };
  fieldsHeader(options: { fields?: string } | undefined): { "X-Fields": string } | undefined;
}

type Options = { headers?: HeadersOptions; signal?: AbortSignal; fields?: string };

/** The provider configurations: listed and read by any role, written by an admin. */
export interface ProvidersMethods {
  listProviders(options?: Options): Promise<Provider[]>;
  /** One configuration; its credentials are never answered, `secrets_set` names those that are set. */
  getProvider(name: string, options?: Options): Promise<ProviderConfiguration>;
  /**
   * Creates or replaces a configuration: `document` is what a file of the server's
   * `providers/` folder holds (a `provider` section and one per service type). Sessions made
   * before keep theirs. Refused whole (400) with every problem listed.
   */
  putProvider(name: string, document: ProviderConfigDocument, options?: Options): Promise<ProviderConfiguration>;
  /** Deletes a configuration no live session uses (else 409 `in_use`). */
  deleteProvider(name: string, options?: Omit<Options, "fields">): Promise<void>;
}

export function providersMethods({ raw, unwrap, init, fieldsHeader }: ProvidersContext): ProvidersMethods {
  const at = (name: string) => ({ provider_name: name });
  return {
    listProviders: (o) => unwrap<Provider[]>(raw.GET("/providers/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    getProvider: (name, o) =>
      unwrap<ProviderConfiguration>(raw.GET("/providers/{provider_name}", { params: { path: at(name), header: fieldsHeader(o) }, ...init(o) })),
    putProvider: (name, document, o) =>
      unwrap<ProviderConfiguration>(raw.PUT("/providers/{provider_name}", { body: document, params: { path: at(name), header: fieldsHeader(o) }, ...init(o) })),
    deleteProvider: async (name, o) => {
      await unwrap<void>(raw.DELETE("/providers/{provider_name}", { params: { path: at(name) }, ...init(o) }));
    },
  };
}
