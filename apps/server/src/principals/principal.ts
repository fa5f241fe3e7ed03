import type { Response } from "express";
import { BOOTSTRAP_PRINCIPAL, type WatchedToken } from "@benchwright/engine";

export type Role = "viewer" | "operator" | "admin";

/** Who sent a request: a token's principal, or the bootstrap admin. */
export interface Principal {
  id: string;
  role: Role;
  /** The stored token the request came with (none for the bootstrap token): its streams end with it. */
  token?: WatchedToken;
}

/** The request's principal, set by the authentication middleware; the bootstrap admin where none is. */
export function principalOf(res: Response): Principal {
  return (res.locals.principal as Principal | undefined) ?? { id: BOOTSTRAP_PRINCIPAL, role: "admin" };
}
