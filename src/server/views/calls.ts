import { iso, isoOrNull } from '../clock.js';
import type { CallRecord } from '../storage/calls-repo.js';
import type { Call, CallTrace } from '../../api/schemas/calls.js';

// Records → API shapes for calls (contract §6: Call, call trace). Rules for reads: views/README.md.

export const callView = (c: CallRecord): Call => ({
  id: c.id,
  numberId: c.numberId,
  direction: c.direction,
  from: c.from,
  to: c.to,
  status: c.status,
  startedAt: iso(c.startedAt),
  answeredAt: isoOrNull(c.answeredAt),
  endedAt: isoOrNull(c.endedAt),
  durationSeconds: c.durationSeconds,
  answeredBy: c.answeredBy,
  answeredDevice: c.answeredDevice,
  outcome: c.outcome,
  recordingId: c.recordingId,
  voicemailId: c.voicemailId,
});

/**
 * contract §6 (call trace, extension): `{data: [{at, step, detail}], complete}`, in the order the
 * engine decided. `complete`: the runner has nothing left to run (its state is cleared when the
 * engine's `dueAt` is null, call-runner.ts `progressOf`), and every step's events were committed with it.
 */
export const callTraceView = (call: Pick<CallRecord, 'trace' | 'state'>): CallTrace => ({
  data: call.trace.map((t) => ({ at: iso(t.at), step: t.step as CallTrace['data'][number]['step'], detail: t.detail })),
  complete: call.state === null,
});
