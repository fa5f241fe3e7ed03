import pg from "pg";
/** The development and CI machines' PostgreSQL (trust auth); TEST_DATABASE_URL overrides it. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/**
 * A schema of its own on the test PostgreSQL, so that parallel and earlier runs never meet:
 * returns a connection string that uses it, and a function that drops it.
 */
export async function createTestSchema(baseUrl = TEST_POSTGRES_URL) {
    const schema = `bw_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await onServer(baseUrl, (db) => db.query(`CREATE SCHEMA ${schema}`));
    const separator = baseUrl.includes("?") ? "&" : "?";
    return {
        url: `${baseUrl}${separator}options=-c%20search_path%3D${schema}`,
        async drop() {
            await onServer(baseUrl, async (db) => {
                await db.query(`DROP SCHEMA ${schema} CASCADE`);
                // The step queue's schema beside it (see queueSchemaOf in the engine), when an engine made one.
                await db.query(`DROP SCHEMA IF EXISTS ${schema}_queue CASCADE`);
            });
        },
    };
}
/** Runs `fn` on one connection to the server at `url`, closed afterwards. */
async function onServer(url, fn) {
    const db = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await db.connect();
    try {
        await fn(db);
    }
    finally {
        await db.end();
    }
}
//# sourceMappingURL=postgres.js.map