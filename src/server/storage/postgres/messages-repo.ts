import type { Sql } from './sql.js';
import { keysetPage } from '../shared/keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { MessageStatus } from '../../../api/schemas/messages.js';
import type { MessageRecord, MessageFilters, ConversationRecord, MessagesRepo } from '../messages-repo.js';
import { toRecord, type MessageRow } from '../rows/messages.js';

export class PgMessagesRepo implements MessagesRepo {
  private readonly insertStmt;
  private readonly statusStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  constructor(private readonly db: Sql) {
    // The message and its conversation in one statement (one round trip, not two). The
    // conversation row only ever moves forward to a newer message.
    this.insertStmt = db.prepare(
      `WITH m AS (
         INSERT INTO messages (id, account_id, number_id, direction, from_number, to_number, counterparty, body, status, segments,
           channel, media, reason, test, provider_message_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq, account_id, counterparty, id, created_at)
       INSERT INTO conversations (account_id, counterparty, last_message_id, last_at, last_seq)
       SELECT account_id, counterparty, id, created_at, seq FROM m
       ON CONFLICT (account_id, counterparty) DO UPDATE SET
         last_message_id = excluded.last_message_id, last_at = excluded.last_at, last_seq = excluded.last_seq
       WHERE excluded.last_at > conversations.last_at
          OR (excluded.last_at = conversations.last_at AND excluded.last_seq > conversations.last_seq)`,
    );
    this.statusStmt = db.prepare('UPDATE messages SET status = ?, reason = ?, updated_at = ? WHERE id = ?');
    this.getStmt = db.prepare('SELECT * FROM messages WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM messages WHERE id = ?');
  }

  /** Inserts the message and moves its conversation forward; call inside the sending transaction. */
  async insert(m: MessageRecord): Promise<void> {
    await this.insertStmt.run(
      m.id, m.accountId, m.numberId, m.direction, m.from, m.to, m.counterparty, m.body, m.status, m.segments, m.channel,
      m.media === null ? null : JSON.stringify(m.media), m.reason, m.test, m.providerMessageId, m.createdAt, m.updatedAt,
    );
  }

  async setStatus(id: string, status: MessageStatus, reason: string | null, now: number): Promise<void> {
    await this.statusStmt.run(status, reason, now, id);
  }

  async setProviderMessageId(id: string, providerMessageId: string, now: number): Promise<void> {
    await this.db.prepare('UPDATE messages SET provider_message_id = ?, updated_at = ? WHERE id = ?').run(providerMessageId, now, id);
  }

  async get(accountId: string, id: string): Promise<MessageRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as MessageRow | undefined;
    return row && toRecord(row);
  }

  /** For durable jobs and carrier reports, which act on a message whatever the account. */
  async getById(id: string): Promise<MessageRecord | undefined> {
    const row = await this.byIdStmt.get(id) as MessageRow | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, f: MessageFilters, limit: number, cursor?: string): Promise<Page<MessageRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    const add = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      params.push(value);
    };
    add('direction', f.direction);
    add('from_number', f.from);
    add('to_number', f.to);
    add('status', f.status);
    return await keysetPage<MessageRow, MessageRecord>(this.db, {
      from: 'messages',
      where,
      params,
      limit,
      cursor,
      map: toRecord,
    });
  }

  async count(accountId: string): Promise<number> {
    return (await this.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /** The latest `limit` messages with one counterparty, oldest first (contract §4). */
  async thread(accountId: string, counterparty: string, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db
      .prepare('SELECT * FROM messages WHERE account_id = ? AND counterparty = ? ORDER BY created_at DESC, seq DESC LIMIT ?')
      .all(accountId, counterparty, limit) as MessageRow[];
    return rows.reverse().map(toRecord);
  }

  /**
   * Conversation summaries, newest `lastAt` first. Keyset on (last_at, last_seq): the seq of the
   * latest message is unique, so the order is total even on a frozen clock.
   */
  async conversations(accountId: string, limit: number, cursor?: string): Promise<Page<ConversationRecord>> {
    type Row = MessageRow & { c_last_at: number; c_last_seq: number };
    return await keysetPage<Row, ConversationRecord>(this.db, {
      from: 'conversations c JOIN messages m ON m.id = c.last_message_id',
      alias: 'm.',
      select: 'm.*, c.last_at AS c_last_at, c.last_seq AS c_last_seq',
      where: ['c.account_id = ?'],
      params: [accountId],
      order: { time: 'c.last_at', seq: 'c.last_seq' },
      position: (r) => ({ createdAt: r.c_last_at, seq: r.c_last_seq }),
      limit,
      cursor,
      map: (r) => ({ counterparty: r.counterparty, lastAt: r.c_last_at, last: toRecord(r) }),
    });
  }
}
