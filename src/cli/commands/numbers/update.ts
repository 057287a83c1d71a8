import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { EmergencyAddressInput, UpdateNumberBody } from '../../../api/schemas/numbers.js';

export interface AddressFlags {
  street?: string;
  street2?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export interface UpdateOptions {
  number: string;
  label?: string;
  clearLabel: boolean;
  callerIdName?: string;
  clearCallerIdName: boolean;
  /** --emergency: true, --no-emergency: false, neither: undefined. */
  emergency?: boolean;
  address: AddressFlags;
}

interface UpdateFlags {
  label?: string;
  clearLabel?: boolean;
  callerIdName?: string;
  clearCallerIdName?: boolean;
  emergency?: boolean;
  emergencyStreet?: string;
  emergencyStreet2?: string;
  emergencyCity?: string;
  emergencyState?: string;
  emergencyZip?: string;
}

export function updateCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('update')
    .description('Change the label, caller ID name or emergency (E911) address of a number')
    .argument('<number>', 'number id (num_…) or E.164')
    .option('--label <label>', 'a label of up to 64 characters')
    .option('--clear-label', 'remove the label')
    .option('--caller-id-name <name>', 'caller ID name shown on calls, 1-15 characters (active about 48 h later)')
    .option('--clear-caller-id-name', 'turn the caller ID name off')
    .option('--emergency-street <street>', 'emergency address: street and number (turns emergency calling on)')
    .option('--emergency-street2 <street2>', 'emergency address: suite, floor (optional)')
    .option('--emergency-city <city>', 'emergency address: city')
    .option('--emergency-state <state>', 'emergency address: two-letter state code')
    .option('--emergency-zip <zip>', 'emergency address: 5-digit ZIP code')
    .option('--emergency', 'turn emergency calling on with the address on file')
    .option('--no-emergency', 'turn emergency calling off (the address is kept)')
    .addHelpText(
      'after',
      `
Everything given is applied together, or nothing is. An emergency address needs street, city, state
and zip. When the carrier can place the address only after a correction (exit 8,
address_suggestion), the suggested address is shown; on a terminal you are offered to resubmit it.

Examples:
  $ svc numbers update +14155550123 --label "Front desk"
  $ svc numbers update +14155550123 --caller-id-name "ACME DENTAL"
  $ svc numbers update +14155550123 --emergency-street "1 Market St" --emergency-city "San Francisco" \\
      --emergency-state CA --emergency-zip 94105
  $ svc numbers update num_01HZX… --no-emergency --clear-label`,
    )
    .action(async (number: string, o: UpdateFlags) =>
      runUpdate(ctx, {
        number,
        label: o.label,
        clearLabel: Boolean(o.clearLabel),
        callerIdName: o.callerIdName,
        clearCallerIdName: Boolean(o.clearCallerIdName),
        emergency: o.emergency,
        address: { street: o.emergencyStreet, street2: o.emergencyStreet2, city: o.emergencyCity, state: o.emergencyState, zip: o.emergencyZip },
      }),
    );
}

const ADDRESS_FLAGS: Array<[keyof AddressFlags, string]> = [
  ['street', '--emergency-street'],
  ['city', '--emergency-city'],
  ['state', '--emergency-state'],
  ['zip', '--emergency-zip'],
];

