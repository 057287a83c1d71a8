import { defineVerb } from '../../verb.js';
import { sandboxWebhookEndpoints } from '../../../api/resources/sandbox-webhooks.js';

// contract §9: the outside world for webhooks — an endpoint failing long enough to be auto-disabled.

export const endpointDisabledTrigger = defineVerb({
  name: 'webhook_endpoint.disabled',
  summary: 'A webhook endpoint is auto-disabled now, as after 72 hours of failures: a webhook_endpoint.disabled event',
  flags: [{ flags: '--endpoint <id>', help: 'the endpoint to disable (we_…)', required: true, complete: 'webhooks' }],
  details: [
    'Disables the endpoint through the same path as the automatic rule: disabledReason',
    'consecutive_failures, its scheduled deliveries abandoned, and webhook_endpoint.disabled written to the',
    'feed and delivered to your OTHER enabled endpoints subscribed to it (never to the disabled one).',
    'consecutiveFailures in the event is the endpoint\'s real failing streak. Prints the endpoint;',
    're-enable it with svc webhooks update <id> --enable. Already disabled: exit 5.',
  ].join('\n'),
  examples: ['svc trigger webhook_endpoint.disabled --endpoint we_S8Bq37q53Fx1ZziV3BwL'],
  changes: true,
  api: sandboxWebhookEndpoints.disable,
  run: async () => (await import('./webhook-triggers.run.js')).runEndpointDisabled,
});
