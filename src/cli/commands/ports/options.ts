import type { PortDocumentType } from '../../../api/values/registration.js';

// The ports verbs' flags as commander gives them, and the options their run module works with.

export interface CheckPortsOptions {
  numbers: string[];
}

export interface CreatePortFlags {
  number?: string[];
  authorizedName?: string;
  accountNumber?: string;
  pin?: string;
  street?: string;
  street2?: string;
  city?: string;
  state?: string;
  zip?: string;
  file?: string;
  idempotencyKey?: string;
}

export interface CreatePortOptions {
  numbers?: string[];
  authorizedName?: string;
  accountNumber?: string;
  pin?: string;
  address: { street?: string; street2?: string; city?: string; state?: string; zip?: string };
  file?: string;
  idempotencyKey?: string;
}

export const createPortOptionsOf = (o: CreatePortFlags): CreatePortOptions => ({
  numbers: o.number,
  authorizedName: o.authorizedName,
  accountNumber: o.accountNumber,
  pin: o.pin,
  address: { street: o.street, street2: o.street2, city: o.city, state: o.state, zip: o.zip },
  file: o.file,
  idempotencyKey: o.idempotencyKey,
});

export interface AttachOptions {
  port: string;
  type: PortDocumentType;
  file: string;
}

/** submit, cancel: the port request's id. */
export interface PortArg {
  port: string;
}
