// The simulated carrier (contract §1: only the outside world is simulated, behind small interfaces so
// a real provider could be plugged in). The service talks to a carrier through `Carrier`:
//
// - `submit` hands over an outbound message and answers the provider's id. A real carrier reports
//   progress later through its status callbacks, which would call `applyCarrierReport` (domain/
//   messages.ts); the simulation instead answers the whole `course` up front, and the domain replays
//   it as durable jobs on the service clock, so it survives restarts and follows `clock advance`.
// - emergency address validation, toll-free verification review, and how long provisioning takes.

import { randomBase62 } from '../ids.js';
import { AREA_CODES } from './area-codes.js';
import { placeForZip } from './zip-cities.js';
import type { EmergencyAddress } from '../../api/schemas/numbers.js';

export type CarrierProgress = 'sending' | 'sent' | 'delivered' | 'failed' | 'undelivered';

export interface CarrierStep {
  /** Delay after the previous step (or after submission, for the first). */
  afterMs: number;
  status: CarrierProgress;
  /** Sanitized reason for `failed` / `undelivered`. */
  reason: string | null;
}

export interface OutboundSubmission {
  messageId: string;
  /** The sending account: the simulation's chaos faults follow its profile (world/chaos-carrier.ts). */
  accountId: string;
  from: string;
  to: string;
  body: string;
  mediaUrls: string[];
}

export interface CarrierAcceptance {
  providerMessageId: string;
  /** The simulation's planned reports, in order; a real carrier answers [] and calls back instead. */
  course: CarrierStep[];
}

export type AddressCheck =
  | { ok: true; address: EmergencyAddress }
  | { ok: false; kind: 'suggestion'; suggested: EmergencyAddress; message: string }
  | { ok: false; kind: 'unknown_zip' | 'mismatch'; message: string };

export type TollfreeVerdict = { status: 'verified' } | { status: 'rejected'; reason: string };

export interface TollfreeSubmission {
  businessName: string;
  website?: string | null;
  useCase: string;
  useCaseSummary: string;
  sampleMessage: string;
  optInWorkflow: string;
  monthlyVolume: number;
}

export interface Carrier {
  submit(m: OutboundSubmission): Promise<CarrierAcceptance>;
  /** The provider id of an inbound message the carrier hands us. */
  inboundProviderMessageId(): string;
  checkEmergencyAddress(address: EmergencyAddress): AddressCheck;
  reviewTollfree(submission: TollfreeSubmission): TollfreeVerdict;
  readonly timings: {
    /** contract §5: caller ID name becomes active 48 h after being set. */
    callerIdPropagationMs: number;
    /** How long emergency (E911) address provisioning takes. */
    emergencyProvisioningMs: number;
    /** contract §5: the carrier decides toll-free verification 72 h after submission. */
    tollfreeReviewMs: number;
  };
}

// --- magic destinations (contract §4) ------------------------------------------------------------

export const FAILED_DESTINATION = '+15005550001';
export const UNDELIVERED_DESTINATION = '+15005550004';

/** How a message to `to` ends: the magic destinations fail; everything else is delivered. */
export function destinationOutcome(to: string): { status: 'delivered' | 'failed' | 'undelivered'; reason: string | null } {
  if (to === FAILED_DESTINATION) return { status: 'failed', reason: 'invalid destination' };
  if (to === UNDELIVERED_DESTINATION) return { status: 'undelivered', reason: 'blocked by carrier' };
  return { status: 'delivered', reason: null };
}

/**
 * The course of a message: queued → sending → sent → delivered | failed | undelivered. The spec's
 * state table moves failed and undelivered from `sent`, so every message passes through `sent`
 * (and is billed there, contract §11).
 */
export function courseFor(to: string, delays: readonly [number, number, number]): CarrierStep[] {
  const end = destinationOutcome(to);
  return [
    { afterMs: delays[0], status: 'sending', reason: null },
    { afterMs: delays[1], status: 'sent', reason: null },
    { afterMs: delays[2], status: end.status, reason: end.reason },
  ];
}

/** Test sends never reach a carrier: the stub plays the same outcomes at once (contract §4). */
export const testStubCourse = (to: string): CarrierStep[] => courseFor(to, [0, 0, 0]);

// --- emergency address: ZIP prefix → state --------------------------------------------------------

