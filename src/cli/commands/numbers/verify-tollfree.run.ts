import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { numberRef } from '../../phone-numbers.js';
import { Wizard, type Question } from '../../wizard/wizard.js';
import { verifyTollfree } from '../../../api/resources/numbers.js';
import { VerifyTollfreeBody } from '../../../api/schemas/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { VerifyTollfreeOptions } from './options.js';

const FIELD = VerifyTollfreeBody.shape;

/** The wizard's questions (contract §5), each checked with the API's schema for its field. */
export const TOLLFREE_QUESTIONS: readonly Question[] = [
  { field: 'businessName', flag: '--business-name', message: 'Business name', kind: 'text', schema: FIELD.businessName },
  // Optional for the API, but a verification without one is rejected 72 h later: asked on a terminal.
  { field: 'website', flag: '--website', message: 'Business website, https://… (carriers reject a verification without one)', kind: 'url', schema: FIELD.website },
  { field: 'useCase', flag: '--use-case', message: 'Use case (e.g. appointment reminders)', kind: 'text', schema: FIELD.useCase },
  { field: 'useCaseSummary', flag: '--use-case-summary', message: 'Use case summary', kind: 'text', schema: FIELD.useCaseSummary },
  { field: 'sampleMessage', flag: '--sample-message', message: 'Sample message (include opt-out words, e.g. "Reply STOP to opt out")', kind: 'text', schema: FIELD.sampleMessage },
  { field: 'optInWorkflow', flag: '--opt-in-workflow', message: 'How recipients opt in', kind: 'text', schema: FIELD.optInWorkflow },
  { field: 'monthlyVolume', flag: '--monthly-volume', message: 'Messages per month', kind: 'number', schema: FIELD.monthlyVolume },
];

export async function runVerifyTollfree(ctx: CliContext, opts: VerifyTollfreeOptions): Promise<void> {
  const ref = numberRef(opts.number);
  if (opts.answers !== undefined && opts.fromFile !== undefined) throw new UsageError('--from-file is another name for --answers: give one of them', '--from-file');
  const file = opts.answers ?? opts.fromFile;
  const wizard = await Wizard.start(ctx, {
    name: 'verify-tollfree',
    subject: ref,
    title: `the toll-free verification of ${ref}`,
    command: ['numbers', 'verify-tollfree', ref],
    questions: TOLLFREE_QUESTIONS,
    flags: { ...opts.fields },
    ...(file !== undefined ? { answersFile: { path: file, flag: opts.answers !== undefined ? '--answers' : '--from-file' } } : {}),
    resume: opts.resume,
  });
  // Every answer checked, then the whole body with the API's schema: nothing is sent until it passes.
  const body = wizard.check(VerifyTollfreeBody, await wizard.ask());
  if (!body.website && ctx.io.stderrTTY) notice(ctx, 'note: no --website; the carrier rejects verifications without one');
  const number = await verifyTollfree(await ctx.client(), ref, body);
  await printOne(ctx, number, NUMBER_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `toll-free verification submitted for ${number.phoneNumber}: ${number.tfvStatus}; the carrier decides in about 72 hours`);
  await wizard.finish();
}
