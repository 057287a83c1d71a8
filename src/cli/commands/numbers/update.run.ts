import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { numberRef } from '../../phone-numbers.js';
import { checkFlags } from '../../schema-flags.js';
import { updateNumber } from '../../../api/resources/numbers.js';
import { ApiError } from '../../../api/client/errors.js';
import { UpdateNumberBody, type EmergencyAddressInput } from '../../../api/schemas/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import { formatAddress } from '../../error-details.js';
import type { AddressFlags, UpdateOptions } from './options.js';

const UPDATE_FLAGS = {
  label: '--label',
  callerIdName: '--caller-id-name',
  'emergency.address.street': '--emergency-street',
  'emergency.address.street2': '--emergency-street2',
  'emergency.address.city': '--emergency-city',
  'emergency.address.state': '--emergency-state',
  'emergency.address.zip': '--emergency-zip',
  emergency: '--emergency',
};

const ADDRESS_FLAGS: Array<[keyof AddressFlags, string]> = [
  ['street', '--emergency-street'],
  ['city', '--emergency-city'],
  ['state', '--emergency-state'],
  ['zip', '--emergency-zip'],
];

/** The PATCH body the flags ask for; every rule that needs no service is checked here (exit 2). */
export async function buildUpdateBody(opts: UpdateOptions): Promise<UpdateNumberBody> {
  const body: UpdateNumberBody = {};
  if (opts.label !== undefined && opts.clearLabel) throw new UsageError('give --label or --clear-label, not both', '--clear-label');
  if (opts.label !== undefined) {
    body.label = opts.label;
  } else if (opts.clearLabel) body.label = null;

  if (opts.callerIdName !== undefined && opts.clearCallerIdName) throw new UsageError('give --caller-id-name or --clear-caller-id-name, not both', '--clear-caller-id-name');
  if (opts.callerIdName !== undefined) {
    body.callerIdName = { name: opts.callerIdName.trim() };
  } else if (opts.clearCallerIdName) body.callerIdName = { name: null };

  const a = opts.address;
  const anyAddress = Object.values(a).some((v) => v !== undefined);
  if (anyAddress) {
    if (opts.emergency === false) throw new UsageError('--no-emergency turns emergency calling off; it takes no address', '--no-emergency');
    for (const [field, flag] of ADDRESS_FLAGS) {
      if (a[field] === undefined || a[field]!.trim() === '') throw new UsageError(`an emergency address needs ${flag}`, flag);
    }
    const address: EmergencyAddressInput = { street: a.street!.trim(), city: a.city!.trim(), state: a.state!.trim().toUpperCase(), zip: a.zip!.trim() };
    if (a.street2 !== undefined && a.street2.trim() !== '') address.street2 = a.street2.trim();
    body.emergency = { enabled: true, address };
  } else if (opts.emergency !== undefined) {
    body.emergency = { enabled: opts.emergency };
  }

  if (body.label === undefined && body.callerIdName === undefined && body.emergency === undefined) {
    throw new UsageError('nothing to update: give --label, --clear-label, --caller-id-name, --emergency-* or --no-emergency', '--label');
  }
  // spec: Limits (label 64), contract §5 (caller ID name 1-15, state and ZIP): the API's own rules.
  checkFlags(UpdateNumberBody, body, UPDATE_FLAGS);
  return body;
}

export async function runUpdate(ctx: CliContext, opts: UpdateOptions): Promise<void> {
  const ref = numberRef(opts.number);
  const body = await buildUpdateBody(opts);
  const client = await ctx.client();
  let updated;
  try {
    updated = await updateNumber(client, ref, body);
  } catch (err) {
    const suggested = err instanceof ApiError && err.code === 'address_suggestion' ? suggestedAddress(err.details) : undefined;
    if (!suggested || !body.emergency) throw err;
    // spec: Errors — address_suggestion carries the corrected address to resubmit.
    // The error report prints the suggested address; the hint says how to take it.
    (err as ApiError).hint = `to use it, run the command again with ${addressFlags(suggested)}`;
    if (!ctx.canPrompt) throw err;
    notice(ctx, `${err instanceof Error ? err.message : String(err)}\nThe carrier suggests:\n  ${formatAddress(suggested)}`);
    // An emergency address is where help is sent: a person says yes to the correction, not --yes.
    const resubmit = await ctx.prompter.confirm('Resubmit with the suggested address?', { flag: '--emergency-state', default: false });
    if (!resubmit) throw err;
    updated = await updateNumber(client, ref, { ...body, emergency: { enabled: true, address: suggested } });
  }
  await printOne(ctx, updated, NUMBER_COLUMNS);
}

function suggestedAddress(details: unknown): EmergencyAddressInput | undefined {
  const s = (details as { suggested?: Record<string, unknown> } | undefined)?.suggested;
  if (!s || typeof s !== 'object') return undefined;
  const text = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : undefined);
  const [street, city, state, zip] = [text('street'), text('city'), text('state'), text('zip')];
  if (!street || !city || !state || !zip) return undefined;
  const address: EmergencyAddressInput = { street, city, state, zip };
  if (text('street2')) address.street2 = text('street2');
  return address;
}

const quote = (s: string): string => (/^[\w.,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function addressFlags(a: EmergencyAddressInput): string {
  const parts = [`--emergency-street ${quote(a.street)}`];
  if (a.street2) parts.push(`--emergency-street2 ${quote(a.street2)}`);
  parts.push(`--emergency-city ${quote(a.city)}`, `--emergency-state ${quote(a.state)}`, `--emergency-zip ${quote(a.zip)}`);
  return parts.join(' ');
}
