import { describe, it, expect } from 'vitest';
import { ManualClock, SystemClock, restoreClock, saveClock } from './clock.js';

describe('the service clock across restarts', () => {
  const wall = () => 1_000_000;

  it('a system clock keeps its offset', () => {
    const c = new SystemClock(0, wall);
    c.setTo(wall() + 86_400_000);
    const restored = restoreClock('system', saveClock(c), () => 2_000_000);
    expect(restored.nowMs()).toBe(2_000_000 + 86_400_000);
  });

  it('a manual clock resumes where it stood', () => {
    const c = new ManualClock(5_000);
    c.setTo(9_000);
    expect(restoreClock('manual', saveClock(c), wall).nowMs()).toBe(9_000);
  });

  it('switching modes never moves time back', () => {
    const manualAhead = new ManualClock(wall() + 3_600_000);
    expect(restoreClock('system', saveClock(manualAhead), wall).nowMs()).toBe(wall() + 3_600_000);
    const manualBehind = new ManualClock(wall() - 3_600_000);
    expect(restoreClock('system', saveClock(manualBehind), wall).nowMs()).toBe(wall());
    const system = new SystemClock(60_000, wall);
    expect(restoreClock('manual', saveClock(system), () => 2_000_000).nowMs()).toBe(2_060_000);
  });

  it('a first start uses wall time', () => {
    expect(restoreClock('system', undefined, wall).nowMs()).toBe(wall());
    expect(restoreClock('manual', undefined, wall).nowMs()).toBe(wall());
  });
});
