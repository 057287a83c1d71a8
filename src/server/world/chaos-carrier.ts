import type { Carrier, CarrierAcceptance, CarrierStep, OutboundSubmission } from './carrier.js';
import { delayMs, type Chaos } from './chaos.js';

/**
 * The carrier with the chaos profile's carrier faults (world/chaos.ts). Only what the
 * carrier answers changes: the course of receipts a live message then walks. A message's stable id
 * is its sender, recipient and text, numbered by occurrence. Test-key sends never reach a carrier
 * (contract §4: the stub plays them), so chaos never touches them.
 */
export function chaosCarrier(carrier: Carrier, chaos: Chaos): Carrier {
  const wrapped = Object.create(carrier) as Carrier;
  wrapped.submit = async (m: OutboundSubmission): Promise<CarrierAcceptance> => {
    const accepted = await carrier.submit(m);
    if (!chaos.anyActive) return accepted;
    const run = await chaos.forAccountId(m.accountId);
    if (!run?.active) return accepted;
    const id = run.occurrence(`sms ${m.from}>${m.to} ${JSON.stringify(m.body)}`);
    let course: CarrierStep[] = accepted.course;
    const end = run.roll(['carrier.failed', 'carrier.undelivered'], id);
    if (end) {
      const status = end.kind === 'carrier.failed' ? 'failed' : 'undelivered';
      const reason = end.fault.reason ?? (status === 'failed' ? 'carrier rejected: chaos' : 'unreachable handset: chaos');
      course = course.map((s, i) => (i === course.length - 1 ? { ...s, status, reason } : s));
      chaos.record(m.accountId, end, { messageId: m.messageId, status, reason });
    }
    for (const hit of run.rollEach(['carrier.late', 'carrier.out_of_order'], id)) {
      if (hit.kind === 'carrier.late') {
        const late = delayMs(hit.fault);
        course = course.map((s, i) => (i === course.length - 1 ? { ...s, afterMs: s.afterMs + late } : s));
        chaos.record(m.accountId, hit, { messageId: m.messageId, delayMs: late });
      } else {
        // A stale `sent` receipt after the final one: the service keeps the final status (carrierMove).
        course = [...course, { afterMs: 0, status: 'sent', reason: null }];
        chaos.record(m.accountId, hit, { messageId: m.messageId, staleReceipt: 'sent' });
      }
    }
    return { ...accepted, course };
  };
  return wrapped;
}

