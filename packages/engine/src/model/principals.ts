/**
 * BENCHWRIGHT_API_TOKEN's principal: the owner of what is made without a principal (by that
 * token, before principals existed, or by the engine itself), and a name no created token may take.
 */
export const BOOTSTRAP_PRINCIPAL = "bootstrap";

/** Whom the audit log names for a request no token admitted; no created token may take it either. */
export const ANONYMOUS_PRINCIPAL = "anonymous";

/**
 * The names the server gives principals itself: a token made for one would pass for the
 * bootstrap admin in what it owns, or have its refusals audited as unauthenticated requests.
 */
export const RESERVED_PRINCIPALS: readonly string[] = [BOOTSTRAP_PRINCIPAL, ANONYMOUS_PRINCIPAL];

/** Why a token may not be made for a reserved principal, said after its path. */
export const RESERVED_PRINCIPAL_MESSAGE = `is a name the server gives principals itself (${RESERVED_PRINCIPALS.join(", ")}); name another`;
