import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import { asIs, json, table, yesNo, type Row } from './table.js';
import { OPEN_PORT_STATUSES, type PortRecord, type PortDocumentRecord, type PortFilters, type PortsRepo } from '../ports-repo.js';

const PORTS = table<PortRecord>('ports', {
  id: asIs,
  accountId: asIs,
  status: asIs,
  phoneNumbers: json,
  authorizedName: asIs,
  accountNumber: asIs,
  hasPin: yesNo,
  serviceAddress: json,
  focDate: asIs,
  rejectionReason: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

/** What a port's life changes. */
const SAVED = ['status', 'focDate', 'rejectionReason', 'updatedAt'] as const;

/** A document's row but its bytes (`content`), which only documentContent reads. */
const DOCUMENTS = table<PortDocumentRecord>('port_documents', {
  id: asIs,
  portId: asIs,
  type: asIs,
  filename: asIs,
  sizeBytes: asIs,
  uploadedAt: asIs,
});

const OPEN_LIST = OPEN_PORT_STATUSES.map((s) => `'${s}'`).join(',');

export class SqlPortsRepo implements PortsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(p: PortRecord): Promise<void> {
    await this.db.prepare(PORTS.insertSql()).run(...PORTS.values(p, this.dialect));
  }

  async save(p: PortRecord): Promise<void> {
    await this.db.prepare(`UPDATE ports SET ${PORTS.setSql(SAVED)} WHERE id = ?`).run(...PORTS.values(p, this.dialect, SAVED), p.id);
  }

  async get(accountId: string, id: string): Promise<PortRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM ports WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && PORTS.read(row);
  }

  async getById(id: string): Promise<PortRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM ports WHERE id = ?').get(id) as Row | undefined;
    return row && PORTS.read(row);
  }

  async openPortFor(phoneNumber: string): Promise<PortRecord | undefined> {
    const row = await this.db
      .prepare(
        `SELECT p.* FROM ports p
          WHERE ${this.dialect.jsonArrayHas('p.phone_numbers')} AND p.status IN (${OPEN_LIST}) ORDER BY p.seq LIMIT 1`,
      )
      .get(phoneNumber) as Row | undefined;
    return row && PORTS.read(row);
  }

  async list(accountId: string, f: PortFilters, limit: number, cursor?: string): Promise<Page<PortRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage(this.db, { from: 'ports', where, params, limit, cursor, map: PORTS.read });
  }

  async putDocument(d: PortDocumentRecord, content: Buffer): Promise<void> {
    await this.db.prepare('DELETE FROM port_documents WHERE port_id = ? AND type = ?').run(d.portId, d.type);
    await this.db
      .prepare('INSERT INTO port_documents (id, port_id, type, filename, size_bytes, content, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(d.id, d.portId, d.type, d.filename, d.sizeBytes, content, d.uploadedAt);
  }

  async documentsFor(portIds: readonly string[]): Promise<Map<string, PortDocumentRecord[]>> {
    const out = new Map<string, PortDocumentRecord[]>(portIds.map((id) => [id, []]));
    if (portIds.length === 0) return out;
    const rows = await this.db
      .prepare(`SELECT ${DOCUMENTS.columns.join(', ')} FROM port_documents WHERE port_id IN (${portIds.map(() => '?').join(',')}) ORDER BY seq`)
      .all(...portIds) as Row[];
    for (const d of rows.map(DOCUMENTS.read)) out.get(d.portId)?.push(d);
    return out;
  }

  async documentContent(id: string): Promise<Buffer | undefined> {
    const row = await this.db.prepare('SELECT content FROM port_documents WHERE id = ?').get(id) as { content: Buffer } | undefined;
    return row?.content;
  }
}
