import type { Dialect, Statements } from './statements.js';
import { keysetCellsPage, type CellRows } from './cell-rows.js';
import type { Page } from '../../../api/schemas/page.js';
import type { MessageStatus } from '../../../api/schemas/messages.js';
import type { Direction, MessageRecord, MessageFilters, ConversationRecord, MessagesRepo } from '../messages-repo.js';
import { toRecord, type MessageRow } from '../rows/messages.js';

// A message row as one JSON cell, its columns in the order `row` reads them (Dialect.cells).
const MESSAGE_COLUMNS = [
  'seq', 'id', 'account_id', 'number_id', 'direction', 'from_number', 'to_number', 'counterparty', 'body', 'status', 'segments',
  'channel', 'media', 'reason', 'test', 'provider_message_id', 'created_at', 'updated_at',
] as const;

const cellsToRow = (c: unknown[]): MessageRow => ({
  seq: c[0] as number,
  id: c[1] as string,
  account_id: c[2] as string,
  number_id: c[3] as string | null,
  direction: c[4] as Direction,
  from_number: c[5] as string,
  to_number: c[6] as string,
  counterparty: c[7] as string,
  body: c[8] as string,
  status: c[9] as MessageStatus,
  segments: c[10] as number,
  channel: c[11] as 'sms' | 'mms',
  media: c[12] as string | null,
  reason: c[13] as string | null,
  test: c[14] as number,
  provider_message_id: c[15] as string | null,
  created_at: c[16] as number,
  updated_at: c[17] as number,
});

const MESSAGE_CELLS: CellRows<MessageRow> = { columns: MESSAGE_COLUMNS, row: cellsToRow };

type ConversationRow = MessageRow & { c_last_at: number; c_last_seq: number };
const CONVERSATION_CELLS: CellRows<ConversationRow> = {
  columns: [...MESSAGE_COLUMNS.map((c) => `m.${c}`), 'c.last_at', 'c.last_seq'],
  row: (c) => ({ ...cellsToRow(c), c_last_at: c[MESSAGE_COLUMNS.length] as number, c_last_seq: c[MESSAGE_COLUMNS.length + 1] as number }),
};

export class SqlMessagesRepo implements MessagesRepo {
  private readonly insertStmt;
  private readonly statusStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    // The message, then its conversation (Dialect.insertThen: one statement where the engine can).
    // The conversation row only ever moves forward to a newer message. `WHERE true`: SQLite's
    // upsert after an INSERT … SELECT needs a WHERE to parse.
    this.insertStmt = d.insertThen(db, {
      table: 'messages',
      insert: `INSERT INTO messages (id, account_id, number_id, direction, from_number, to_number, counterparty, body, status, segments,
         channel, media, reason, test, provider_message_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      returning: 'seq, account_id, counterparty, id, created_at',
      then: `INSERT INTO conversations (account_id, counterparty, last_message_id, last_at, last_seq)
       SELECT account_id, counterparty, id, created_at, seq FROM inserted WHERE true
       ON CONFLICT (account_id, counterparty) DO UPDATE SET
         last_message_id = excluded.last_message_id, last_at = excluded.last_at, last_seq = excluded.last_seq
       WHERE excluded.last_at > conversations.last_at
          OR (excluded.last_at = conversations.last_at AND excluded.last_seq > conversations.last_seq)`,
    });
    this.statusStmt = db.prepare('UPDATE messages SET status = ?, reason = ?, updated_at = ? WHERE id = ?');
    this.getStmt = db.prepare('SELECT * FROM messages WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM messages WHERE id = ?');
  }

  /** Inserts the message and moves its conversation forward; call inside the sending transaction. */
  async insert(m: MessageRecord): Promise<void> {
    await this.insertStmt.run(
      m.id, m.accountId, m.numberId, m.direction, m.from, m.to, m.counterparty, m.body, m.status, m.segments, m.channel,
      m.media === null ? null : JSON.stringify(m.media), m.reason, this.d.flag(m.test), m.providerMessageId, m.createdAt, m.updatedAt,
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
    return await keysetCellsPage<MessageRow, MessageRecord>(this.db, this.d, { from: 'messages', where, params, limit, cursor, cells: MESSAGE_CELLS, map: toRecord });
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
    return await keysetCellsPage<ConversationRow, ConversationRecord>(this.db, this.d, {
      from: 'conversations c JOIN messages m ON m.id = c.last_message_id',
      alias: 'm.',
      select: 'm.*, c.last_at AS c_last_at, c.last_seq AS c_last_seq',
      cells: CONVERSATION_CELLS,
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
