/** A throwaway self-signed certificate (P-256, a day) for 127.0.0.1, made with openssl: for a double that must speak TLS. */
export declare function selfSigned(): Promise<{
    key: string;
    cert: string;
}>;
