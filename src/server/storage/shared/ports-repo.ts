import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { PortRecord, PortDocumentRecord, PortFilters, PortsRepo } from '../ports-repo.js';
import { PortRow, DocumentRow, toRecord, toDocument, OPEN_LIST } from '../rows/ports.js';

export class SqlPortsRepo implements PortsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(p: PortRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO ports (id, account_id, status, phone_numbers, authorized_name, account_number, has_pin, service_address,
           foc_date, rejection_reason, mode, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        p.id, p.accountId, p.status, JSON.stringify(p.phoneNumbers), p.authorizedName, p.accountNumber, this.dialect.flag(p.hasPin),
        JSON.stringify(p.serviceAddress), p.focDate, p.rejectionReason, p.mode, p.createdAt, p.updatedAt,
      );
  }

  /** Writes the fields a port's life changes: status, FOC date, rejection reason, updatedAt. */
  async save(p: PortRecord): Promise<void> {
    await this.db
      .prepare('UPDATE ports SET status = ?, foc_date = ?, rejection_reason = ?, updated_at = ? WHERE id = ?')
      .run(p.status, p.focDate, p.rejectionReason, p.updatedAt, p.id);
  }

  async get(accountId: string, id: string): Promise<PortRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM ports WHERE id = ? AND account_id = ?').get(id, accountId) as PortRow | undefined;
    return row && toRecord(row);
  }

  /** For durable jobs, which act on a port whatever the account. */
  async getById(id: string): Promise<PortRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM ports WHERE id = ?').get(id) as PortRow | undefined;
    return row && toRecord(row);
  }

  /** The open port (any account) that holds `phoneNumber`, if any. */
  async openPortFor(phoneNumber: string): Promise<PortRecord | undefined> {
    const row = await this.db
      .prepare(
        `SELECT p.* FROM ports p
          WHERE ${this.dialect.jsonArrayHas('p.phone_numbers')} AND p.status IN (${OPEN_LIST}) ORDER BY p.seq LIMIT 1`,
      )
      .get(phoneNumber) as PortRow | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, f: PortFilters, limit: number, cursor?: string): Promise<Page<PortRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage<PortRow, PortRecord>(this.db, { from: 'ports', where, params, limit, cursor, map: toRecord });
  }

  /** Adds a document, replacing the port's earlier document of the same type. */
  async putDocument(d: PortDocumentRecord, content: Buffer): Promise<void> {
    await this.db.prepare('DELETE FROM port_documents WHERE port_id = ? AND type = ?').run(d.portId, d.type);
    await this.db
      .prepare('INSERT INTO port_documents (id, port_id, type, filename, size_bytes, content, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(d.id, d.portId, d.type, d.filename, d.sizeBytes, content, d.uploadedAt);
  }

  /** The documents of each port, in upload order, without their bytes. */
  async documentsFor(portIds: readonly string[]): Promise<Map<string, PortDocumentRecord[]>> {
    const out = new Map<string, PortDocumentRecord[]>(portIds.map((id) => [id, []]));
    if (portIds.length === 0) return out;
    const rows = await this.db
      .prepare(
        `SELECT id, port_id, type, filename, size_bytes, uploaded_at FROM port_documents
          WHERE port_id IN (${portIds.map(() => '?').join(',')}) ORDER BY seq`,
      )
      .all(...portIds) as DocumentRow[];
    for (const r of rows) out.get(r.port_id)?.push(toDocument(r));
    return out;
  }

  /** A document's bytes (tests and a future download). */
  async documentContent(id: string): Promise<Buffer | undefined> {
    const row = await this.db.prepare('SELECT content FROM port_documents WHERE id = ?').get(id) as { content: Buffer } | undefined;
    return row?.content;
  }
}
