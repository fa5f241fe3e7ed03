export interface PasswordUser {
    username: string;
    password: string;
    /** Deletes the user and its home directory. */
    remove(): Promise<void>;
}
/**
 * Makes a throwaway system user with a home directory and a random password, for tests of
 * password authentication: OpenSSH checks passwords against the system's accounts, so no
 * private sshd can do without one. Needs root (as the SSH tests' installs already do), or
 * passwordless sudo; it says so plainly otherwise.
 */
export declare function createPasswordUser(): Promise<PasswordUser>;
