import type { UnitOfWork } from '../deps.js';
import type { MailboxMessageRecord, MailboxRepo } from '../../storage/mailbox-repo.js';
import type { EventStore } from '../events/store.js';
import type { MailboxQuery } from '../../../api/schemas/email.js';
import type { Actor } from '../actor.js';
import { validationError } from '../../errors.js';
import { HeldReads } from '../events/held-reads.js';

// contract §8 (extension): `GET /v1/sandbox/mailbox` — the messages the simulated mail server
// delivered for the caller's account, oldest first, with the events feed's `after`/`wait`
// semantics (domain/events/feed.ts): an opaque cursor, `after=now` for the newest position, and
// `wait` holding a request that finds nothing until a message arrives or the service closes.

const CURSOR_PREFIX = 'mb1.';

export const encodeMailboxCursor = (seq: number): string => Buffer.from(`${CURSOR_PREFIX}${seq}`, 'utf8').toString('base64url');

export function decodeMailboxCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^mb1\.(\d{1,15})$/.exec(text);
  if (!m) throw validationError(['query', 'after'], 'malformed cursor; pass back a cursor from a previous response unchanged (or `now`)');
  return Number(m[1]);
}

export interface MailboxPage {
  messages: MailboxMessageRecord[];
  cursor: string;
}

export interface MailboxDeps {
  uow: UnitOfWork;
  events: EventStore;
}

/**
 * Held requests park in `HeldReads`, woken by `email.delivered`: a message is stored in the
 * transaction that emits it, and the event store tells its listeners after that transaction
 * commits, so a wake always finds the row; each wake re-reads the database (with the `to` filter).
 */
export class MailboxFeed {
  private readonly held: HeldReads;

  constructor(private readonly d: MailboxDeps) {
    this.held = new HeldReads(d.events, (e) => e.type === 'email.delivered');
  }

  /** Releases every held request (they answer with no messages) and refuses to hold new ones. */
  close(): void {
    this.held.close();
  }

  get waiting(): number {
    return this.held.waiting;
  }

  async read(actor: Actor, q: MailboxQuery, signal?: AbortSignal): Promise<MailboxPage> {
    const accountId = actor.account.id;
    const after = q.after === undefined ? 0 : q.after === 'now' ? await this.d.uow.read((tx) => tx.mailbox.headSeq(accountId)) : decodeMailboxCursor(q.after);
    const attempt = async (): Promise<MailboxPage | undefined> => {
      const messages = await this.d.uow.read((tx) => tx.mailbox.page(accountId, after, q.limit, q.to));
      return messages.length === 0 ? undefined : { messages, cursor: encodeMailboxCursor(messages[messages.length - 1]!.seq) };
    };
    // No messages: the position given, so the caller follows on from it.
    const empty = (): MailboxPage => ({ messages: [], cursor: encodeMailboxCursor(after) });

    const first = await attempt();
    if (first) {
      // As the events feed: a read that may wait answers only what its credentials may read now.
      if (q.wait > 0) await actor.recheck?.();
      return first;
    }
    return this.held.hold(accountId, q.wait, attempt, empty, signal, actor.recheck);
  }
}
