import { defineTrigger } from './definition.js';
import { MESSAGE_OUTCOMES } from '../../../api/values/messages.js';

const verbs = () => import('./message-triggers.run.js');

// contract §9 and §4: messaging's outside world — a consumer texting in, and the carrier's verdict.

export interface MessageReceivedOptions {
  to: string;
  from: string;
  body?: string;
  media?: string[];
}

export const messageReceivedTrigger = defineTrigger<MessageReceivedOptions>({
  description: 'A consumer texts one of your numbers: an inbound message and a message.received event',
  options: [
    { flags: '--to <e164>', description: 'your number that receives the text', required: true },
    { flags: '--from <e164>', description: "the consumer's number", required: true },
    { flags: '--body <text>', description: 'the text (optional with --media)' },
    { flags: '--media <url>', description: 'a media URL (MMS); repeatable', repeatable: true },
  ],
  examples: [
    'svc trigger message.received --to +14155550100 --from +14155550123 --body "Is my order ready?"',
    'svc trigger message.received --to +14155550100 --from +14155550123 --body STOP   # opts them out of that number (svc opt-outs list)',
  ],
  run: async (ctx, opts) => (await verbs()).runMessageReceived(ctx, opts),
});

export interface MessageStatusOptions {
  status: (typeof MESSAGE_OUTCOMES)[number];
  from: string;
}

/**
 * contract §4: the carrier's outcome is decided by the destination. `+15005550001` fails,
 * `+15005550004` is undelivered; an ordinary number (here one of the 555-01XX numbers reserved for
 * fiction, never a real phone) is delivered.
 */
export const OUTCOME_DESTINATIONS: Readonly<Record<MessageStatusOptions['status'], string>> = {
  delivered: '+14155550100',
  failed: '+15005550001',
  undelivered: '+15005550004',
};

export const messageStatusTrigger = defineTrigger<MessageStatusOptions>({
  description: 'A message ends delivered, failed or undelivered: a test send whose message.status events follow',
  options: [
    { flags: '--status <status>', description: 'the outcome', required: true, choices: MESSAGE_OUTCOMES },
    { flags: '--from <e164>', description: 'send from this number of yours', default: '+15005550006' },
  ],
  details: [
    'Sends a message to the destination the carrier treats that way and prints it:',
    ...Object.entries(OUTCOME_DESTINATIONS).map(([status, to]) => `  ${status.padEnd(12)} ${to}`),
    'From the test sender +15005550006 (the default) it is final at once; from one of your numbers',
    'with a live key, the message.status events follow as the carrier moves it.',
  ].join('\n'),
  examples: ['svc trigger message.status --status failed', 'svc trigger message.status --status delivered --from +18885550100'],
  run: async (ctx, opts) => (await verbs()).runMessageStatus(ctx, opts),
});

