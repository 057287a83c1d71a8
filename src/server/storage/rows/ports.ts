// The ports family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { EmergencyAddress } from '../../../api/schemas/numbers.js';
import type { PortDocumentType, PortStatus } from '../../../api/values/registration.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { PortRecord, PortDocumentRecord } from '../ports-repo.js';
import { OPEN_PORT_STATUSES } from '../ports-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// contract §7: port requests (migration 8, `ports` and `port_documents`). The port-out PIN is never
// stored: only `hasPin`. Documents are private; their bytes are read by nobody but this repo.

export interface PortRow {
  seq: number;
  id: string;
  account_id: string;
  status: PortStatus;
  phone_numbers: string;
  authorized_name: string;
  account_number: string;
  has_pin: StoredFlag;
  service_address: string;
  foc_date: number | null;
  rejection_reason: string | null;
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

export interface DocumentRow {
  id: string;
  port_id: string;
  type: PortDocumentType;
  filename: string;
  size_bytes: number;
  uploaded_at: number;
}

export const toRecord = (r: PortRow): PortRecord => ({
  id: r.id,
  accountId: r.account_id,
  status: r.status,
  phoneNumbers: JSON.parse(r.phone_numbers) as string[],
  authorizedName: r.authorized_name,
  accountNumber: r.account_number,
  hasPin: flag(r.has_pin),
  serviceAddress: JSON.parse(r.service_address) as EmergencyAddress,
  focDate: r.foc_date,
  rejectionReason: r.rejection_reason,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const toDocument = (r: DocumentRow): PortDocumentRecord => ({
  id: r.id,
  portId: r.port_id,
  type: r.type,
  filename: r.filename,
  sizeBytes: r.size_bytes,
  uploadedAt: r.uploaded_at,
});
export const OPEN_LIST = OPEN_PORT_STATUSES.map((s) => `'${s}'`).join(',');
