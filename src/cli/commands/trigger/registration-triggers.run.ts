import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import { listEvents } from '../../../api/resources/events.js';
import { decideBrand, decideCampaign, decidePort } from '../../../api/resources/sandbox-registration.js';
import { HOSTED_PAGE_PATHS } from '../../../api/values/registration.js';
import { BRAND_COLUMNS, CAMPAIGN_COLUMNS } from '../brands/columns.js';
import { PORT_COLUMNS } from '../ports/columns.js';

export interface LeadCapturedOptions {
  brand: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  /** --no-consent: the SMS-consent box left unticked. */
  consent: boolean;
}

export interface DecisionOptions {
  id: string;
  decision: string;
  reason?: string;
  /** port.decision with approved: the FOC date (ISO 8601). */
  focDate?: string;
}

const verdict = (o: DecisionOptions) => ({ decision: o.decision, ...(o.reason !== undefined ? { reason: o.reason } : {}), ...(o.focDate !== undefined ? { focDate: o.focDate } : {}) });

export async function runBrandDecision(ctx: CliContext, opts: DecisionOptions): Promise<void> {
  await printOne(ctx, await decideBrand(await ctx.client(), opts.id, verdict(opts)), BRAND_COLUMNS);
}

export async function runCampaignDecision(ctx: CliContext, opts: DecisionOptions): Promise<void> {
  await printOne(ctx, await decideCampaign(await ctx.client(), opts.id, verdict(opts)), CAMPAIGN_COLUMNS);
}

export async function runPortDecision(ctx: CliContext, opts: DecisionOptions): Promise<void> {
  await printOne(ctx, await decidePort(await ctx.client(), opts.id, verdict(opts)), PORT_COLUMNS);
}

/**
 * contract §7: submitting the hosted opt-in form emits `lead.captured`. Sent as a browser sends a
 * form (urlencoded, no API key) to the page's own path, then the event it caused is read back.
 */
export async function runLeadCaptured(ctx: CliContext, opts: LeadCapturedOptions): Promise<void> {
  const client = await ctx.client();
  const before = await listEvents(client, { types: ['lead.captured'], order: 'desc', limit: 1 });
  const newest = before.data[0]?.eventId;
  const form = new URLSearchParams();
  const fields: Array<[string, string | undefined]> = [
    ['firstName', opts.firstName],
    ['lastName', opts.lastName],
    ['email', opts.email],
    ['phone', opts.phone],
  ];
  for (const [k, v] of fields) if (v !== undefined) form.set(k, v);
  // The page's checkbox value (domain/registration/leads.ts CONSENT_VALUE); unticked, it is not sent.
  if (opts.consent) form.set('consent', 'yes');
  const url = `${client.baseUrl}${HOSTED_PAGE_PATHS.optIn(encodeURIComponent(opts.brand))}`;
  const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  await res.arrayBuffer();
  if (res.status >= 400) throw new CliError(`the opt-in form at ${url} answered ${res.status}: the lead was not captured`);
  const after = await listEvents(client, { types: ['lead.captured'], order: 'desc', limit: 1 });
  const event = after.data[0];
  if (!event || event.eventId === newest) throw new CliError(`the opt-in form at ${url} answered ${res.status} but no lead.captured event followed`);
  await printOne(ctx, event);
  if (ctx.io.stderrTTY) notice(ctx, `lead.captured ${event.eventId} for brand ${opts.brand}`);
}
