import { z } from 'zod';
import { E164, NullableTimestamp, Timestamp } from './common.js';
import { EmergencyAddressInput, EmergencyAddressSchema } from './numbers.js';
import { ListQuerySchema, pageOf } from './page.js';
import { PORT_DOCUMENT_TYPES, PORT_LIMITS, PORT_STATUSES } from '../values/registration.js';

// contract §7 (ports); spec: Ports endpoints (`POST /v1/ports` accepts Idempotency-Key).

export const PortStatus = z.enum(PORT_STATUSES);
export const PortDocumentType = z.enum(PORT_DOCUMENT_TYPES);
const PhoneNumbers = z.array(E164).min(1).max(PORT_LIMITS.phoneNumbers);

export const PortCheckBody = z.strictObject({ phoneNumbers: PhoneNumbers }).meta({ id: 'PortCheckBody' });
export const PortabilitySchema = z
  .object({ phoneNumber: z.string(), portable: z.boolean(), reason: z.string().nullable() })
  .meta({ id: 'Portability' });
export const PortCheckSchema = z.object({ data: z.array(PortabilitySchema) }).meta({ id: 'PortCheck' });
export type PortCheck = z.infer<typeof PortCheckSchema>;

export const CreatePortBody = z
  .strictObject({
    phoneNumbers: PhoneNumbers,
    authorizedName: z.string().min(1).max(200).describe('the name on the losing carrier account'),
    accountNumber: z.string().min(1).max(64).describe('the account number at the losing carrier'),
    pin: z.string().min(1).max(20).optional().describe('the port-out PIN, when the losing carrier set one'),
    serviceAddress: EmergencyAddressInput.describe('the service address on the losing carrier account'),
  })
  .meta({ id: 'CreatePortBody' });
export type CreatePortBody = z.infer<typeof CreatePortBody>;

export const PortDocumentBody = z
  .strictObject({
    type: PortDocumentType,
    filename: z.string().min(1).max(PORT_LIMITS.filename),
    contentBase64: z.string().min(1).describe(`base64 of the file, at most ${PORT_LIMITS.documentBytes} bytes decoded`),
  })
  .meta({ id: 'PortDocumentBody' });
export type PortDocumentBody = z.infer<typeof PortDocumentBody>;

export const PortDocumentSchema = z
  .object({ id: z.string(), type: PortDocumentType, filename: z.string(), sizeBytes: z.number().int().min(0), uploadedAt: Timestamp })
  .meta({ id: 'PortDocument' });

export const PortSchema = z
  .object({
    id: z.string(),
    status: PortStatus,
    phoneNumbers: z.array(z.string()),
    authorizedName: z.string(),
    accountNumber: z.string(),
    serviceAddress: EmergencyAddressSchema,
    documents: z.array(PortDocumentSchema),
    focDate: NullableTimestamp,
    rejectionReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Port' });
export type Port = z.infer<typeof PortSchema>;
export const PortPage = pageOf(PortSchema);
export const ListPortsQuery = ListQuerySchema.extend({ status: PortStatus.optional() });

/**
 * contract §9: `POST /v1/sandbox/ports/{id}/decision` — the losing carrier's verdict on a submitted
 * port, at once. Decision (the contract names only the call): `reason` goes with `rejected` (a default
 * text when omitted), `focDate` with `approved` (default PORT_TIMINGS.focDateAfterSecs from now).
 */
export const SandboxPortDecisionBody = z
  .strictObject({
    decision: z.enum(['approved', 'rejected']),
    reason: z.string().min(1).max(500).optional().describe('with `rejected`: the rejection reason'),
    focDate: Timestamp.optional().describe('with `approved`: the FOC date, after the service clock'),
  })
  .meta({ id: 'SandboxPortDecisionBody' });
export type SandboxPortDecisionBody = z.infer<typeof SandboxPortDecisionBody>;
