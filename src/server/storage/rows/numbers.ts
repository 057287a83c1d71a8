// The numbers family's rows as both engines store them, and their records: one codec for SQLite
// and PostgreSQL (a flag column reads through `flag` and is bound through the engine's `bindFlag`).
import type { NumberStatus, NumberType, ProvisioningStatus, TfvStatus, EmergencyAddress } from '../../../api/schemas/numbers.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { NumberRecord } from '../numbers-repo.js';
import { flag, type BindFlag, type StoredFlag } from './stored-flag.js';

export interface NumberRow {
  seq: number;
  id: string;
  account_id: string;
  phone_number: string;
  type: NumberType;
  cap_sms: StoredFlag;
  cap_mms: StoredFlag;
  cap_voice: StoredFlag;
  locality: string | null;
  region: string | null;
  label: string | null;
  status: NumberStatus;
  campaign_id: string | null;
  caller_id_name: string | null;
  caller_id_status: ProvisioningStatus;
  caller_id_requested_at: number | null;
  emergency_enabled: StoredFlag;
  emergency_address: string | null;
  emergency_status: ProvisioningStatus;
  emergency_requested_at: number | null;
  tfv_status: TfvStatus;
  tfv_rejection_reason: string | null;
  tfv_submission: string | null;
  tfv_submitted_at: number | null;
  released_at: number | null;
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: NumberRow): NumberRecord => ({
  id: r.id,
  accountId: r.account_id,
  phoneNumber: r.phone_number,
  type: r.type,
  capabilities: { sms: flag(r.cap_sms), mms: flag(r.cap_mms), voice: flag(r.cap_voice) },
  locality: r.locality,
  region: r.region,
  label: r.label,
  status: r.status,
  campaignId: r.campaign_id,
  callerIdName: r.caller_id_name,
  callerIdStatus: r.caller_id_status,
  callerIdRequestedAt: r.caller_id_requested_at,
  emergencyEnabled: flag(r.emergency_enabled),
  emergencyAddress: r.emergency_address === null ? null : (JSON.parse(r.emergency_address) as EmergencyAddress),
  emergencyStatus: r.emergency_status,
  emergencyRequestedAt: r.emergency_requested_at,
  tfvStatus: r.tfv_status,
  tfvRejectionReason: r.tfv_rejection_reason,
  tfvSubmission: r.tfv_submission === null ? null : (JSON.parse(r.tfv_submission) as Record<string, unknown>),
  tfvSubmittedAt: r.tfv_submitted_at,
  releasedAt: r.released_at,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const COLUMNS = [
  'id', 'account_id', 'phone_number', 'type', 'cap_sms', 'cap_mms', 'cap_voice', 'locality', 'region', 'label', 'status',
  'campaign_id', 'caller_id_name', 'caller_id_status', 'caller_id_requested_at', 'emergency_enabled', 'emergency_address',
  'emergency_status', 'emergency_requested_at', 'tfv_status', 'tfv_rejection_reason', 'tfv_submission', 'tfv_submitted_at',
  'released_at', 'mode', 'created_at', 'updated_at',
] as const;

/** A record as the values of COLUMNS, its flags bound as the engine binds them (`bindFlag`). */
export const toRow = (n: NumberRecord, bindFlag: BindFlag): unknown[] => [
  n.id, n.accountId, n.phoneNumber, n.type, bindFlag(n.capabilities.sms), bindFlag(n.capabilities.mms), bindFlag(n.capabilities.voice),
  n.locality, n.region, n.label, n.status, n.campaignId, n.callerIdName, n.callerIdStatus, n.callerIdRequestedAt,
  bindFlag(n.emergencyEnabled), n.emergencyAddress === null ? null : JSON.stringify(n.emergencyAddress), n.emergencyStatus,
  n.emergencyRequestedAt, n.tfvStatus, n.tfvRejectionReason, n.tfvSubmission === null ? null : JSON.stringify(n.tfvSubmission),
  n.tfvSubmittedAt, n.releasedAt, n.mode, n.createdAt, n.updatedAt,
];
