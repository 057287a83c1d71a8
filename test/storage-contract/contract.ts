import { describe } from 'vitest';
import type { EngineUnderTest } from './engine.js';
import { storeContract } from './store-contract.js';
import { accountsContract } from './accounts-contract.js';
import { messagingContract } from './messaging-contract.js';
import { voiceContract } from './voice-contract.js';
import { emailContract } from './email-contract.js';
import { billingContract } from './billing-contract.js';
import { eventsContract } from './events-contract.js';
import { claimsContract } from './claims-contract.js';
import { sinksContract } from './sinks-contract.js';
import { schemaContract } from './schema-contract.js';
import { deliveryWorkerContract } from './delivery-worker-contract.js';

// The storage contract. Each repository's behaviour (insert, read, page, claim, the
// uniqueness a rule relies on) written once, through `Store` and the repository interfaces only
// (no SQL, no engine class), so every engine runs the same tests: sqlite.test.ts runs them on
// SQLite; the PostgreSQL engine adds a test file that calls this with its own engine.
// One `describe` per repository family (named as in `Repositories`), plus the store itself, plus
// the delivery worker's claims, the one part of the service whose workings depend on the engine's writes.

export function describeStorageContract(engine: EngineUnderTest): void {
  describe(`storage contract (${engine.name})`, () => {
    storeContract(engine);
    accountsContract(engine);
    messagingContract(engine);
    voiceContract(engine);
    emailContract(engine);
    billingContract(engine);
    eventsContract(engine);
    claimsContract(engine);
    sinksContract(engine);
    schemaContract(engine);
    deliveryWorkerContract(engine);
  });
}
