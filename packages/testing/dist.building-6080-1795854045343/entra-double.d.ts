/** An answer of the double: a status, a JSON body, headers. */
export interface DoubleReply {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
}
interface EntraOptions {
    tenant: string;
    clientId: string;
    clientSecret: string;
    /** Where the double listens (known once it does). */
    url: () => string;
    /** Every access token handed out: what Resource Manager's side accepts. */
    tokens: string[];
    /** Called before a token is handed out: throws an injected failure. */
    beforeToken: () => void;
}
/**
 * Microsoft Entra as a service principal's client (MSAL through Azure's identity library) sees
 * it: the tenant's OpenID metadata, and a token for the client credentials grant with the
 * right id and secret. Returns the answer to a request, or undefined when it is not Entra's.
 */
export declare function entraRoutes(o: EntraOptions): (method: string, path: string, body: () => Promise<string>) => Promise<DoubleReply | undefined>;
export {};
