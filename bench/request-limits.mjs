// What the token lookup, the rate limit and the audit log add to each request. The token: the
// principal a bearer token names, looked up in the database (a token never seen, as a first
// request), and kept from an earlier request (issue 36: a revocation on any server empties what
// each keeps). The rate limit's one statement
// (take a token from the principal's bucket, Engine.takeRequestToken) and the audit log's one
// insert (a state-changing request's entry, written after the answer has gone). Prints the p50
// of each over --runs calls, on a PGlite data dir of its own, or on --database-url (a schema
// of its own on PostgreSQL, as two servers would share it).
//
// Usage: node bench/request-limits.mjs [--runs=2000] [--database-url=postgres://...]
import { migrate, openDb, storeWithEvents, Tokens } from "@benchwright/engine";
import { flags, main, tempDir } from "./harness/script.mjs";
import { median, timeEach } from "./harness/timing.mjs";

const opts = flags({ runs: 2000, databaseUrl: "" });

await main(async (defer) => {
  const db = await openDb(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pgliteDir: tempDir(defer, "request-limits") });
  defer(() => db.close());
  await migrate(db);
  const store = storeWithEvents(db);
  // A rate no request reaches: every take is the same UPDATE of one row.
  const take = () => store.requestBuckets.take("bench", 1e9, 1e9);
  let n = 0;
  const append = () =>
    store.audit.append({
      principal: "bench",
      operation: "createSession",
      method: "POST",
      path: "/api/v1/sessions/",
      status: 200,
      code: null,
      requestId: `bench-${n++}`,
    });
  const tokens = new Tokens(store.tokens);
  const made = await Promise.all(Array.from({ length: opts.runs + 50 }, (_, i) => tokens.create({ principal: `bench-${i}`, role: "viewer" })));
  let next = 0;
  const firstLookup = () => tokens.principalOf(made[next++ % made.length].token);
  const keptLookup = () => tokens.principalOf(made[0].token);
  await timeEach(50, firstLookup);
  console.log(`token lookup, first: p50 ${median(await timeEach(opts.runs, firstLookup)).toFixed(3)} ms`);
  await timeEach(50, keptLookup);
  console.log(`token lookup, kept: p50 ${median(await timeEach(opts.runs, keptLookup)).toFixed(3)} ms`);
  await timeEach(50, take);
  await timeEach(50, append);
  console.log(`rate limit take: p50 ${median(await timeEach(opts.runs, take)).toFixed(3)} ms`);
  console.log(`audit entry: p50 ${median(await timeEach(opts.runs, append)).toFixed(3)} ms`);
});
