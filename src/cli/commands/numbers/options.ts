import type { CAPABILITY_NAMES, NUMBER_STATUSES, NUMBER_TYPES } from '../../../api/values/numbers.js';
import type { GreetingAudioType } from '../../../api/values/routes.js';
import type { ListFlags } from '../../command-kit.js';

// The numbers verbs' flags as commander gives them, and the options their run modules work with.

/** get, release: the number's id (num_…) or E.164. */
export interface NumberArg {
  number: string;
}

export interface BuyOptions {
  phoneNumber: string;
}

export const buyOptionsOf = (o: { number: string }): BuyOptions => ({ phoneNumber: o.number });

export interface AssignOptions {
  number: string;
  campaign?: string;
  detach: boolean;
}

export const assignOptionsOf = (o: { number: string; campaign?: string; detach?: boolean }): AssignOptions => ({ number: o.number, campaign: o.campaign, detach: Boolean(o.detach) });

export interface GreetingOptions {
  number: string;
  file: string;
  contentType?: GreetingAudioType;
}

export interface ListNumbersOptions extends ListFlags {
  status?: (typeof NUMBER_STATUSES)[number];
  type?: (typeof NUMBER_TYPES)[number];
  campaign?: string;
}

export interface SearchOptions {
  areaCode?: string;
  locality?: string;
  type?: (typeof NUMBER_TYPES)[number];
  contains?: string;
  capabilities: Array<(typeof CAPABILITY_NAMES)[number]>;
  limit?: string;
}

export const searchOptionsOf = (o: Omit<SearchOptions, 'capabilities'> & { capability?: SearchOptions['capabilities'] }): SearchOptions => ({
  areaCode: o.areaCode,
  locality: o.locality,
  type: o.type,
  contains: o.contains,
  capabilities: o.capability ?? [],
  limit: o.limit,
});

export interface AddressFlags {
  street?: string;
  street2?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export interface UpdateOptions {
  number: string;
  label?: string;
  clearLabel: boolean;
  callerIdName?: string;
  clearCallerIdName: boolean;
  /** --emergency: true, --no-emergency: false, neither: undefined. */
  emergency?: boolean;
  address: AddressFlags;
}

export interface UpdateFlags {
  number: string;
  label?: string;
  clearLabel?: boolean;
  callerIdName?: string;
  clearCallerIdName?: boolean;
  emergency?: boolean;
  emergencyStreet?: string;
  emergencyStreet2?: string;
  emergencyCity?: string;
  emergencyState?: string;
  emergencyZip?: string;
}

export const updateOptionsOf = (o: UpdateFlags): UpdateOptions => ({
  number: o.number,
  label: o.label,
  clearLabel: Boolean(o.clearLabel),
  callerIdName: o.callerIdName,
  clearCallerIdName: Boolean(o.clearCallerIdName),
  emergency: o.emergency,
  address: { street: o.emergencyStreet, street2: o.emergencyStreet2, city: o.emergencyCity, state: o.emergencyState, zip: o.emergencyZip },
});

/** The verification fields as the command holds them: strings until checked. */
export interface TollfreeFields {
  businessName?: string;
  website?: string;
  useCase?: string;
  useCaseSummary?: string;
  sampleMessage?: string;
  optInWorkflow?: string;
  monthlyVolume?: string;
}

export interface VerifyTollfreeOptions {
  number: string;
  fields: TollfreeFields;
  /** `--answers`: YAML or JSON with the same fields; flags win over it. */
  answers?: string;
  /** `--from-file`: the older name of --answers. */
  fromFile?: string;
  /** `--resume`: take the answers saved from an interrupted run without asking. */
  resume?: boolean;
}

export const verifyTollfreeOptionsOf = (o: TollfreeFields & { number: string; answers?: string; fromFile?: string; resume?: boolean }): VerifyTollfreeOptions => {
  const { number, answers, fromFile, resume, ...fields } = o;
  return { number, fields, answers, fromFile, resume };
};
