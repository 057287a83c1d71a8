import { iso, isoOrNull } from '../clock.js';
import type { Port, PortCheck } from '../../api/schemas/ports.js';
import type { PortWithDocuments } from '../domain/ports.js';
import type { Portability } from '../world/port-registry.js';

// Records → API shapes for ports (contract §7). The PIN is never shown (it is never kept); the
// documents are listed without their content. Rules for reads: views/README.md.

export const portView = ({ port, documents }: PortWithDocuments): Port => ({
  id: port.id,
  status: port.status,
  phoneNumbers: [...port.phoneNumbers],
  authorizedName: port.authorizedName,
  accountNumber: port.accountNumber,
  serviceAddress: { ...port.serviceAddress },
  documents: documents.map((d) => ({ id: d.id, type: d.type, filename: d.filename, sizeBytes: d.sizeBytes, uploadedAt: iso(d.uploadedAt) })),
  focDate: isoOrNull(port.focDate),
  rejectionReason: port.rejectionReason,
  createdAt: iso(port.createdAt),
  updatedAt: iso(port.updatedAt),
});

export const portCheckView = (answers: ReadonlyArray<{ phoneNumber: string } & Portability>): PortCheck => ({
  data: answers.map((a) => ({ phoneNumber: a.phoneNumber, portable: a.portable, reason: a.reason })),
});
