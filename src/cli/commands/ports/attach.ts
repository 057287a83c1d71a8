import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, type RunF } from '../../command-kit.js';
import { PORT_DOCUMENT_TYPES, type PortDocumentType } from '../../../api/values/registration.js';

export interface AttachOptions {
  port: string;
  type: PortDocumentType;
  file: string;
}

export function attachCommand(parent: Command, ctx: CliContext, runF?: RunF<AttachOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runAttach(ctx, opts));
  return parent
    .command('attach')
    .description('Attach a document to a port request: the letter of authorization (loa) or a recent bill')
    .argument('<port>', 'port id')
    .argument('<file>', 'the document (PDF, image…)')
    .addOption(enumOption('--type <type>', 'loa or bill', PORT_DOCUMENT_TYPES).makeOptionMandatory())
    .addHelpText('after', '\nExamples:\n  $ svc ports attach port_tSiKSSom525KjQpOYVaX --type loa loa.pdf\n  $ svc ports attach port_tSiKSSom525KjQpOYVaX --type bill bill.pdf')
    .action(async (port: string, file: string, o: { type: PortDocumentType }) => run({ port, type: o.type, file }));
}
