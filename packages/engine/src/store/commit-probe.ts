/**
 * Tells whether any transaction committed on a PostgreSQL server between two moments, so that a
 * process that shares the database with others can keep what it read (ReadCache) as long as
 * nothing committed since. The token is the server's current snapshot (`pg_current_snapshot()`:
 * xmin, xmax and the transaction ids in progress): a transaction that commits either got its id
 * after the first snapshot (xmax moves) or was in progress in it (it leaves the list), so two equal
 * tokens mean that what every read sees is the same. Commits anywhere on the server move it, which
 * only costs a read more.
 *
 * Probes asked for while one is under way share the next one, which starts when that one ends:
 * every caller gets a token taken after it asked, and a burst of requests costs one round trip or two.
 */
export class CommitProbe {
  private running: Promise<string> | undefined;
  private queued: Promise<string> | undefined;

  constructor(private readonly probe: () => Promise<string>) {}

  token(): Promise<string> {
    if (!this.running) return this.start();
    const after = this.running.then(noop, noop);
    return (this.queued ??= after.then(() => {
      this.queued = undefined;
      return this.start();
    }));
  }

  private start(): Promise<string> {
    const p = this.probe();
    this.running = p;
    const done = () => {
      if (this.running === p) this.running = undefined;
    };
    p.then(done, done);
    return p;
  }
}

function noop(): void {}

/** The statement whose one value is the token (see CommitProbe). */
export const COMMIT_PROBE_SQL = "SELECT pg_current_snapshot()::text AS snapshot";
