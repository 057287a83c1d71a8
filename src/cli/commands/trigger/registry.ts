import type { TriggerDefinition } from './definition.js';
import { messageReceivedTrigger, messageStatusTrigger } from './message-triggers.js';
import { endpointDisabledTrigger } from './webhook-triggers.js';
import {
  callCompletedTrigger,
  callKeyPressedTrigger,
  callMissedTrigger,
  callRingingTrigger,
  callTranscriptDeltaTrigger,
  callTranscriptTrigger,
  callTriggerDefinition,
  voicemailReceivedTrigger,
} from './call-triggers.js';
import {
  dnsBreakTrigger,
  dnsPublishTrigger,
  emailBouncedTrigger,
  emailFailedTrigger,
  emailClickedTrigger,
  emailComplainedTrigger,
  emailOpenedTrigger,
  emailUnsubscribedTrigger,
} from './email-triggers.js';
import { creditedTrigger, failNextTrigger, lowBalanceTrigger, subscriptionUpdatedTrigger } from './billing-triggers.js';
import { brandDecisionTrigger, campaignDecisionTrigger, leadCapturedTrigger, portDecisionTrigger } from './registration-triggers.js';

export type { TriggerDefinition, TriggerOption } from './definition.js';

// `svc trigger <event-type>`: the sandbox's outside world acting (contract §9). One entry per event
// type, each becoming a subcommand with its own flags, help and examples. Later work adds a line here
// (webhook_endpoint.disabled, call.*, domain.*, …) and a definition beside it; the command itself
// never changes.
export const TRIGGERS: Record<string, TriggerDefinition<never>> = {
  'message.received': messageReceivedTrigger,
  'message.status': messageStatusTrigger,
  'webhook_endpoint.disabled': endpointDisabledTrigger,
  call: callTriggerDefinition,
  'call.ringing': callRingingTrigger,
  'call.completed': callCompletedTrigger,
  'call.missed': callMissedTrigger,
  'call.ivr.key_pressed': callKeyPressedTrigger,
  'call.transcript': callTranscriptTrigger,
  'call.transcript.delta': callTranscriptDeltaTrigger,
  'voicemail.received': voicemailReceivedTrigger,
  'lead.captured': leadCapturedTrigger,
  'brand.decision': brandDecisionTrigger,
  'campaign.decision': campaignDecisionTrigger,
  'port.decision': portDecisionTrigger,
  'dns.publish': dnsPublishTrigger,
  'dns.break': dnsBreakTrigger,
  'email.bounced': emailBouncedTrigger,
  'email.failed': emailFailedTrigger,
  'email.complained': emailComplainedTrigger,
  'email.opened': emailOpenedTrigger,
  'email.clicked': emailClickedTrigger,
  'email.unsubscribed': emailUnsubscribedTrigger,
  'billing.wallet.low_balance': lowBalanceTrigger,
  'billing.wallet.credited': creditedTrigger,
  'billing.subscription.updated': subscriptionUpdatedTrigger,
  'payments.fail-next': failNextTrigger,
};
