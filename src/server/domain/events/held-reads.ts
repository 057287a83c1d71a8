import type { ChangeNotice, EventStore } from './store.js';
import type { EventHint } from '../../storage/store.js';

// Long-polls (`wait`, contract §10 for the events feed, §8 for the mail sandbox) park here until an
// event of their account that concerns them commits (the event store tells its listeners after the
// commit, so a wake always finds the rows), their time runs out, their client goes, or the app
// closes. Each wake re-reads the database through the reader's own `attempt`.

export class HeldReads {
  private readonly waiters = new Set<() => void>();
  private readonly byAccount = new Map<string, Set<() => void>>();
  private closed = false;
  private readonly unsubscribe: Array<() => void>;

  /**
   * `concerns`: which committed events may have something for a held read (default: every one);
   * `concernsChange`: which changes that are no event may (a sink's kept request); without it none
   * is listened to (a change with no listener costs its writer nothing: EventStore.touched).
   */
  constructor(
    private readonly events: EventStore,
    concerns: (e: EventHint) => boolean = () => true,
    concernsChange?: (c: ChangeNotice) => boolean,
  ) {
    const wakeAccount = (accountId: string) => {
      for (const wake of this.byAccount.get(accountId) ?? []) wake();
    };
    this.unsubscribe = [
      // Committed here or, on a shared database, by another process.
      events.subscribe((e) => {
        if (concerns(e)) wakeAccount(e.accountId);
      }),
      ...(concernsChange
        ? [
            events.subscribeChanges((c) => {
              if (concernsChange(c)) wakeAccount(c.accountId);
            }),
          ]
        : []),
      // Notifications may have been missed: every held read looks again.
      events.subscribeResync(() => {
        for (const set of [...this.byAccount.values()]) for (const wake of [...set]) wake();
      }),
      // A reset of the database answers every held read at once (EventStore.rewound).
      events.onRewind(() => this.releaseAll()),
    ];
  }

  /** Answers every held read now (each `empty()`); new ones are still held. */
  releaseAll(): void {
    for (const release of [...this.waiters]) release();
  }

  /** Releases every held read (each answers `empty()`) and refuses to hold new ones. */
  close(): void {
    this.closed = true;
    for (const u of this.unsubscribe) u();
    this.releaseAll();
  }

  get waiting(): number {
    return this.waiters.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Holds a read that found nothing: answers the first `attempt()` that finds something after a
   * wake, or `empty()` after `waitSecs`, on abort, or on close. `recheck` (the caller's credentials,
   * `Actor.recheck`) runs at each wake and when the time runs out, before anything is answered: a key
   * revoked, or an account suspended, while the read was held answers that error, never what arrived
   * after it.
   */
  hold<T>(
    accountId: string,
    waitSecs: number,
    attempt: () => Promise<T | undefined>,
    empty: () => T | Promise<T>,
    signal?: AbortSignal,
    recheck?: () => Promise<void>,
  ): Promise<T> {
    if (waitSecs <= 0 || this.closed || signal?.aborted) return Promise.resolve().then(empty);
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (outcome: () => Promise<T> | T) => {
        if (done) return;
        done = true;
        unwatch();
        clearTimeout(timer);
        this.waiters.delete(release);
        const set = this.byAccount.get(accountId);
        set?.delete(wake);
        if (set && set.size === 0) this.byAccount.delete(accountId);
        signal?.removeEventListener('abort', release);
        Promise.resolve()
          .then(outcome)
          .then(resolve, reject);
      };
      const release = () => finish(empty);
      const answer = (found: T) => async () => {
        await recheck?.();
        return found;
      };
      // Wakes may overlap (a read is asynchronous): the first one that finds something answers.
      const wake = () => {
        if (done) return;
        attempt().then(
          (found) => {
            if (found !== undefined) finish(answer(found));
          },
          (err: unknown) => {
            if (done) return;
            done = true;
            unwatch();
            reject(err);
          },
        );
      };
      const timer = setTimeout(
        () =>
          finish(async () => {
            const nothing = await empty();
            await recheck?.();
            return nothing;
          }),
        waitSecs * 1000,
      );
      this.waiters.add(release);
      // While it is held, commits of another process are looked for sooner (worker-link.ts).
      const unwatch = this.events.watch();
      let set = this.byAccount.get(accountId);
      if (!set) this.byAccount.set(accountId, (set = new Set()));
      set.add(wake);
      signal?.addEventListener('abort', release, { once: true });
      // A row committed between the first read and subscribing would have no hint left: read again.
      wake();
    });
  }
}
