// An SMS auto-responder: a webhook receiver for `message.received` that answers from the number
// texted. Webhooks are delivered at least once, so each event is handled once by its id.
import { createServer } from 'node:http';
import { verifyWebhookSignature } from 'svc/webhooks';
import { api } from './api.mjs';

const REPLIES = [
  [/hours/i, 'We are open 9am to 5pm, Monday to Friday.'],
  [/address|where/i, 'Find us at 1 Bay St, San Francisco.'],
];
const FALLBACK = 'Thanks! Reply HOURS or ADDRESS.';

export function replyFor(text) {
  return REPLIES.find(([pattern]) => pattern.test(text ?? ''))?.[1] ?? FALLBACK;
}

/** Starts the receiver on a free port and subscribes it; `close()` stops it. */
export async function startAutoResponder(env) {
  const handled = new Set();
  let secret = '';
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (!verifyWebhookSignature(raw, req.headers['x-service-signature'], secret)) return res.writeHead(401).end();
      res.writeHead(200).end();
      const event = JSON.parse(raw);
      if (event.type !== 'message.received' || handled.has(event.id)) return;
      handled.add(event.id);
      await api(env, 'POST', '/v1/messages', { from: event.to, to: event.from, body: replyFor(event.body) });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/sms`;
  const endpoint = await api(env, 'POST', '/v1/webhooks', { url, events: ['message.received'] });
  secret = endpoint.secret;
  return { url, close: () => new Promise((r) => server.close(r)) };
}
