import type { ApiClient } from '../client/client.js';
import type { InboundMessageBody, Message } from '../schemas/messages.js';
import { responseParser } from '../parsers.js';

// contract §9: the outside world for messaging (local service only).
const messageParser = responseParser('MessageSchema');

/** A consumer's text to one of the account's numbers → an inbound message and `message.received`. */
export async function sendInboundMessage(client: ApiClient, body: InboundMessageBody): Promise<Message> {
  return (await client.request({ method: 'POST', path: '/v1/sandbox/inbound-messages', body, schema: messageParser })).data;
}