/** The PATCH body the flags ask for; every rule that needs no service is checked here (exit 2). */
export async function buildUpdateBody(opts: UpdateOptions): Promise<UpdateNumberBody> {
  const { NUMBER_LABEL_MAX, CALLER_ID_NAME_MAX } = await import('../../../api/schemas/numbers.js');
  const body: UpdateNumberBody = {};
  if (opts.label !== undefined && opts.clearLabel) throw new UsageError('give --label or --clear-label, not both', '--clear-label');
  if (opts.label !== undefined) {
    // spec: Limits — number label 64 characters.
    if (opts.label.length > NUMBER_LABEL_MAX) throw new UsageError(`--label: ${opts.label.length} characters; the limit is ${NUMBER_LABEL_MAX}`, '--label');
    body.label = opts.label;
  } else if (opts.clearLabel) body.label = null;

  if (opts.callerIdName !== undefined && opts.clearCallerIdName) throw new UsageError('give --caller-id-name or --clear-caller-id-name, not both', '--clear-caller-id-name');
  if (opts.callerIdName !== undefined) {
    const name = opts.callerIdName.trim();
    // contract §5: callerIdName 1-15 characters.
    if (name.length < 1 || name.length > CALLER_ID_NAME_MAX) throw new UsageError(`--caller-id-name: must be 1 to ${CALLER_ID_NAME_MAX} characters`, '--caller-id-name');
    body.callerIdName = { name };
  } else if (opts.clearCallerIdName) body.callerIdName = { name: null };

  const a = opts.address;
  const anyAddress = Object.values(a).some((v) => v !== undefined);
  if (anyAddress) {
    if (opts.emergency === false) throw new UsageError('--no-emergency turns emergency calling off; it takes no address', '--no-emergency');
    for (const [field, flag] of ADDRESS_FLAGS) {
      if (a[field] === undefined || a[field]!.trim() === '') throw new UsageError(`an emergency address needs ${flag}`, flag);
    }
    if (!/^[A-Za-z]{2}$/.test(a.state!.trim())) throw new UsageError(`--emergency-state: "${a.state}" is not a two-letter state code`, '--emergency-state');
    if (!/^\d{5}(-\d{4})?$/.test(a.zip!.trim())) throw new UsageError(`--emergency-zip: "${a.zip}" is not a 5-digit ZIP code`, '--emergency-zip');
    const address: EmergencyAddressInput = { street: a.street!.trim(), city: a.city!.trim(), state: a.state!.trim().toUpperCase(), zip: a.zip!.trim() };
    if (a.street2 !== undefined && a.street2.trim() !== '') address.street2 = a.street2.trim();
    body.emergency = { enabled: true, address };
  } else if (opts.emergency !== undefined) {
    body.emergency = { enabled: opts.emergency };
  }

  if (body.label === undefined && body.callerIdName === undefined && body.emergency === undefined) {
    throw new UsageError('nothing to update: give --label, --clear-label, --caller-id-name, --emergency-* or --no-emergency', '--label');
  }
  return body;
}

export async function runUpdate(ctx: CliContext, opts: UpdateOptions): Promise<void> {
  const { numberRef } = await import('../../phone-numbers.js');
  const ref = numberRef(opts.number);
  const body = await buildUpdateBody(opts);
  const client = await ctx.client();
  const { updateNumber } = await import('../../../api/resources/numbers.js');
  const { ApiError } = await import('../../../api/client/errors.js');
  let updated;
  try {
    updated = await updateNumber(client, ref, body);
  } catch (err) {
    const suggested = err instanceof ApiError && err.code === 'address_suggestion' ? suggestedAddress(err.details) : undefined;
    if (!suggested || !body.emergency) throw err;
    // spec: Errors — address_suggestion carries the corrected address to resubmit.
    if (!ctx.canPrompt) {
      if (ctx.outputFormat !== 'json') notice(ctx, `suggested address: ${formatAddress(suggested)}\nto use it, run the command again with ${addressFlags(suggested)}`);
      throw err;
    }
    notice(ctx, `${err instanceof Error ? err.message : String(err)}\nThe carrier suggests:\n  ${formatAddress(suggested)}`);
    // An emergency address is where help is sent: a person says yes to the correction, not --yes.
    const resubmit = await ctx.prompter.confirm('Resubmit with the suggested address?', { flag: '--emergency-state', default: true });
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

export function formatAddress(a: EmergencyAddressInput): string {
  return `${a.street}${a.street2 ? `, ${a.street2}` : ''}, ${a.city}, ${a.state} ${a.zip}`;
}

const quote = (s: string): string => (/^[\w.,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function addressFlags(a: EmergencyAddressInput): string {
  const parts = [`--emergency-street ${quote(a.street)}`];
  if (a.street2) parts.push(`--emergency-street2 ${quote(a.street2)}`);
  parts.push(`--emergency-city ${quote(a.city)}`, `--emergency-state ${quote(a.state)}`, `--emergency-zip ${quote(a.zip)}`);
  return parts.join(' ');
}
