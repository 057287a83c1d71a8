import { describe, expect, it } from 'vitest';
import { moveWorker } from './worker-state.js';

describe('WorkerState', () => {
  it('moves stopped → running → stopping → stopped, and from stopping back to running (a restart)', () => {
    expect(moveWorker('stopped', 'running')).toBe('running');
    expect(moveWorker('running', 'stopping')).toBe('stopping');
    expect(moveWorker('stopping', 'stopped')).toBe('stopped');
    expect(moveWorker('stopping', 'running')).toBe('running');
  });

  it('refuses every other move', () => {
    expect(() => moveWorker('stopped', 'stopping')).toThrow(/from stopped to stopping/);
    expect(() => moveWorker('running', 'stopped')).toThrow(/from running to stopped/);
    expect(() => moveWorker('running', 'running')).toThrow();
    expect(() => moveWorker('stopped', 'stopped')).toThrow();
  });
});
