import type { CallOptions, ClientContext } from "../client-context.js";
import type { Whoami } from "../types.js";

export interface WhoamiMethods {
  /** The caller's principal and role (`viewer`, `operator`, `admin`): what a client may offer it. */
  whoami(options?: CallOptions): Promise<Whoami>;
}

export function whoamiMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): WhoamiMethods {
  return {
    whoami: (o) => unwrap(raw.GET("/whoami", { params: { header: fieldsHeader(o) }, ...init(o) })),
  };
}
