import { describe, expect, it } from 'vitest';
import type { SchemaChange } from '../../src/server/storage/shared/schema-changes.js';
import type { EngineUnderTest } from './engine.js';
import { account } from './fixtures.js';

// The schema written once (src/server/storage/shared/schema-changes.ts): a change written in the
// shared column types applies on every engine, numbered after the engine's own history, to a
// database that already holds rows, and is applied once. The only contract file that looks at the
// schema itself (a column list): the change under test is a sample, not one the service ships.

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
    it('apply after the engine\'s history and the shipped changes to a database holding rows, which keep every field, once', async () => {
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
  });
}
