// Shared inputs for the 10DLC registration tests (and the tests that need an approved campaign to
// send from): a brand and a campaign the approval prediction approves, and one it rejects.
import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';

export const GOOD_BRAND = {
  legalName: 'Bayview Dental LLC',
  displayName: 'Bayview Dental',
  entityType: 'PRIVATE_PROFIT',
  ein: '12-3456789',
  website: 'https://bayviewdental.example',
  email: 'office@bayviewdental.example',
  phone: '+14155550100',
  street: '1 Bay St',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94105',
  country: 'US',
} as const;

/** A campaign the approval prediction scores well above the approval line. */
export const GOOD_CAMPAIGN = {
  name: 'Appointment reminders',
  useCase: 'ACCOUNT_NOTIFICATION',
  description: 'Bayview Dental sends appointment reminders and rescheduling notices to patients who asked for them on our website booking form.',
  optInDetails:
    'Patients opt in on the web form at https://bayviewdental.example/book by checking an unchecked box: "I agree to receive appointment reminder texts from Bayview Dental. Consent is not a condition of purchase. Message frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help."',
  sampleMessages: [
    'Bayview Dental: your cleaning is tomorrow at 10:00. Reply C to confirm. Reply STOP to opt out.',
    'Bayview Dental: we moved your appointment to Friday at 2pm. Reply HELP for help, STOP to opt out.',
  ],
  optinKeywords: 'START',
  optinMessage: 'Bayview Dental: you are subscribed to appointment reminders. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.',
  optoutKeywords: 'STOP',
  optoutMessage: 'Bayview Dental: you are unsubscribed and will receive no more messages.',
  helpKeywords: 'HELP',
  helpMessage: 'Bayview Dental: for help call +14155550100 or email office@bayviewdental.example. Reply STOP to cancel.',
  privacyPolicyLink: 'https://bayviewdental.example/privacy',
  termsAndConditionsLink: 'https://bayviewdental.example/terms',
  websiteUrl: 'https://bayviewdental.example',
  embeddedLink: false,
  embeddedPhone: false,
  subscriberOptin: true,
  subscriberOptout: true,
  subscriberHelp: true,
} as const;

/** A campaign the prediction rejects: no brand name, no opt-out, no consent, no links. */
export const WEAK_CAMPAIGN = {
  name: 'Deals',
  useCase: 'MARKETING',
  description: 'Deals.',
  optInDetails: 'Customers.',
  sampleMessages: ['Big sale today only!'],
} as const;

type Opts = { key?: string; headers?: Record<string, string> };

/** A mock brand (approved at once, free) of the caller's account. */
export async function mockBrand(svc: TestService, o: Opts = {}, body: Record<string, unknown> = {}): Promise<any> {
  const r = await svc.call('POST', '/v1/brands', { ...o, body: { ...GOOD_BRAND, mock: true, ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.status).toBe('approved');
  return r.body;
}

/** An approved campaign made through the API: a mock brand and its campaign, decided at once. */
export async function approvedCampaign(svc: TestService, o: Opts = {}, content: Record<string, unknown> = {}): Promise<any> {
  const brand = await mockBrand(svc, o);
  const r = await svc.call('POST', '/v1/campaigns', { ...o, body: { ...GOOD_CAMPAIGN, ...content, brandId: brand.id } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.status, r.body.lastRejectionReason).toBe('approved');
  return r.body;
}

/**
 * A campaign under review: a real brand approved through the sandbox decision, then its campaign
 * (`submitted`; a test key, so nothing is charged).
 */
export async function submittedCampaign(svc: TestService, o: Opts = {}): Promise<any> {
  const b = await svc.call('POST', '/v1/brands', { ...o, body: GOOD_BRAND });
  expect(b.status).toBe(201);
  const d = await svc.call('POST', `/v1/sandbox/brands/${b.body.id}/decision`, { ...o, body: { decision: 'approved' } });
  expect(d.status).toBe(200);
  const r = await svc.call('POST', '/v1/campaigns', { ...o, body: { ...GOOD_CAMPAIGN, brandId: b.body.id } });
  expect(r.status).toBe(201);
  expect(r.body.status).toBe('submitted');
  return r.body;
}
