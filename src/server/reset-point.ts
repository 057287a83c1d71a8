import type { RunningService } from './main.js';
import { ManualClock, SystemClock, saveClock, type SavedClock } from './clock.js';
import { SqliteStore } from './storage/sqlite/store.js';
import { ResetPoint } from './storage/sqlite/reset-point.js';

/** A point a running service can be put back to, in place (svc/testing `reset()`). */
export interface ServiceResetPoint {
  restore(): Promise<void>;
}

/**
 * Marks the service's state now: its database (storage/sqlite/reset-point.ts) and its clock.
 * `restore()` pauses the workers that act on their own (the scheduler's timer, the webhook
 * deliveries in flight, cut off unrecorded), writes the tables back through the store between
 * batches, puts the clock back where it stood, reads the chaos profiles again (stored, they came
 * back with the tables) and starts the workers again, which then read the restored jobs and deliveries. Requests keep being served on the same port; a test does not send
 * any while it resets.
 */
export async function markResetPoint(service: RunningService): Promise<ServiceResetPoint> {
  const { deps } = service;
  const store = deps.store;
  if (!(store instanceof SqliteStore)) throw new Error('a reset point needs the SQLite store');
  const clock = saveClock(deps.clock);
  const point = await paused(service, () => store.exclusive((db) => ResetPoint.take(db)));
  return {
    restore: () =>
      paused(service, async () => {
        await store.exclusive(() => point.restore());
        // Media uploaded since the point go (the restored database no longer names them), and long
        // polls held across the reset answer now rather than into the next test.
        await deps.media.keepOnly(await store.read(async (r) => await r.routes.greetingMediaNames()));
        deps.events.rewound();
        rewind(service, clock);
        // The profiles as they were (stored in the tables just restored), an empty log and fresh
        // counters: the same test meets the same faults.
        await deps.chaos.restart();
      }),
  };
}

async function paused<T>(service: RunningService, fn: () => Promise<T>): Promise<T> {
  const { deps } = service;
  await deps.webhooks.stop();
  await deps.scheduler.stop();
  try {
    return await fn();
  } finally {
    deps.scheduler.start();
    await deps.webhooks.start();
  }
}

function rewind(service: RunningService, saved: SavedClock): void {
  const clock = service.deps.clock;
  if (clock instanceof ManualClock || clock instanceof SystemClock) clock.rewindTo(saved);
}
