import type { CliContext } from '../../context.js';
import { numberRef } from '../../phone-numbers.js';
import { getRoute } from '../../../api/resources/routes.js';
import { printRoute } from './print-route.js';

export interface GetRouteOptions {
  number: string;
}

export async function runGet(ctx: CliContext, opts: GetRouteOptions): Promise<void> {
  const number = numberRef(opts.number);
  const { data } = await getRoute(await ctx.client(), number);
  await printRoute(ctx, number, data);
}
