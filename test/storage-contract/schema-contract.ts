import { describe, expect, it } from 'vitest';
import type { SchemaChange } from '../../src/server/storage/shared/schema-changes.js';
import type { EngineUnderTest } from './engine.js';
import { account } from './fixtures.js';
import { UnsupportedSchemaError } from '../../src/server/storage/storage-errors.js';

// The schema written once (src/server/storage/shared/schema-changes.ts): a change written in the
// shared column types applies on every engine, numbered after the engine's base, to a database that
// already holds rows, and is applied once (the change under test is a sample, not one the service
// ships). A database an earlier build made, with the rows its service wrote through the API (the dumps
// in test/fixtures/databases), comes forward with every row and the very schema of a new one; one
// older than this build migrates is refused untouched. The only contract file that looks at the schema.

/** A sample change: a new table using every shared column type, and a new column on an existing table. */
const SAMPLE: SchemaChange = {
  name: 'a sample table and a column added to accounts',
  sql: (t) => `
    CREATE TABLE sample_things (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      attempts ${t.int} NOT NULL DEFAULT 0,
      created_at ${t.bigint} NOT NULL,
      held ${t.flag} NOT NULL,
      answered_at ${t.double},
      body ${t.bytes}
    );
    ALTER TABLE accounts ADD COLUMN sample_note ${t.text};`,
};

export function schemaContract(engine: EngineUnderTest): void {
  describe('schema changes written once', () => {
    it('apply after the engine\'s base and the shipped changes to a database holding rows, which keep every field, once', async () => {
      const db = await engine.database();
      try {
        const history = await db.versions();
        const head = Math.max(...history);
        const kept = account({ isAgency: true });
        await db.store().write((tx) => tx.accounts.insert(kept));

        await db.migrate([SAMPLE]);
        expect(await db.versions()).toEqual([...history, head + 1]);
        expect(await db.columns('sample_things')).toEqual(['seq', 'id', 'account_id', 'attempts', 'created_at', 'held', 'answered_at', 'body']);
        expect(await db.columns('accounts')).toContain('sample_note');
        expect(await db.store().read((tx) => tx.accounts.get(kept.id))).toEqual(kept);

        // Run again, as every start does: nothing is applied twice (a second CREATE TABLE would fail).
        await db.migrate([SAMPLE]);
        expect(await db.versions()).toEqual([...history, head + 1]);
      } finally {
        await db.close();
      }
    });
  
    for (const dump of engine.dumps) {
      it(`a database an earlier build made (${dump}) comes forward: every row it held reads back unchanged, its schema a new database's`, async () => {
        const old = await engine.database(dump);
        const fresh = await engine.database();
        try {
          const before = new Map<string, { columns: string[]; rows: Array<Record<string, unknown>> }>();
          for (const table of await old.tables()) before.set(table, { columns: await old.columns(table), rows: await old.rows(table) });
          // The dump holds what a service wrote: records in most tables, not an empty schema.
          expect([...before.values()].filter((t) => t.rows.length > 0).length).toBeGreaterThan(25);

          await old.migrate();
          expect(await old.schema()).toEqual(await fresh.schema());
          expect(Math.max(...(await old.versions()))).toBe(Math.max(...(await fresh.versions())));
          for (const [table, { columns, rows }] of before) {
            const after = (await old.rows(table)).map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])));
            // schema_migrations also records the steps just run.
            if (table === 'schema_migrations') expect(after).toEqual(expect.arrayContaining(rows));
            else expect(after, table).toEqual(rows);
          }
          // And the repositories read them.
          const agency = before.get('accounts')!.rows[0]!;
          expect((await old.store().read((tx) => tx.accounts.get(String(agency.id))))?.id).toBe(agency.id);
        } finally {
          await Promise.all([old.close(), fresh.close()]);
        }
      });
    }

    it('a database older than the oldest this build migrates is refused, naming its version, and nothing changes', async () => {
      const old = await engine.database(engine.dumps[0]!);
      try {
        const oldest = Math.max(...(await old.versions()));
        await old.run(`DELETE FROM schema_migrations WHERE version = ${oldest}`);
        const versions = await old.versions();
        const tables = await old.tables();
        const schema = await old.schema();
        const err = await old.migrate().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(UnsupportedSchemaError);
        expect((err as Error).message).toContain(`at version ${oldest - 1}, older than this build of svc migrates (versions ${oldest} to`);
        expect(await old.versions()).toEqual(versions);
        expect(await old.tables()).toEqual(tables);
        expect(await old.schema()).toEqual(schema);
      } finally {
        await old.close();
      }
    });
  });
}
