/**
 * One forward-only migration. The same SQL runs on PGlite and PostgreSQL, so keep to what both
 * accept. Never edit a released migration: add a file with the next id, and list it in index.ts.
 */
export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}
