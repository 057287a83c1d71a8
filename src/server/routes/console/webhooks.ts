import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CONSOLE_PATH } from '../../../api/values/console.js';
import { DeliveryListQuery, DeliveryStatus } from '../../../api/schemas/webhooks.js';
import { SinkRequestsQuery } from '../../../api/schemas/sinks.js';
import { getEndpoint, listEndpoints } from '../../domain/webhooks/endpoints.js';
import { getDelivery, inspectDelivery, listDeliveries, scheduleManualRetry } from '../../domain/webhooks/deliveries.js';
import { replayToEndpoint, resendEvent } from '../../domain/webhooks/redelivery.js';
import { getSink, listSinks } from '../../domain/webhooks/sinks.js';
import { SinkRequestsFeed } from '../../domain/webhooks/sink-requests.js';
import { deliveryDetailView, deliveryView, webhookEndpointView } from '../../views/webhooks.js';
import { sinkRequestView, sinkView } from '../../views/sinks.js';
import { shellWord } from '../../views/console/html.js';
import { deliveriesMain, deliveryMain, sinkMain, webhooksMain } from '../../views/console/webhooks.js';
import { parseWith } from './gate.js';
import { CursorQuery, IdParam, PAGE_LIMIT, form, gated, type ConsoleKit } from './kit.js';

// The webhooks section: endpoints and their deliveries (Retry, Replay, the delivery inspector) and,
// on the local service, sinks. Each action goes through the API's own domain functions with the
// session's actor, so a test key replays only test events, as through the API.

const DeliveryParams = z.object({ id: z.string().min(1).max(200), deliveryId: z.string().min(1).max(200) });
const FlashQuery = z.object({ retried: z.string().max(200).optional(), replayed: z.coerce.number().int().min(0).optional() });
const ReplayForm = z.object({ status: DeliveryStatus.extract(['failed', 'abandoned']) });
const SinkPageQuery = z.object({ before: z.string().min(1).max(200).optional() });
const back = (reply: FastifyReply, to: string) => reply.code(303).header('Location', to).header('Cache-Control', 'no-store').send();
const endpointAt = (id: string) => `${CONSOLE_PATH}/webhooks/${encodeURIComponent(id)}`;

