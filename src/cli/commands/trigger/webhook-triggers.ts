import { defineTrigger } from './definition.js';

// contract §9: the outside world for webhooks — an endpoint failing long enough to be auto-disabled.

export interface EndpointDisabledOptions {
  endpoint: string;
}

export const endpointDisabledTrigger = defineTrigger<EndpointDisabledOptions>({
  description: 'A webhook endpoint is auto-disabled now, as after 72 hours of failures: a webhook_endpoint.disabled event',
  options: [{ flags: '--endpoint <id>', description: 'the endpoint to disable (we_…)', required: true }],
  details: [
    'Disables the endpoint through the same path as the automatic rule: disabledReason',
    'consecutive_failures, its scheduled deliveries abandoned, and webhook_endpoint.disabled written to the',
    'feed and delivered to your OTHER enabled endpoints subscribed to it (never to the disabled one).',
    'consecutiveFailures in the event is the endpoint\'s real failing streak. Prints the endpoint;',
    're-enable it with svc webhooks update <id> --enable. Already disabled: exit 5.',
  ].join('\n'),
  examples: ['svc trigger webhook_endpoint.disabled --endpoint we_S8Bq37q53Fx1ZziV3BwL'],
  run: async (ctx, opts) => (await import('./webhook-triggers.run.js')).runEndpointDisabled(ctx, opts),
});
