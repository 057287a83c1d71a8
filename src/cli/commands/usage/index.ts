import { defineVerb } from '../../verb.js';
import { billingEndpoints } from '../../../api/resources/billing.js';

// `svc usage` is a verb of its own (the group acts): contract §11.
export const command = defineVerb({
  name: 'usage',
  summary: 'Spend per category for a period, with a total (dollars on a terminal, cents in json)',
  flags: [
    { flags: '--from <when>', help: 'start, inclusive: 2026-11-01, 2026-11-01T09:00:00Z, or back from now: 7d (default: the start of this month)' },
    { flags: '--to <when>', help: 'end, exclusive: a date, an instant, now, or back from now (default: now)' },
  ],
  details: `Spend per category (SMS, numbers, voice, email, registrations, ports…) with a total row. On a
terminal amounts show in dollars; -o json gives the API's answer in cents (data, totalCents, from,
to) and -o csv/ndjson one row per category with amountCents. Relative times count back from the
service clock, so they stay right after \`svc clock advance\`.`,
  examples: ['svc usage', 'svc usage --from 7d', 'svc usage --from 2026-11-01 --to 2026-12-01 -o json'],
  api: billingEndpoints.usage,
  run: async () => (await import('./usage.run.js')).runUsage,
});
