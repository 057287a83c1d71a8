import type { Page } from '../../api/schemas/page.js';
import type { EmergencyAddress } from '../../api/schemas/numbers.js';
import type { PortDocumentType, PortStatus } from '../../api/values/registration.js';
import type { KeyMode } from '../../api/values/keys.js';

// contract §7: port requests (migration 8, `ports` and `port_documents`). The port-out PIN is never
// stored: only `hasPin`. Documents are private; their bytes are read by nobody but this repo.

export interface PortRecord {
  id: string;
  accountId: string;
  status: PortStatus;
  phoneNumbers: string[];
  authorizedName: string;
  accountNumber: string;
  hasPin: boolean;
  serviceAddress: EmergencyAddress;
  focDate: number | null;
  rejectionReason: string | null;
  /** The mode of the key that created it (its numbers, once ported, keep it); contract §2. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

/** A document without its bytes (what every read needs). */
export interface PortDocumentRecord {
  id: string;
  portId: string;
  type: PortDocumentType;
  filename: string;
  sizeBytes: number;
  uploadedAt: number;
}

/** The states in which a port still holds its numbers (no other port may take them). */
export const OPEN_PORT_STATUSES: readonly PortStatus[] = ['draft', 'submitted', 'foc_scheduled'];

export interface PortFilters {
  status?: PortStatus;
}

export interface PortsRepo {
  insert(p: PortRecord): Promise<void>;
  /** Writes the fields a port's life changes: status, FOC date, rejection reason, updatedAt. */
  save(p: PortRecord): Promise<void>;
  get(accountId: string, id: string): Promise<PortRecord | undefined>;
  /** For durable jobs, which act on a port whatever the account. */
  getById(id: string): Promise<PortRecord | undefined>;
  /** The open port (any account) that holds `phoneNumber`, if any. */
  openPortFor(phoneNumber: string): Promise<PortRecord | undefined>;
  list(accountId: string, f: PortFilters, limit: number, cursor?: string): Promise<Page<PortRecord>>;
  /** Adds a document, replacing the port's earlier document of the same type. */
  putDocument(d: PortDocumentRecord, content: Buffer): Promise<void>;
  /** The documents of each port, in upload order, without their bytes. */
  documentsFor(portIds: readonly string[]): Promise<Map<string, PortDocumentRecord[]>>;
  /** A document's bytes (tests and a future download). */
  documentContent(id: string): Promise<Buffer | undefined>;
}

