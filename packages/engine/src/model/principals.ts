/**
 * BENCHWRIGHT_API_TOKEN's principal: the owner of what is made without a principal (by that
 * token, before principals existed, or by the engine itself), and a name no created token may take.
 */
export const BOOTSTRAP_PRINCIPAL = "bootstrap";
