// `connectService` (index.ts): a test file's account on the suite's one service (vitest-setup.ts).
// Files run in parallel on that service, so each gets an account of its own (a sub-account of the
// service's root agency, contract §3) rather than a `reset()` of the whole service, which would wipe
// the data of the files running beside it. Only HTTP: nothing of the server is loaded here.
import { send } from './http.js';
import { keyEndpoints } from '../api/resources/keys.js';
import { subaccountEndpoints } from '../api/resources/subaccounts.js';
import { ACCOUNT_CHAOS_PATH, CHAOS_OFF, createHandle, type HandleAccount } from './handle.js';
import type { ConnectServiceOptions, FixtureObject, SharedServiceInfo, TestService } from './types.js';

const ACCOUNT_NAME = 'svc/testing file';
/** Loaded when a file seeds (it starts processes): a file that does not pays nothing for it. */
const runSeed: typeof import('./seed.js').runSeed = async (...args) => (await import('./seed.js')).runSeed(...args);
/** Acts as a sub-account with the agency's key (contract §3). */
const SUBACCOUNT_HEADER = 'service-subaccount';

export async function connectSharedService(shared: SharedServiceInfo, options: ConnectServiceOptions): Promise<TestService> {
  const account = await newAccount(shared);
  const seeds: Array<string | FixtureObject> = [];
  let closed = false;
  const { handle } = await createHandle(account, { exemptToken: shared.exemptToken, clockMode: shared.clock, clockKey: () => shared.rootKey, chaosPath: ACCOUNT_CHAOS_PATH, feedFromStart: true }, ({ ok, restartFeed }) => ({
    async reset() {
      // A fresh account seeded as this one was: the old one is suspended, so an app that kept its
      // key is refused (403) rather than writing where no test looks.
      const fresh = await newAccount(shared);
      await suspend(shared, account.accountId);
      Object.assign(account, fresh);
      for (const fixture of seeds) await runSeed(fixture, { baseUrl: account.baseUrl, apiKey: account.liveKey });
      await restartFeed();
    },
    async seed(fixture) {
      // The fixture runs with the account's chaos profile off (its requests are the test's setup).
      const profile = await ok('GET', ACCOUNT_CHAOS_PATH);
      await ok('PUT', ACCOUNT_CHAOS_PATH, CHAOS_OFF);
      let results: unknown[];
      try {
        results = await runSeed(fixture, { baseUrl: account.baseUrl, apiKey: account.liveKey });
      } finally {
        await ok('PUT', ACCOUNT_CHAOS_PATH, profile);
      }
      seeds.push(fixture);
      await restartFeed();
      return results;
    },
    async close() {
      if (closed) return;
      closed = true;
      await suspend(shared, account.accountId);
    },
  }));
  if (options.seed !== undefined) await handle.seed(options.seed);
  return handle;
}

/** A sub-account of the root agency, with a live and a test key of its own (3 requests). */
async function newAccount(shared: SharedServiceInfo): Promise<HandleAccount> {
  const created = await call(shared, subaccountEndpoints.create.method, subaccountEndpoints.create.path, { name: ACCOUNT_NAME });
  const as = { [SUBACCOUNT_HEADER]: created.id as string };
  const [live, test] = await Promise.all([
    call(shared, keyEndpoints.create.method, keyEndpoints.create.path, { name: `${ACCOUNT_NAME} live`, mode: 'live' }, as),
    call(shared, keyEndpoints.create.method, keyEndpoints.create.path, { name: `${ACCOUNT_NAME} test`, mode: 'test' }, as),
  ]);
  return { baseUrl: shared.baseUrl, accountId: created.id, liveKey: live.key, testKey: test.key };
}

const suspend = async (shared: SharedServiceInfo, id: string) => void (await call(shared, subaccountEndpoints.update.method, subaccountEndpoints.update.path.replace('{id}', encodeURIComponent(id)), { status: 'suspended' }));

/** A request with the root account's live key that must succeed. */
async function call(shared: SharedServiceInfo, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await send(shared.baseUrl, method, path, { authorization: `Bearer ${shared.rootKey}`, 'content-type': 'application/json', ...headers }, JSON.stringify(body));
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return JSON.parse(res.text);
}
