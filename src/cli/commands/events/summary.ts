// A short, one-line description of an event for people at a terminal (spec: Event catalog). Pipes
// and -o get the event itself; this is only the last column of a line.

const MAX = 80;

const clip = (text: string, max = MAX): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const str = (v: unknown): string | undefined => (v === undefined || v === null || v === '' ? undefined : typeof v === 'object' ? undefined : String(v));

const join = (...parts: Array<string | undefined>): string => parts.filter((p) => p !== undefined && p !== '').join(' ');

const BORING = new Set(['id', 'eventId', 'type', 'createdAt']);

/** The fields that matter for a type, in the order a person reads them; else the first few scalars. */
export function summarizeEvent(item: Record<string, unknown>): string {
  const type = String(item.type ?? '');
  const f = (k: string) => str(item[k]);
  const route = f('from') && f('to') ? `${f('from')} → ${f('to')}` : undefined;
  if (type === 'message.received') return clip(join(route, f('body') !== undefined ? `"${clip(f('body')!, 50)}"` : undefined));
  if (type === 'message.status') return clip(join(f('messageId'), f('status'), f('reason') && `(${f('reason')})`));
  if (type === 'webhook_endpoint.disabled') return clip(join(f('endpointId'), f('url'), f('reason') && `(${f('reason')})`));
  if (type.startsWith('call.') || type.startsWith('voicemail.')) {
    return clip(join(route, f('outcome'), f('digit') && `digit ${f('digit')}`, f('durationSeconds') && `${f('durationSeconds')}s`, f('transcriptStatus')));
  }
  if (type.startsWith('email.')) return clip(join(f('recipient'), f('status'), f('emailId')));
  if (type.startsWith('domain.')) return clip(join(f('domain'), f('status')));
  if (type.startsWith('billing.')) return clip(join(f('kind'), f('status'), f('amountCents') && `amount ${f('amountCents')}¢`, f('balanceCents') && `balance ${f('balanceCents')}¢`));
  if (type === 'lead.captured') return clip(join(f('firstName'), f('lastName'), f('phone'), f('email')));
  const scalars = Object.entries(item)
    .filter(([k, v]) => !BORING.has(k) && str(v) !== undefined)
    .slice(0, 3)
    .map(([k, v]) => `${k}=${String(v)}`);
  return clip(scalars.join(' '));
}
