import type { ReadDeps } from '../deps.js';
import type { EventRecord } from '../../storage/events-repo.js';
import type { KeyMode } from '../../../api/values/keys.js';

// contract §2 and §10: "A test key replays only test events." An event carries no mode of its own:
// it is a test event when what it reports was made in test mode (a test send: a test key's, or from
// the test sender; a test key's call, email, sending domain, port or endpoint). What no key made in
// test mode is live: an inbound message (the outside world sent it), money (test keys move none),
// a lead (a visitor's form). A subject no longer stored counts as live: a test key may act only on
// what it can show is a test key's.

type ModeDeps = Pick<ReadDeps, 'messages' | 'calls' | 'emails' | 'sendingDomains' | 'ports' | 'webhookEndpoints'>;

const idField = (body: Record<string, unknown>, name: string): string | undefined => (typeof body[name] === 'string' ? (body[name] as string) : undefined);

/** The mode of an event, from the record it reports. */
export async function eventMode(d: ModeDeps, event: Pick<EventRecord, 'accountId' | 'type' | 'body'>): Promise<KeyMode> {
  const { accountId, body } = event;
  const messageId = idField(body, 'messageId');
  if (messageId) return (await d.messages.get(accountId, messageId))?.test ? 'test' : 'live';
  const callId = idField(body, 'callId');
  if (callId) return (await d.calls.get(accountId, callId))?.mode ?? 'live';
  const emailId = idField(body, 'emailId');
  if (emailId) return (await d.emails.get(accountId, emailId))?.mode ?? 'live';
  const domainId = idField(body, 'domainId');
  if (domainId) return (await d.sendingDomains.get(accountId, domainId))?.mode ?? 'live';
  const portId = idField(body, 'portId');
  if (portId) return (await d.ports.get(accountId, portId))?.mode ?? 'live';
  const endpointId = idField(body, 'endpointId');
  if (endpointId && event.type.startsWith('webhook_endpoint.')) return (await d.webhookEndpoints.get(accountId, endpointId))?.mode ?? 'live';
  return 'live';
}
