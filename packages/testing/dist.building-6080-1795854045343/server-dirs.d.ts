/** Where a server under test keeps its data, and its copy of the repository's stored configurations. */
export interface ServerDirs {
    dataDir: string;
    configDir: string;
    /** Deletes both. */
    remove(): void;
}
/** Two temp dirs, `bw-<name>-data-*` (empty) and `bw-<name>-config-*` (the repository's config dir copied). */
export declare function serverDirs(name: string): ServerDirs;
