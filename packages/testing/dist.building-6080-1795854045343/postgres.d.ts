/** The development and CI machines' PostgreSQL (trust auth); TEST_DATABASE_URL overrides it. */
export declare const TEST_POSTGRES_URL: string;
/**
 * A schema of its own on the test PostgreSQL, so that parallel and earlier runs never meet:
 * returns a connection string that uses it, and a function that drops it.
 */
export declare function createTestSchema(baseUrl?: string): Promise<{
    url: string;
    drop: () => Promise<void>;
}>;
