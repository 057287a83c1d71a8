import type { CliContext } from '../../context.js';
import { ExitStatus } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { numberRef } from '../../phone-numbers.js';
import { getRoute } from '../../../api/resources/routes.js';
import { writeAndDrain } from '../../../output/io.js';
import { planRoute, renderPlan, routeToDocument } from './document.js';
import { readRouteFile } from './source.js';

export interface DiffRouteOptions {
  number: string;
  file: string;
}

export async function runDiff(ctx: CliContext, opts: DiffRouteOptions): Promise<void> {
  const number = numberRef(opts.number);
  const { body } = await readRouteFile(ctx, opts.file);
  const { data } = await getRoute(await ctx.readClient(), number);
  const plan = planRoute(data.route === null ? null : routeToDocument(data.route), body);
  await writeAndDrain(ctx.io.stdout, renderPlan(plan));
  // cli.md: exit 0 when nothing would change, 1 when something would.
  if (plan.lines.length) throw new ExitStatus(EXIT.failure);
}
