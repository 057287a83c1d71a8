import { iso } from '../clock.js';
import type { SinkRequestRecord } from '../storage/sinks-repo.js';
import type { SinkWithEndpoint } from '../domain/webhooks/sinks.js';
import type { Sink, SinkRequest } from '../../api/schemas/sinks.js';

// Records → API shapes for sinks (contract §10, extension). Rules for reads: views/README.md.

export const sinkView = ({ sink, endpoint }: SinkWithEndpoint): Sink => ({
  id: sink.id,
  url: sink.url,
  endpointId: sink.endpointId,
  events: endpoint.events,
  respond: { status: sink.respondStatus, failFirst: sink.failFirst, delayMs: sink.delayMs },
  received: sink.received,
  createdAt: iso(sink.createdAt),
});

export const sinkRequestView = (r: SinkRequestRecord): SinkRequest => ({
  id: r.id,
  receivedAt: iso(r.receivedAt),
  eventId: r.eventId,
  eventType: r.eventType,
  attempt: r.attempt,
  headers: r.headers,
  body: r.body,
  signatureValid: r.signatureValid,
  answeredStatus: r.answeredStatus,
});
