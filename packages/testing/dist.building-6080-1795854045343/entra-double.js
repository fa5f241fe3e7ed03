import { randomBytes } from "node:crypto";
/**
 * Microsoft Entra as a service principal's client (MSAL through Azure's identity library) sees
 * it: the tenant's OpenID metadata, and a token for the client credentials grant with the
 * right id and secret. Returns the answer to a request, or undefined when it is not Entra's.
 */
export function entraRoutes(o) {
    return async (method, path, body) => {
        const base = `${o.url()}/${o.tenant}`;
        if (path === `/${o.tenant}/v2.0/.well-known/openid-configuration`) {
            const endpoints = { authorization_endpoint: "authorize", token_endpoint: "token", end_session_endpoint: "logout" };
            const metadata = Object.fromEntries(Object.entries(endpoints).map(([k, v]) => [k, `${base}/oauth2/v2.0/${v}`]));
            return {
                status: 200,
                body: { ...metadata, issuer: `${base}/v2.0`, jwks_uri: `${base}/discovery/v2.0/keys`, response_types_supported: ["code", "token"] },
            };
        }
        if (path !== `/${o.tenant}/oauth2/v2.0/token` || method !== "POST")
            return undefined;
        o.beforeToken();
        const form = new URLSearchParams(await body());
        if (form.get("grant_type") !== "client_credentials" || form.get("client_id") !== o.clientId || form.get("client_secret") !== o.clientSecret) {
            return { status: 401, body: { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided.", error_codes: [7000215] } };
        }
        const token = `eyJ0eXAiOiJKV1Qi.${randomBytes(24).toString("base64url")}`;
        o.tokens.push(token);
        return { status: 200, body: { token_type: "Bearer", expires_in: 3599, ext_expires_in: 3599, access_token: token } };
    };
}
//# sourceMappingURL=entra-double.js.map