// USPS 3-digit ZIP prefixes by state (the first three digits of a ZIP code name its sectional
// center). A small table, enough to catch a ZIP that does not fit its state.
const ZIP_PREFIX_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [5, 5, 'NY'], [6, 7, 'PR'], [8, 8, 'VI'], [9, 9, 'PR'], [10, 27, 'MA'], [28, 29, 'RI'], [30, 38, 'NH'],
  [39, 49, 'ME'], [50, 54, 'VT'], [55, 55, 'MA'], [56, 59, 'VT'], [60, 69, 'CT'], [70, 89, 'NJ'], [90, 99, 'AE'],
  [100, 149, 'NY'], [150, 196, 'PA'], [197, 199, 'DE'], [200, 200, 'DC'], [201, 201, 'VA'], [202, 205, 'DC'],
  [206, 219, 'MD'], [220, 246, 'VA'], [247, 268, 'WV'], [270, 289, 'NC'], [290, 299, 'SC'], [300, 319, 'GA'],
  [320, 339, 'FL'], [340, 340, 'AA'], [341, 349, 'FL'], [350, 369, 'AL'], [370, 385, 'TN'], [386, 397, 'MS'],
  [398, 399, 'GA'], [400, 427, 'KY'], [430, 459, 'OH'], [460, 479, 'IN'], [480, 499, 'MI'], [500, 528, 'IA'],
  [530, 549, 'WI'], [550, 567, 'MN'], [569, 569, 'DC'], [570, 577, 'SD'], [580, 588, 'ND'], [590, 599, 'MT'],
  [600, 629, 'IL'], [630, 658, 'MO'], [660, 679, 'KS'], [680, 693, 'NE'], [700, 714, 'LA'], [716, 729, 'AR'],
  [730, 732, 'OK'], [733, 733, 'TX'], [734, 749, 'OK'], [750, 799, 'TX'], [800, 816, 'CO'], [820, 831, 'WY'],
  [832, 838, 'ID'], [840, 847, 'UT'], [850, 865, 'AZ'], [870, 884, 'NM'], [885, 885, 'TX'], [889, 898, 'NV'],
  [900, 961, 'CA'], [962, 966, 'AP'], [967, 968, 'HI'], [969, 969, 'GU'], [970, 979, 'OR'], [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/** The state a ZIP code belongs to, or undefined for an unassigned prefix. */
export function stateForZip(zip: string): string | undefined {
  const prefix = Number(zip.slice(0, 3));
  if (!/^\d{3}/.test(zip)) return undefined;
  return ZIP_PREFIX_RANGES.find(([lo, hi]) => prefix >= lo && prefix <= hi)?.[2];
}

const sameCity = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A ZIP that does not fit its state gets a suggestion only when it is a coherent address: the city
 * and state of that ZIP, or, when the ZIP's city is not known, the typed city in the ZIP's state if
 * that city is one of that state's. Otherwise a mismatch the caller must correct: never a city of
 * one state with the ZIP of another.
 */
export function checkEmergencyAddress(address: EmergencyAddress): AddressCheck {
  const normalized: EmergencyAddress = { ...address, state: address.state.toUpperCase() };
  const fits = stateForZip(normalized.zip);
  if (!fits) return { ok: false, kind: 'unknown_zip', message: `ZIP code ${normalized.zip} is not a known US ZIP code` };
  if (fits === normalized.state) return { ok: true, address: normalized };
  const typed = `${normalized.city}, ${normalized.state}`;
  const place = placeForZip(normalized.zip);
  const suggested = place
    ? { ...normalized, city: sameCity(place.city, normalized.city) ? normalized.city : place.city, state: place.state }
    : [...AREA_CODES.values()].some((a) => a.region === fits && sameCity(a.locality, normalized.city))
      ? { ...normalized, state: fits }
      : undefined;
  if (!suggested) return { ok: false, kind: 'mismatch', message: `ZIP code ${normalized.zip} is in ${fits}, not ${normalized.state}: correct the state or the ZIP` };
  return {
    ok: false,
    kind: 'suggestion',
    suggested,
    message: `ZIP code ${normalized.zip} is in ${suggested.city}, ${suggested.state}, not ${typed}; resubmit the suggested address`,
  };
}

// --- toll-free verification review -----------------------------------------------------------------

// Opt-out language carriers look for in sample messages (CTIA: STOP and its synonyms).
const OPT_OUT_WORDS = /\b(stop|stopall|unsubscribe|cancel|quit|opt[\s-]?out)\b/i;

export function reviewTollfree(s: TollfreeSubmission): TollfreeVerdict {
  const problems: string[] = [];
  if (!s.website) problems.push('the business website is missing');
  if (!OPT_OUT_WORDS.test(s.sampleMessage)) problems.push('the sample message lacks opt-out language (e.g. "Reply STOP to opt out")');
  return problems.length ? { status: 'rejected', reason: `${problems.join('; ')}.` } : { status: 'verified' };
}

// --- the simulated carrier -----------------------------------------------------------------------

export interface SimulatedCarrierOptions {
  /** Delays of sending, sent and the final report (defaults 200, 200, 400 ms: delivered 800 ms after submission). */
  delays?: readonly [number, number, number];
}

export class SimulatedCarrier implements Carrier {
  private readonly delays: readonly [number, number, number];
  readonly timings = {
    callerIdPropagationMs: 48 * 3600 * 1000,
    emergencyProvisioningMs: 5 * 60 * 1000,
    tollfreeReviewMs: 72 * 3600 * 1000,
  };

  constructor(opts: SimulatedCarrierOptions = {}) {
    this.delays = opts.delays ?? [200, 200, 400];
  }

  async submit(m: OutboundSubmission): Promise<CarrierAcceptance> {
    return { providerMessageId: `SM${randomBase62(30)}`, course: courseFor(m.to, this.delays) };
  }

  inboundProviderMessageId(): string {
    return `SM${randomBase62(30)}`;
  }

  checkEmergencyAddress(address: EmergencyAddress): AddressCheck {
    return checkEmergencyAddress(address);
  }

  reviewTollfree(submission: TollfreeSubmission): TollfreeVerdict {
    return reviewTollfree(submission);
  }
}
