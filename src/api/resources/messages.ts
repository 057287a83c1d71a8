import type { ApiClient } from '../client/client.js';
import type { Message, MessageStatus, SendMessageBody } from '../schemas/messages.js';
import type { MESSAGE_DIRECTIONS } from '../values/messages.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { endpoint, readOne, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint; commands never build URLs. spec: Messages; contract §4.
const messageParser = responseParser('MessageSchema');

export const messageEndpoints = {
  send: { method: 'POST', path: '/v1/messages' },
  get: endpoint({ method: 'GET', path: '/v1/messages/{id}', schema: 'MessageSchema' }),
} as const satisfies Record<string, EndpointRef>;

export interface SentMessage {
  message: Message;
  /** `Idempotent-Replayed: true`: the key was used before and this is the original message. */
  replayed: boolean;
}

/** POST /v1/messages. `idempotencyKey` fixes the key (cli.md: generated unless given; the same on every retry). */
export async function sendMessage(client: ApiClient, body: SendMessageBody, opts: { idempotencyKey?: string } = {}): Promise<SentMessage> {
  const res = await client.request({ method: 'POST', path: messageEndpoints.send.path, body, schema: messageParser, idempotencyKey: opts.idempotencyKey });
  return { message: res.data, replayed: res.headers['idempotent-replayed'] === 'true' };
}

/** GET /v1/messages, newest first. */
export const messageList = listEndpoint<Message, MessageListFilter>({ path: '/v1/messages', row: 'MessageSchema' });
export type MessageListFilter = { direction?: (typeof MESSAGE_DIRECTIONS)[number]; from?: string; to?: string; status?: MessageStatus };

export async function getMessage(client: ApiClient, id: string): Promise<Message> {
  return readOne(client, messageEndpoints.get, { id });
}
