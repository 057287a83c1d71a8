import type { Page } from '../../api/schemas/page.js';
import type { NumberStatus, NumberType, ProvisioningStatus, TfvStatus, EmergencyAddress } from '../../api/schemas/numbers.js';
import type { Capabilities } from '../world/number-inventory.js';
import type { KeyMode } from '../../api/values/keys.js';

export interface NumberRecord {
  id: string;
  accountId: string;
  phoneNumber: string;
  type: NumberType;
  capabilities: Capabilities;
  locality: string | null;
  region: string | null;
  label: string | null;
  status: NumberStatus;
  campaignId: string | null;
  callerIdName: string | null;
  callerIdStatus: ProvisioningStatus;
  /** Service time of the last caller-ID change: the propagation job carries it, so a stale job is a no-op. */
  callerIdRequestedAt: number | null;
  emergencyEnabled: boolean;
  emergencyAddress: EmergencyAddress | null;
  emergencyStatus: ProvisioningStatus;
  emergencyRequestedAt: number | null;
  tfvStatus: TfvStatus;
  tfvRejectionReason: string | null;
  tfvSubmission: Record<string, unknown> | null;
  tfvSubmittedAt: number | null;
  releasedAt: number | null;
  /** The mode of the key that bought it (a ported number: the port's); contract §2: a live one is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

export interface NumberFilters {
  status?: NumberStatus;
  type?: NumberType;
  campaignId?: string;
}

export interface NumbersRepo {
  /** Throws UniqueConstraintError when the number is owned already (the partial unique index). */
  insert(n: NumberRecord): Promise<void>;
  /** Writes every mutable field of `n` (read, change, save inside one transaction). */
  save(n: NumberRecord): Promise<void>;
  get(accountId: string, id: string): Promise<NumberRecord | undefined>;
  /** For durable jobs, which act on a number whatever the account. */
  getById(id: string): Promise<NumberRecord | undefined>;
  /** The account's record for an E.164 number: the owned one, else the latest released one. */
  findByPhone(accountId: string, phoneNumber: string): Promise<NumberRecord | undefined>;
  /** contract §5: true when any account owns the number (search never offers it, buy refuses it). */
  isOwned(phoneNumber: string): Promise<boolean>;
  list(accountId: string, f: NumberFilters, limit: number, cursor?: string): Promise<Page<NumberRecord>>;
  countOwned(accountId: string): Promise<number>;
}

