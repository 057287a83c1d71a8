import { defineVerb, runConverted } from '../../verb.js';
import { sandboxDecisionEndpoints } from '../../../api/resources/sandbox-registration.js';
import { REGISTRY_VERDICTS } from './verdicts.js';

// contract §7 and §9: registration's outside world — a consumer filling a brand's hosted opt-in form,
// and the registry's or the losing carrier's verdict at once instead of on the clock.

const verbs = () => import('./registration-triggers.run.js');

export const leadCapturedTrigger = defineVerb({
  name: 'lead.captured',
  summary: "A consumer submits a brand's hosted opt-in form: a lead and a lead.captured event",
  flags: [
    { flags: '--brand <id>', help: 'the brand whose opt-in page is filled', required: true, complete: 'brands' },
    { flags: '--first-name <name>', help: "the consumer's first name", default: 'Ada' },
    { flags: '--last-name <name>', help: "the consumer's last name", default: 'Lovelace' },
    { flags: '--email <email>', help: "the consumer's email", default: 'ada@example.com' },
    { flags: '--phone <e164>', help: "the consumer's mobile number", default: '+14155550123' },
    { flags: '--no-consent', help: 'leave the SMS-consent box unticked' },
  ],
  details: [
    'Posts the form of the hosted page /p/<brand>/opt-in over HTTP as a browser would (no API key),',
    'then prints the lead.captured event it caused.',
  ].join('\n'),
  examples: ['svc trigger lead.captured --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10', 'svc trigger lead.captured --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --first-name Grace --phone +14155550188 --no-consent'],
  changes: true,
  run: async () => (await verbs()).runLeadCaptured,
});

export const brandDecisionTrigger = defineVerb({
  name: 'brand.decision',
  summary: "The registry decides a submitted brand now: approved or rejected (instead of an hour later)",
  flags: [
    { flags: '--brand <id>', help: 'the submitted brand', required: true, complete: 'brands' },
    { flags: '--decision <verdict>', help: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', help: 'why it was rejected' },
  ],
  examples: ['svc trigger brand.decision --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --decision approved', 'svc trigger brand.decision --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --decision rejected --reason "EIN does not match the legal name"'],
  changes: true,
  api: sandboxDecisionEndpoints.brand,
  run: runConverted(async () => (await verbs()).runBrandDecision, (o: { brand: string; decision: string; reason?: string }) => ({ id: o.brand, decision: o.decision, reason: o.reason })),
});

export const campaignDecisionTrigger = defineVerb({
  name: 'campaign.decision',
  summary: 'The registry decides a campaign under review now: approved or rejected',
  flags: [
    { flags: '--campaign <id>', help: 'the campaign', required: true, complete: 'campaigns' },
    { flags: '--decision <verdict>', help: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', help: 'why it was rejected' },
  ],
  examples: ['svc trigger campaign.decision --campaign 7c1e9b04-2f6a-4d83-b5c1-08e7a3d2f6b9 --decision approved', 'svc trigger campaign.decision --campaign 7c1e9b04-2f6a-4d83-b5c1-08e7a3d2f6b9 --decision rejected --reason "samples lack opt-out language"'],
  changes: true,
  api: sandboxDecisionEndpoints.campaign,
  run: runConverted(async () => (await verbs()).runCampaignDecision, (o: { campaign: string; decision: string; reason?: string }) => ({ id: o.campaign, decision: o.decision, reason: o.reason })),
});

export const portDecisionTrigger = defineVerb({
  name: 'port.decision',
  summary: 'The losing carrier decides a submitted port now: approved (FOC date scheduled) or rejected, with port.updated',
  flags: [
    { flags: '--port <id>', help: 'the submitted port', required: true },
    { flags: '--decision <verdict>', help: 'the verdict', required: true, choices: REGISTRY_VERDICTS },
    { flags: '--reason <text>', help: 'with rejected: why' },
    { flags: '--foc-date <iso>', help: 'with approved: the FOC date, when the numbers move (default: 3 days on)' },
  ],
  examples: ['svc trigger port.decision --port port_tSiKSSom525KjQpOYVaX --decision approved', 'svc trigger port.decision --port port_tSiKSSom525KjQpOYVaX --decision rejected --reason "account number does not match"'],
  changes: true,
  api: sandboxDecisionEndpoints.port,
  run: runConverted(async () => (await verbs()).runPortDecision, (o: { port: string; decision: string; reason?: string; focDate?: string }) => ({ id: o.port, decision: o.decision, reason: o.reason, focDate: o.focDate })),
});
