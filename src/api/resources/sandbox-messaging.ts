import type { ApiClient } from '../client/client.js';
import { MessageSchema, type InboundMessageBody, type Message } from '../schemas/messages.js';
import { PhoneNumberSchema, type PhoneNumber, type TollfreeDecisionBody } from '../schemas/numbers.js';

// contract §9: the outside world for messaging and numbers (local service only).

/** A consumer's text to one of the account's numbers → an inbound message and `message.received`. */
export async function sendInboundMessage(client: ApiClient, body: InboundMessageBody): Promise<Message> {
  return (await client.request({ method: 'POST', path: '/v1/sandbox/inbound-messages', body, schema: MessageSchema })).data;
}

/** The carrier's toll-free verification verdict, at once. */
export async function decideTollfree(client: ApiClient, idOrPhone: string, body: TollfreeDecisionBody): Promise<PhoneNumber> {
  return (
    await client.request({
      method: 'POST',
      path: `/v1/sandbox/numbers/${encodeURIComponent(idOrPhone)}/tollfree-decision`,
      body,
      schema: PhoneNumberSchema,
    })
  ).data;
}
