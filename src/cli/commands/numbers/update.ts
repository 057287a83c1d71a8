import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

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

export function updateCommand(parent: Command, ctx: CliContext, runF?: RunF<UpdateOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./update.run.js')).runUpdate(ctx, opts));
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
  $ svc numbers update num_n0STtke71XAzVlsShJVy --no-emergency --clear-label`,
    )
    .action(async (number: string, o: UpdateFlags) =>
      run({
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
