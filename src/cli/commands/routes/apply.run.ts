import type { CliContext } from '../../context.js';
import { numberRef } from '../../phone-numbers.js';
import { getRoute, putRoute } from '../../../api/resources/routes.js';
import { writeAndDrain } from '../../../output/io.js';
import { planRoute, renderPlan, routeToDocument } from './document.js';
import { printRoute } from './print-route.js';
import { readRouteFile } from './source.js';

export interface ApplyRouteOptions {
  number: string;
  file: string;
}

export async function runApply(ctx: CliContext, opts: ApplyRouteOptions): Promise<void> {
  const number = numberRef(opts.number);
  const { body } = await readRouteFile(ctx, opts.file);
  const client = await ctx.client();
  if (client.dryRun) {
    // cli.md: --dry-run prints the change and sends nothing (the read it needs is no change).
    const { data } = await getRoute(await ctx.readClient(), number);
    await writeAndDrain(ctx.io.stdout, renderPlan(planRoute(data.route === null ? null : routeToDocument(data.route), body)));
  }
  const saved = await putRoute(client, number, body);
  await printRoute(ctx, number, saved.data);
}
