import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { checkFlags } from '../../schema-flags.js';
import { UsageError } from '../../errors.js';
import { requireE164 } from '../../phone-numbers.js';
import { printList } from '../../../output/formatters.js';
import { attachPortDocument, cancelPort, checkPortability, createPort, getPort, submitPort } from '../../../api/resources/ports.js';
import { CreatePortBody } from '../../../api/schemas/ports.js';
import { PORT_LIMITS } from '../../../api/values/registration.js';
import { PRICES } from '../../../api/values/prices.js';
import { dollars } from '../../money.js';
import { readDocument } from '../registrations/document-file.js';
import type { AttachOptions, CheckPortsOptions, CreatePortOptions, PortArg } from './options.js';
import { PORT_COLUMNS } from './columns.js';

// The ports verbs (contract §7: ports).


const CREATE_FLAGS = {
  phoneNumbers: '--number',
  authorizedName: '--authorized-name',
  accountNumber: '--account-number',
  pin: '--pin',
  'serviceAddress.street': '--street',
  'serviceAddress.street2': '--street2',
  'serviceAddress.city': '--city',
  'serviceAddress.state': '--state',
  'serviceAddress.zip': '--zip',
  serviceAddress: '--street',
};

export async function runCheckPorts(ctx: CliContext, opts: CheckPortsOptions): Promise<void> {
  const numbers = opts.numbers.map((n) => requireE164(n, '<numbers>'));
  const result = await checkPortability(await ctx.client(), numbers);
  await printList(ctx.io, result.data, { format: ctx.outputFormat, columns: ['phoneNumber', 'portable', 'reason'], idField: 'phoneNumber' });
}

/** The request from the file, then the flags over it. */
export async function createPortBody(ctx: CliContext, opts: CreatePortOptions): Promise<CreatePortBody> {
  const body: Record<string, unknown> = opts.file !== undefined ? await readDocument(ctx, opts.file, '--file') : {};
  if (opts.numbers?.length) body.phoneNumbers = opts.numbers.map((n) => requireE164(n, '--number'));
  if (opts.authorizedName !== undefined) body.authorizedName = opts.authorizedName;
  if (opts.accountNumber !== undefined) body.accountNumber = opts.accountNumber;
  if (opts.pin !== undefined) body.pin = opts.pin;
  const address = Object.fromEntries(Object.entries(opts.address).filter(([, v]) => v !== undefined));
  if (Object.keys(address).length) body.serviceAddress = { ...((body.serviceAddress as object | undefined) ?? {}), ...address };
  // The API's own rules before sending: a missing or bad field names its flag (exit 2).
  checkFlags(CreatePortBody, body, CREATE_FLAGS);
  return body as CreatePortBody;
}

export async function runCreatePort(ctx: CliContext, opts: CreatePortOptions): Promise<void> {
  const body = await createPortBody(ctx, opts);
  const port = await createPort(await ctx.client(), body, { idempotencyKey: opts.idempotencyKey });
  await printOne(ctx, port, PORT_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `port ${port.id} opened (${port.status}); next: svc ports attach ${port.id} --type loa FILE, --type bill FILE, then svc ports submit ${port.id}`);
}

export async function runAttach(ctx: CliContext, opts: AttachOptions): Promise<void> {
  let content: Buffer;
  try {
    content = await readFile(opts.file);
  } catch (err) {
    throw new UsageError(`<file>: cannot read ${opts.file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, '<file>');
  }
  // Decision (contract §7 names no size): the limit the API enforces, said before uploading.
  if (content.length === 0) throw new UsageError(`<file>: ${opts.file} is empty`, '<file>');
  if (content.length > PORT_LIMITS.documentBytes) throw new UsageError(`<file>: ${opts.file} is ${content.length} bytes; the limit is ${PORT_LIMITS.documentBytes}`, '<file>');
  const port = await attachPortDocument(await ctx.client(), opts.port, { type: opts.type, filename: basename(opts.file).slice(0, PORT_LIMITS.filename), contentBase64: content.toString('base64') });
  await printOne(ctx, port, PORT_COLUMNS);
}

export async function runSubmitPort(ctx: CliContext, opts: PortArg): Promise<void> {
  const client = await ctx.client();
  if (!client.dryRun) {
    // contract §11: a port costs per number; the price is shown before the request goes to the carrier.
    const port = await getPort(client, opts.port);
    const n = port.phoneNumbers.length;
    await ctx.confirm(`Submit port ${port.id} of ${n} number${n === 1 ? '' : 's'} for ${dollars(n * PRICES.portPerNumber)} (${dollars(PRICES.portPerNumber)} per number)?`);
  }
  const port = await submitPort(client, opts.port);
  await printOne(ctx, port, PORT_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `port ${port.id} ${port.status}: the FOC date is scheduled in about a day`);
}

export async function runCancelPort(ctx: CliContext, opts: PortArg): Promise<void> {
  await printOne(ctx, await cancelPort(await ctx.client(), opts.port), PORT_COLUMNS);
}
