import type { ApiClient } from '../client/client.js';
import type { InboundMessageBody, Message } from '../schemas/messages.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// contract §9: the outside world for messaging (local service only).
const messageParser = responseParser('MessageSchema');

export const sandboxMessagingEndpoints = {
  inbound: { method: 'POST', path: '/v1/sandbox/inbound-messages' },
} as const satisfies Record<string, EndpointRef>;

/** A consumer's text to one of the account's numbers → an inbound message and `message.received`. */
export async function sendInboundMessage(client: ApiClient, body: InboundMessageBody): Promise<Message> {
  return (await client.request({ method: 'POST', path: sandboxMessagingEndpoints.inbound.path, body, schema: messageParser })).data;
}
