import type { Chaos } from '../world/chaos.js';
import { delayMs } from '../world/chaos.js';
import type { PostRequest, PostResult, WebhookSender } from './http-post.js';

/**
 * A webhook attempt with the webhook faults of the profile that applies to the endpoint's
 * account — sent `delayMs` late (`webhook.delay`), or sent twice (`webhook.duplicate`: the receiver
 * sees the same event id twice, the at-least-once the spec promises made visible; the first answer
 * is the attempt's outcome). The stable id is the event's (its type and content, numbered:
 * world/chaos.ts `noteEvent`), the endpoint's path and the attempt's number, so the order attempts
 * go out in does not matter.
 */
export async function postWithChaos(chaos: Chaos | undefined, sender: WebhookSender, req: PostRequest, attempt: { accountId: string; eventId: string; eventType: string; number: number }): Promise<PostResult> {
  if (!chaos?.anyActive) return sender.post(req);
  const run = await chaos.forAccountId(attempt.accountId);
  if (!run?.active) return sender.post(req);
  const { accountId, eventId, eventType } = attempt;
  // The event as emitted (`event message.status {…}#1`), the endpoint's path (its port may differ from a run to the next), the attempt.
  const id = `webhook ${req.url.pathname} ${run.eventName(eventId)} attempt ${attempt.number}`;
  const delay = run.roll(['webhook.delay'], id);
  if (delay) {
    chaos.record(accountId, delay, { eventId, eventType, delayMs: delayMs(delay.fault) });
    await new Promise((r) => setTimeout(r, delayMs(delay.fault)));
  }
  const duplicate = run.roll(['webhook.duplicate'], id);
  if (!duplicate) return sender.post(req);
  chaos.record(accountId, duplicate, { eventId, eventType });
  const [first] = await Promise.all([sender.post(req), sender.post(req)]);
  return first;
}
