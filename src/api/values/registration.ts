// 10DLC registration and number porting facts as plain values (no zod): the schemas, the domain, the
// rule engine and the CLI's wizard all read them. spec: Brand (10DLC), Campaign (10DLC), Registration
// inputs; contract §7 (registration and ports), §9 (sandbox decisions), §11 (prices live in prices.ts).

/** spec: Brand — `status`. */
export const BRAND_STATUSES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type BrandStatus = (typeof BRAND_STATUSES)[number];

/** spec: Campaign — `status`. */
export const CAMPAIGN_STATUSES = ['draft', 'submitted', 'dca_review', 'approved', 'rejected'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** spec: Brand — `entityType`. */
export const ENTITY_TYPES = ['PRIVATE_PROFIT', 'PUBLIC_PROFIT', 'NON_PROFIT', 'GOVERNMENT', 'SOLE_PROPRIETOR'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
/** contract §7: these entity types are rejected without an `ein`. */
export const EIN_REQUIRED_ENTITY_TYPES: readonly EntityType[] = ['PRIVATE_PROFIT', 'PUBLIC_PROFIT'];

/**
 * Decision (the spec leaves `vertical` an optional string with no list): the industries The Campaign
 * Registry (TCR, the US 10DLC registry) takes. The API stores whatever string it is given, so
 * existing brands and clients keep working; the CLI's wizard accepts only these.
 */
export const VERTICALS = [
  'AGRICULTURE', 'COMMUNICATION', 'CONSTRUCTION', 'EDUCATION', 'ENERGY', 'ENTERTAINMENT', 'FINANCIAL',
  'GAMBLING', 'GOVERNMENT', 'HEALTHCARE', 'HOSPITALITY', 'HUMAN_RESOURCES', 'INSURANCE', 'LEGAL',
  'MANUFACTURING', 'NGO', 'POLITICAL', 'POSTAL', 'PROFESSIONAL', 'REAL_ESTATE', 'RETAIL', 'TECHNOLOGY',
  'TRANSPORTATION',
] as const;
export type Vertical = (typeof VERTICALS)[number];

/** A vertical as a person types it, in the registry's spelling: "real estate" and "Real-Estate" read REAL_ESTATE. */
export const verticalKey = (text: string): string => text.trim().toUpperCase().replace(/[\s-]+/g, '_');

/** The registry's vertical a typed answer names, or undefined when it names none. */
export const verticalOf = (text: string): Vertical | undefined => {
  const key = verticalKey(text);
  return VERTICALS.find((v) => v === key);
};

/** spec: Brand — `brandRelationship` (on input). */
export const BRAND_RELATIONSHIPS = ['BASIC_ACCOUNT', 'SMALL_ACCOUNT', 'MEDIUM_ACCOUNT', 'LARGE_ACCOUNT', 'KEY_ACCOUNT'] as const;
/** spec: Brand — `identityStatus`. */
export const IDENTITY_STATUSES = ['SELF_DECLARED', 'UNVERIFIED', 'VERIFIED', 'VETTED_VERIFIED'] as const;
/** spec: Campaign — `cnpSharingStatus`. */
export const CNP_SHARING_STATUSES = ['none', 'pending', 'accepted', 'declined'] as const;
/** spec: Registration inputs — Approval prediction `band`. */
export const PREDICTION_BANDS = ['low', 'medium', 'high'] as const;
export type PredictionBand = (typeof PREDICTION_BANDS)[number];

/**
 * Decision (the spec names the bands, not their bounds): a score of 80 or more is `high`, 60 to 79
 * `medium`, below 60 `low`. 60 is also contract §7's approval line.
 */
export const PREDICTION_BAND_FLOORS = { high: 80, medium: 60 } as const;
/** contract §7: a campaign is approved when its prediction scores at least this. */
export const CAMPAIGN_APPROVAL_SCORE = 60;

/** contract §7: the registry's timings on the service clock. */
export const REGISTRY_TIMINGS = {
  /** a submitted brand is decided 1 h later */
  brandDecisionSecs: 3600,
  /** a submitted campaign moves to `dca_review` 1 h later */
  campaignDcaReviewSecs: 3600,
  /** and is decided 24 h after that */
  campaignDecisionSecs: 86_400,
  /**
   * Decision (the spec names the CNP sharing states, not their timing): a connectivity partner
   * answers a sharing request 1 h after it is made.
   */
  cnpSharingDecisionSecs: 3600,
} as const;

/** contract §7: `POST /v1/registrations/draft` writes 2 to 5 sample messages. */
export const DRAFT_SAMPLES = { min: 2, max: 5 } as const;

/** Decision (the spec is silent): bounds of registration text fields. */
export const REGISTRATION_LIMITS = {
  shortText: 255,
  longText: 4096,
  sampleMessage: 1024,
  sampleMessages: 5,
  subUsecases: 5,
} as const;

/** contract §7: a vetting request's `provider`s. Decision: the registry's usual external vetting partners. */
export const VETTING_PROVIDERS = ['AEGIS', 'CV', 'WMC'] as const;
/** Decision: vetting classes offered (the registry's standard and enhanced vetting). */
export const VETTING_CLASSES = ['STANDARD', 'ENHANCED'] as const;

/** contract §7: the hosted compliance pages, under the service's own origin. */
export const HOSTED_PAGE_PATHS = {
  optIn: (brandId: string) => `/p/${brandId}/opt-in`,
  privacy: (brandId: string) => `/p/${brandId}/privacy`,
  messagingTerms: (brandId: string) => `/p/${brandId}/terms`,
} as const;

/** contract §7: port request states. */
export const PORT_STATUSES = ['draft', 'submitted', 'foc_scheduled', 'completed', 'rejected', 'canceled'] as const;
export type PortStatus = (typeof PORT_STATUSES)[number];
/** contract §7: the documents a port needs before it can be submitted. */
export const PORT_DOCUMENT_TYPES = ['loa', 'bill'] as const;
export type PortDocumentType = (typeof PORT_DOCUMENT_TYPES)[number];

/**
 * contract §7: a submitted port has its FOC date scheduled 24 h later; Decision (the contract is
 * silent on the date itself): the FOC date is 3 days after it was scheduled, when the port completes.
 */
export const PORT_TIMINGS = {
  focScheduledAfterSecs: 86_400,
  focDateAfterSecs: 3 * 86_400,
} as const;

/** Decision (spec is silent): the reasons this service gives of its own knowledge (src/server/domain/ports.ts gives them). */
export const PORT_REASONS = {
  alreadyOnService: 'already on the service',
  openPort: 'a port request for this number is already open',
  ownedAtCompletion: 'already on the service: another account owns the number now',
  sandboxRejected: 'rejected by the losing carrier',
} as const;

/** The sandbox's magic losing-carrier account number: a port with it is rejected. */
export const REJECTED_ACCOUNT_NUMBER = '0000000000';
export const ACCOUNT_MISMATCH_REASON = "the account number does not match the losing carrier's records";

/** The sandbox's port registry: why no carrier can port a number (src/server/world/port-registry.ts decides which). */
export const NOT_PORTABLE = {
  notNanp: 'only US and Canadian (+1) numbers can be ported',
  reserved: 'reserved number: no carrier holds it',
  ourInventory: 'not assigned to another carrier: buy it with POST /v1/numbers/buy',
  unknownAreaCode: 'no carrier serves this area code',
  noPortOut: 'the losing carrier does not support port-out',
} as const;

/** Decision: a port request carries 1 to 100 numbers; a document is at most 5 MB decoded. */
export const PORT_LIMITS = {
  phoneNumbers: 100,
  documentBytes: 5 * 1024 * 1024,
  filename: 255,
} as const;
