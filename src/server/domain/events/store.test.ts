import { describe, expect, it } from 'vitest';
import { createDomainFixture } from '../../../../test/helpers/domain-fixture.js';

const turn = () => new Promise((r) => setImmediate(r));

describe('transient events emitted inside a write', () => {
  // On an engine whose transaction awaits the database (PostgreSQL) the next macrotask comes while
  // the transaction is still open: a transient event is heard after the commit, and never from a
  // write that rolled back.
  it('are heard once the write has committed, never before it and never from a write that rolled back', async () => {
    const fx = await createDomainFixture();
    const heard: string[] = [];
    fx.deps.events.subscribeTransient((e) => heard.push(String((e.body as { n?: unknown }).n)));
    await expect(
      fx.deps.uow.write(async (tx) => {
        await tx.events.emit(fx.agency.id, 'call.transcript.delta', { n: 'rolled back' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    let heardInside = -1;
    await fx.deps.uow.write(async (tx) => {
      await tx.events.emit(fx.agency.id, 'call.transcript.delta', { n: 'committed' });
      // Turns of the event loop pass while the transaction is open (as awaiting a database does).
      await turn();
      await turn();
      heardInside = heard.length;
    });
    for (let i = 0; i < 10 && heard.length === 0; i++) await turn();
    expect(heardInside).toBe(0);
    expect(heard).toEqual(['committed']);
    await fx.deps.store.close();
  });
});
