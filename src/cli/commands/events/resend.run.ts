import type { CliContext } from '../../context.js';
import { printList } from '../../../output/formatters.js';
import { resendEvent } from '../../../api/resources/events.js';
import type { Delivery } from '../../../api/schemas/webhooks.js';

// `svc events resend <event-id>… [--endpoint ID]` (contract §10, extension): each event delivered
// again, as new deliveries (freshly signed, same event id); prints them. In order: the first
// refusal stops it, the events before it resent.

export interface ResendOptions {
  eventId: string[];
  endpoint?: string;
}

const RESEND_COLUMNS = ['id', 'eventId', 'eventType', 'endpointId', 'status', 'createdAt'];

export async function runResend(ctx: CliContext, opts: ResendOptions): Promise<void> {
  const client = await ctx.client();
  const deliveries: Delivery[] = [];
  for (const id of opts.eventId) deliveries.push(...(await resendEvent(client, id, opts.endpoint ? { endpointId: opts.endpoint } : {})).deliveries);
  await printList(ctx.io, deliveries, { format: ctx.outputFormat, columns: RESEND_COLUMNS, now: ctx.serviceNow() });
  if (deliveries.length === 0 && ctx.io.stderrTTY) ctx.io.stderr.write('no endpoint to send to: none enabled is subscribed to these events (or name one with --endpoint)\n');
}
