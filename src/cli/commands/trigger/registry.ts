import type { AnyVerb } from '../../verb.js';
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

// `svc trigger <event-type>`: the sandbox's outside world acting (contract §9). One verb of the
// registry per event type, named by it, with its own flags, help and examples: a new trigger is a
// definition beside the others and a line here; the command itself never changes.
export const TRIGGER_VERBS: readonly AnyVerb[] = [
  messageReceivedTrigger,
  messageStatusTrigger,
  endpointDisabledTrigger,
  callTriggerDefinition,
  callRingingTrigger,
  callCompletedTrigger,
  callMissedTrigger,
  callKeyPressedTrigger,
  callTranscriptTrigger,
  callTranscriptDeltaTrigger,
  voicemailReceivedTrigger,
  leadCapturedTrigger,
  brandDecisionTrigger,
  campaignDecisionTrigger,
  portDecisionTrigger,
  dnsPublishTrigger,
  dnsBreakTrigger,
  emailBouncedTrigger,
  emailFailedTrigger,
  emailComplainedTrigger,
  emailOpenedTrigger,
  emailClickedTrigger,
  emailUnsubscribedTrigger,
  lowBalanceTrigger,
  creditedTrigger,
  subscriptionUpdatedTrigger,
  failNextTrigger,
];

/** The triggers by event type. */
export const TRIGGERS: Readonly<Record<string, AnyVerb>> = Object.fromEntries(TRIGGER_VERBS.map((v) => [v.name, v]));
