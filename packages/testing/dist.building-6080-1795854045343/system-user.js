import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
const run = promisify(execFile);
/**
 * Makes a throwaway system user with a home directory and a random password, for tests of
 * password authentication: OpenSSH checks passwords against the system's accounts, so no
 * private sshd can do without one. Needs root (as the SSH tests' installs already do), or
 * passwordless sudo; it says so plainly otherwise.
 */
export async function createPasswordUser() {
    const asRoot = process.getuid?.() === 0;
    const admin = (command, args, input) => {
        const [file, argv] = asRoot ? [command, args] : ["sudo", ["-n", command, ...args]];
        const child = run(file, argv);
        if (input !== undefined)
            child.child.stdin.end(input);
        return child;
    };
    const username = `bwpw${randomBytes(4).toString("hex")}`;
    // Letters and digits only, so that no shell or chpasswd quoting is involved; long enough to be masked.
    const password = `Pw${randomBytes(12).toString("hex")}`;
    try {
        await admin("useradd", ["--create-home", "--shell", "/bin/bash", username]);
    }
    catch (e) {
        throw new Error(`Cannot create the test user ${username} for password authentication: run the tests as root or with passwordless sudo (${e.message})`);
    }
    try {
        await admin("chpasswd", [], `${username}:${password}\n`);
    }
    catch (e) {
        await admin("userdel", ["--remove", username]).catch(() => undefined);
        throw e;
    }
    return {
        username,
        password,
        async remove() {
            // --force: a step process of the user's (detached by design) must not keep it alive.
            await admin("userdel", ["--remove", "--force", username]).catch(() => undefined);
        },
    };
}
//# sourceMappingURL=system-user.js.map