/**
 * `Ubuntu 22.04` and `ubuntu_22_04` name the same platform: lower-case, and every run of
 * characters other than letters and digits becomes one `_`.
 */
export declare function normalizePlatform(platform: string): string;
/**
 * Script keys to try, most specific first, like the ancestor (Benchmarking Suite):
 * `("install", "ubuntu_22_04")` gives `install_ubuntu_22_04`, `install_ubuntu_22`,
 * `install_ubuntu`, `install`.
 */
export declare function platformCandidates(prefix: string, platform: string): string[];
/** The most specific script for the platform, or undefined when none of the candidates exists. */
export declare function pickScript(scripts: Record<string, string>, prefix: string, platform: string): {
    key: string;
    script: string;
} | undefined;
