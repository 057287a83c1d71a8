import type { UnitOfWork } from '../domain/deps.js';
import { recordAttempts, type AttemptMade } from '../domain/webhooks/deliveries.js';
import { DatabaseUnavailableError } from '../storage/storage-errors.js';
import { ROW_GUARDED, type ClaimLog } from './delivery-claims.js';

/** The pause before the first retry while the database cannot be reached (doubling from here). */
const RECORD_RETRY_MIN_MS = 250;
/** The longest pause between tries to record attempts while the database cannot be reached. */
const RECORD_RETRY_MAX_MS = 2000;

/** An attempt made, waiting for its batch's transaction. */
interface PendingRecord extends AttemptMade {
  done: () => void;
}

/**
 * The recorder: attempts' outcomes written in batches. Its state: `idle` (nothing pending), or
 * `recording` a batch, during which outcomes that end wait for the next (one record write at a time:
 * on PostgreSQL, concurrent batches race on the endpoint's row and run again).
 */
export type RecorderState = 'idle' | 'recording';

export class AttemptRecorder {
  private pending: PendingRecord[] = [];
  /** The batch being recorded, if any. */
  private recording: Promise<void> | undefined;
  /** The pause before recording again while the database cannot be reached (0: the last record went through). */
  private retryMs = 0;

  constructor(
    private readonly uow: Pick<UnitOfWork, 'write'>,
    /** Whether the worker still runs: a stop since an attempt ended leaves it unrecorded (it stays due). */
    private readonly live: () => boolean,
    private readonly log: ClaimLog,
  ) {}

  get state(): RecorderState {
    return this.recording ? 'recording' : 'idle';
  }

  /**
   * Records an attempt with the others that ended meanwhile, in ONE transaction (a transaction per
   * attempt was the largest item of the burst profile: 19 % of the CPU in better-sqlite3's
   * transaction wrapper). Resolves once it is committed, so whoever waits for the attempt (a job
   * during an advance, attemptNow, idle) sees it recorded.
   */
  record(r: AttemptMade): Promise<void> {
    return new Promise<void>((done) => {
      this.pending.push({ ...r, done });
      if (!this.recording) this.recording = this.recordPending();
    });
  }

  private async recordPending(): Promise<void> {
    // One turn of the event loop first: the attempts that end in the same turn join this batch.
    await new Promise((r) => setImmediate(r));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      // A stop since the attempt ended: not recorded, it stays due and is resumed on start.
      const toRecord = this.live() ? batch : [];
      try {
        if (toRecord.length > 0) await this.uow.write((tx) => recordAttempts(tx, toRecord), ROW_GUARDED);
        this.retryMs = 0;
      } catch (err) {
        if (err instanceof DatabaseUnavailableError && this.live()) {
          // The database is away: the outcomes are kept, in order, and recorded once it is back
          // (dropped, each attempt would be made again when its claim ran out: a second delivery).
          if (this.retryMs === 0) this.log.error({ err, count: batch.length }, 'recording webhook attempts failed: the database cannot be reached; they are recorded once it can');
          this.pending = [...batch, ...this.pending];
          this.retryMs = Math.min(Math.max(this.retryMs * 2, RECORD_RETRY_MIN_MS), RECORD_RETRY_MAX_MS);
          await new Promise((r) => setTimeout(r, this.retryMs));
          continue;
        }
        // The batch rolled back as a whole: record each on its own, so one failure costs only itself.
        for (const r of toRecord) {
          try {
            await this.uow.write((tx) => recordAttempts(tx, [r]), ROW_GUARDED);
          } catch (err) {
            this.log.error({ err, deliveryId: r.deliveryId }, 'webhook delivery attempt could not be recorded');
          }
        }
      }
      for (const r of batch) r.done();
    }
    this.recording = undefined;
  }
}
