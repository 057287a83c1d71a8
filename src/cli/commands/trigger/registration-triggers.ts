import { defineTrigger } from './definition.js';

// contract §7 and §9: registration's outside world — a consumer filling a brand's hosted opt-in form,
// and the registry's or the losing carrier's verdict at once instead of on the clock.

const verbs = () => import('./registration-triggers.run.js');

export interface LeadCapturedOptions {
  brand: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  /** --no-consent: the SMS-consent box left unticked. */
  consent: boolean;
}

export const leadCapturedTrigger = defineTrigger<LeadCapturedOptions>({
  description: "A consumer submits a brand's hosted opt-in form: a lead and a lead.captured event",
  options: [
    { flags: '--brand <id>', description: 'the brand whose opt-in page is filled', required: true },
    { flags: '--first-name <name>', description: "the consumer's first name", default: 'Ada' },
    { flags: '--last-name <name>', description: "the consumer's last name", default: 'Lovelace' },
    { flags: '--email <email>', description: "the consumer's email", default: 'ada@example.com' },
    { flags: '--phone <e164>', description: "the consumer's mobile number", default: '+14155550123' },
    { flags: '--no-consent', description: 'leave the SMS-consent box unticked' },
  ],
  details: [
    'Posts the form of the hosted page /p/<brand>/opt-in over HTTP as a browser would (no API key),',
    'then prints the lead.captured event it caused.',
  ].join('\n'),
  examples: ['svc trigger lead.captured --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10', 'svc trigger lead.captured --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --first-name Grace --phone +14155550188 --no-consent'],
  run: async (ctx, opts) => (await verbs()).runLeadCaptured(ctx, opts),
});

export interface DecisionOptions {
  id: string;
  decision: string;
  reason?: string;
  /** port.decision with approved: the FOC date (ISO 8601). */
  focDate?: string;
}

/** contract §9: the verdicts the sandbox decision endpoints take (RegistryDecisionBody, SandboxPortDecisionBody). */
export const REGISTRY_VERDICTS = ['approved', 'rejected'] as const;

export const brandDecisionTrigger = defineTrigger<{ brand: string; decision: string; reason?: string }>({
  description: "The registry decides a submitted brand now: approved or rejected (instead of an hour later)",
  options: [
    { flags: '--brand <id>', description: 'the submitted brand', required: true },
    { flags: '--decision <verdict>', description: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', description: 'why it was rejected' },
  ],
  examples: ['svc trigger brand.decision --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --decision approved', 'svc trigger brand.decision --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --decision rejected --reason "EIN does not match the legal name"'],
  run: async (ctx, o) => (await verbs()).runBrandDecision(ctx, { id: o.brand, decision: o.decision, reason: o.reason }),
});

export const campaignDecisionTrigger = defineTrigger<{ campaign: string; decision: string; reason?: string }>({
  description: 'The registry decides a campaign under review now: approved or rejected',
  options: [
    { flags: '--campaign <id>', description: 'the campaign', required: true },
    { flags: '--decision <verdict>', description: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', description: 'why it was rejected' },
  ],
  examples: ['svc trigger campaign.decision --campaign 7c1e9b04-2f6a-4d83-b5c1-08e7a3d2f6b9 --decision approved', 'svc trigger campaign.decision --campaign 7c1e9b04-2f6a-4d83-b5c1-08e7a3d2f6b9 --decision rejected --reason "samples lack opt-out language"'],
  run: async (ctx, o) => (await verbs()).runCampaignDecision(ctx, { id: o.campaign, decision: o.decision, reason: o.reason }),
});

export const portDecisionTrigger = defineTrigger<{ port: string; decision: string; reason?: string; focDate?: string }>({
  description: 'The losing carrier decides a submitted port now: approved (FOC date scheduled) or rejected, with port.updated',
  options: [
    { flags: '--port <id>', description: 'the submitted port', required: true },
    { flags: '--decision <verdict>', description: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', description: 'with rejected: why' },
    { flags: '--foc-date <iso>', description: 'with approved: the FOC date, when the numbers move (default: 3 days on)' },
  ],
  examples: ['svc trigger port.decision --port port_tSiKSSom525KjQpOYVaX --decision approved', 'svc trigger port.decision --port port_tSiKSSom525KjQpOYVaX --decision rejected --reason "account number does not match"'],
  run: async (ctx, o) => (await verbs()).runPortDecision(ctx, { id: o.port, decision: o.decision, reason: o.reason, focDate: o.focDate }),
});
