import { defineVerb } from '../../verb.js';
import { sandboxMessagingEndpoints } from '../../../api/resources/sandbox-messaging.js';
import { messageEndpoints } from '../../../api/resources/messages.js';
import { MESSAGE_OUTCOMES } from '../../../api/values/messages.js';
import { OUTCOME_DESTINATIONS } from './message-outcomes.js';

const verbs = () => import('./message-triggers.run.js');

// contract §9 and §4: messaging's outside world — a consumer texting in, and the carrier's verdict.

export const messageReceivedTrigger = defineVerb({
  name: 'message.received',
  summary: 'A consumer texts one of your numbers: an inbound message and a message.received event',
  flags: [
    { flags: '--to <e164>', help: 'your number that receives the text', required: true },
    { flags: '--from <e164>', help: "the consumer's number", required: true },
    { flags: '--body <text>', help: 'the text (optional with --media)' },
    { flags: '--media <url>', help: 'a media URL (MMS); repeatable', repeatable: true },
  ],
  examples: [
    'svc trigger message.received --to +14155550100 --from +14155550123 --body "Is my order ready?"',
    'svc trigger message.received --to +14155550100 --from +14155550123 --body STOP   # opts them out of that number (svc opt-outs list)',
  ],
  changes: true,
  api: sandboxMessagingEndpoints.inbound,
  run: async () => (await verbs()).runMessageReceived,
});

export const messageStatusTrigger = defineVerb({
  name: 'message.status',
  summary: 'A message ends delivered, failed or undelivered: a test send whose message.status events follow',
  flags: [
    { flags: '--status <status>', help: 'the outcome', required: true, choices: MESSAGE_OUTCOMES },
    { flags: '--from <e164>', help: 'send from this number of yours', default: '+15005550006' },
  ],
  details: [
    'Sends a message to the destination the carrier treats that way and prints it:',
    ...Object.entries(OUTCOME_DESTINATIONS).map(([status, to]) => `  ${status.padEnd(12)} ${to}`),
    'From the test sender +15005550006 (the default) it is final at once; from one of your numbers',
    'with a live key, the message.status events follow as the carrier moves it.',
  ].join('\n'),
  examples: ['svc trigger message.status --status failed', 'svc trigger message.status --status delivered --from +18885550100'],
  changes: true,
  api: messageEndpoints.send,
  run: async () => (await verbs()).runMessageStatus,
});