export function consoleWebhookPages({ c, deps, page }: ConsoleKit): void {
  const sinkFeed = deps.options.sandbox ? new SinkRequestsFeed(deps) : undefined;
  c.addHook('preClose', async () => sinkFeed?.close());

  c.get('/webhooks', gated, async (req, reply) => {
    const { actor } = req.console;
    const { endpoints, sinks } = await deps.uow.read(async (tx) => ({
      endpoints: (await listEndpoints(tx, actor)).map(webhookEndpointView),
      sinks: sinkFeed ? (await listSinks(tx, actor)).map(sinkView) : undefined,
    }));
    return page(req, reply, { title: 'Webhooks', section: 'webhooks', command: 'svc webhooks list', main: webhooksMain(endpoints, sinks) });
  });

  c.get('/webhooks/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { cursor } = parseWith(CursorQuery, 'query', req.query);
    const { retried, replayed } = parseWith(FlashQuery, 'query', req.query);
    const { actor, standing } = req.console;
    const { endpoint, p } = await deps.uow.read(async (tx) => ({
      endpoint: webhookEndpointView(await getEndpoint(tx, actor, id)),
      p: await listDeliveries(tx, actor, id, parseWith(DeliveryListQuery, 'query', { limit: PAGE_LIMIT, cursor })),
    }));
    const flash = retried ? `Delivery ${retried} retried.` : replayed !== undefined ? `Replayed ${replayed} event${replayed === 1 ? '' : 's'}: ${replayed} new deliver${replayed === 1 ? 'y' : 'ies'}.` : undefined;
    return page(req, reply, {
      title: `Webhook ${endpoint.url}`,
      section: 'webhooks',
      command: `svc webhooks deliveries ${shellWord(id)}`,
      main: deliveriesMain(endpoint, p.data.map(deliveryView), p.hasMore ? p.nextCursor : null, standing.session.csrf, flash),
    });
  });

  c.get('/webhooks/:id/deliveries/:deliveryId', gated, async (req, reply) => {
    const { id, deliveryId } = parseWith(DeliveryParams, 'params', req.params);
    const { actor, standing } = req.console;
    // The API's own shape (GET /v1/webhooks/{id}/deliveries/{deliveryId}), rendered.
    const inspected = await deps.uow.read(async (tx) => {
      const endpoint = webhookEndpointView(await getEndpoint(tx, actor, id));
      const { delivery, rawBody } = await inspectDelivery(tx, actor, id, deliveryId);
      return { endpoint, delivery: deliveryDetailView(delivery, rawBody), sample: delivery.isTest };
    });
    return page(req, reply, {
      title: `Delivery ${inspected.delivery.id}`,
      section: 'webhooks',
      command: `svc webhooks deliveries ${shellWord(id)}`,
      main: deliveryMain(inspected, standing.session.csrf),
    });
  });

  c.post('/webhooks/:id/deliveries/:deliveryId/retry', form, async (req, reply) => {
    const { id, deliveryId } = parseWith(DeliveryParams, 'params', req.params);
    const scheduled = await deps.uow.write((tx) => scheduleManualRetry(tx, req.console.actor, id, deliveryId, deps.webhooks.isInFlight(deliveryId)));
    await deps.webhooks.attemptNow(scheduled);
    return back(reply, `${endpointAt(id)}?retried=${encodeURIComponent(deliveryId)}`);
  });

  // Replay this delivery's event to this endpoint: a new delivery, as `POST /v1/events/{id}/resend {endpointId}`.
  c.post('/webhooks/:id/deliveries/:deliveryId/resend', form, async (req, reply) => {
    const { id, deliveryId } = parseWith(DeliveryParams, 'params', req.params);
    const { actor } = req.console;
    const count = await deps.uow.write(async (tx) => {
      const delivery = await getDelivery(tx, actor, id, deliveryId);
      const { due } = await resendEvent(tx, actor, delivery.eventId, id);
      // The worker sends them once committed (as the API's): nothing is attempted that could roll back.
      tx.afterCommit(() => deps.webhooks.onCommitted(due));
      return due.length;
    });
    return back(reply, `${endpointAt(id)}?replayed=${count}`);
  });

  // Replay the endpoint's failed or abandoned events, as `POST /v1/webhooks/{id}/replay {status}`.
  c.post('/webhooks/:id/replay', form, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { status } = parseWith(ReplayForm, 'body', { status: (req.body as Record<string, string>).status });
    const count = await deps.uow.write(async (tx) => {
      const due = await replayToEndpoint(tx, req.console.actor, id, { status });
      tx.afterCommit(() => deps.webhooks.onCommitted(due));
      return due.length;
    });
    return back(reply, `${endpointAt(id)}?replayed=${count}`);
  });

  if (sinkFeed) {
    c.get('/webhooks/sinks/:id', gated, async (req, reply) => {
      const { id } = parseWith(IdParam, 'params', req.params);
      const { before } = parseWith(SinkPageQuery, 'query', req.query);
      const { actor } = req.console;
      const sink = sinkView(await deps.uow.read((tx) => getSink(tx, actor, id)));
      const p = await sinkFeed.read(actor, id, parseWith(SinkRequestsQuery, 'query', { order: 'desc', limit: PAGE_LIMIT, before, wait: 0 }));
      return page(req, reply, {
        title: `Sink ${sink.id}`,
        section: 'webhooks',
        command: `svc webhooks sink requests ${shellWord(sink.id)} --follow`,
        main: sinkMain(sink, p.requests.map(sinkRequestView), p.hasMore ? p.cursor : null, before !== undefined),
      });
    });
  }
}
