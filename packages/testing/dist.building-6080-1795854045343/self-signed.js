import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
const run = promisify(execFile);
/** A throwaway self-signed certificate (P-256, a day) for 127.0.0.1, made with openssl: for a double that must speak TLS. */
export async function selfSigned() {
    const dir = await mkdtemp(join(tmpdir(), "self-signed-"));
    try {
        const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
        const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"];
        await run("openssl", [
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            key,
            "-out",
            cert,
            ...subject,
        ]);
        return { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
    }
    finally {
        await rm(dir, { recursive: true, force: true });
    }
}
//# sourceMappingURL=self-signed.js.map