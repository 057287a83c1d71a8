/**
 * The delivery worker's states:
 * - `stopped`: nothing starts; what is queued is settled as it is reached (it stays due);
 * - `running`: listening, queuing, claiming and attempting;
 * - `stopping`: `stop()` has cut off the attempts in flight and waits for them to settle, then
 *   gives back its claims. A `start()` meanwhile runs again at once (`stopping` → `running`), as a
 *   restart does; the stop then leaves it running.
 */
export type WorkerState = 'stopped' | 'running' | 'stopping';

const MOVES: Record<WorkerState, readonly WorkerState[]> = {
  stopped: ['running'],
  running: ['stopping'],
  stopping: ['stopped', 'running'],
};

/** The state after `from` → `to`; throws if the worker may not move so (a bug, not a condition). */
export function moveWorker(from: WorkerState, to: WorkerState): WorkerState {
  if (!MOVES[from].includes(to)) throw new Error(`the delivery worker cannot move from ${from} to ${to}`);
  return to;
}
