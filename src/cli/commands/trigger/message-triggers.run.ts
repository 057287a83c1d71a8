import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { requireE164 } from '../../phone-numbers.js';
import { getMessage, sendMessage } from '../../../api/resources/messages.js';
import { sendInboundMessage } from '../../../api/resources/sandbox-messaging.js';
import { FINAL_MESSAGE_STATUSES } from '../../../api/values/messages.js';
import { MESSAGE_COLUMNS } from '../messages/columns.js';
import type { MESSAGE_OUTCOMES } from '../../../api/values/messages.js';
import { OUTCOME_DESTINATIONS } from './message-outcomes.js';

export interface MessageReceivedOptions {
  to: string;
  from: string;
  body?: string;
  media?: string[];
}

export interface MessageStatusOptions {
  status: (typeof MESSAGE_OUTCOMES)[number];
  from: string;
}

export async function runMessageReceived(ctx: CliContext, opts: MessageReceivedOptions): Promise<void> {
  const to = requireE164(opts.to, '--to');
  const from = requireE164(opts.from, '--from');
  const media = opts.media ?? [];
  if (!opts.body && media.length === 0) throw new UsageError('give --body or --media', '--body');
  const message = await sendInboundMessage(await ctx.client(), {
    to,
    from,
    ...(opts.body ? { body: opts.body } : {}),
    ...(media.length ? { mediaUrls: media } : {}),
  });
  await printOne(ctx, message, MESSAGE_COLUMNS);
}

export async function runMessageStatus(ctx: CliContext, opts: MessageStatusOptions): Promise<void> {
  const from = requireE164(opts.from, '--from');
  const to = OUTCOME_DESTINATIONS[opts.status];
  const client = await ctx.client();
  const { message: sent } = await sendMessage(client, { from, to, body: `svc trigger message.status: ${opts.status}` });
  // The send answers `queued`; a test send is already final by now, so show where it stands.
  const message = await getMessage(client, sent.id);
  await printOne(ctx, message, MESSAGE_COLUMNS);
  if (!FINAL_MESSAGE_STATUSES.has(message.status) && ctx.io.stderrTTY) {
    notice(ctx, `message ${message.id} is ${message.status}; message.status events follow as the carrier moves it (svc messages get ${message.id})`);
  }
}
