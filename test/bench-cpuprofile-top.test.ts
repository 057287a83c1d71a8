// bench/lib/cpuprofile-top.mjs reads the profile bench/messages takes under --cpu-prof:
// self time is each sample's gap to the next, one function reached by two paths is one line, and a
// window keeps only the samples of the measured phase.
import { describe, expect, it } from 'vitest';
import { type CpuProfile, formatTop, topSelfFrames } from '../bench/lib/cpuprofile-top.mjs';

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber, columnNumber: 0 });

// A tree: root → handler → insert (twice, by two paths: 3 and 5), and (idle). Samples at
// 1000 + Σ deltas: t=1010 handler, 1020 insert(3), 1050 insert(5), 1060 idle, 1100 handler; end 1120.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '', -1) },
    { id: 2, callFrame: frame('handler', 'file:///x/checkout/dist/server/http/send.js', 9) },
    { id: 3, callFrame: frame('insert', 'file:///x/checkout/dist/server/storage/messages-repo.js', 69) },
    { id: 4, callFrame: frame('(idle)', '', -1) },
    { id: 5, callFrame: frame('insert', 'file:///x/checkout/dist/server/storage/messages-repo.js', 69) },
  ],
  startTime: 1000,
  endTime: 1120,
  samples: [2, 3, 5, 4, 2],
  timeDeltas: [10, 10, 30, 10, 40],
};

describe('cpuprofile-top', () => {
  it('weighs each sample by the gap to the next and sums a function over its call paths', () => {
    const top = topSelfFrames(profile);
    // handler: 1010→1020 (10) + 1100→end 1120 (20); insert: 1020→1050 (30) + 1050→1060 (10); idle: 1060→1100 (40).
    expect(top.frames.map((f) => [f.fn, f.where, f.us])).toEqual([
      ['insert', 'dist/server/storage/messages-repo.js:70', 40],
      ['(idle)', '', 40],
      ['handler', 'dist/server/http/send.js:10', 30],
    ]);
    expect(top.totalUs).toBe(110);
    expect(top.frames[0].percent).toBeCloseTo((100 * 40) / 110);
    expect(top.samples).toBe(5);
  });

  it('keeps only the samples inside the window, and at most `limit` frames', () => {
    const top = topSelfFrames(profile, { fromUs: 1020, toUs: 1055, limit: 1 });
    expect(top.samples).toBe(2);
    expect(top.allSamples).toBe(5);
    expect(top.totalUs).toBe(40);
    expect(top.frames).toEqual([{ fn: 'insert', where: 'dist/server/storage/messages-repo.js:70', us: 40, percent: 100 }]);
  });

  it('shortens a dependency to its path under node_modules and prints one line per frame', () => {
    const lib: CpuProfile = {
      nodes: [{ id: 1, callFrame: frame('sqliteTransaction', 'file:///x/node_modules/better-sqlite3/lib/methods/transaction.js', 51) }],
      startTime: 0,
      endTime: 2,
      samples: [1],
      timeDeltas: [1],
    };
    expect(formatTop(topSelfFrames(lib), 'top')).toBe(
      'top: 1 samples (1 in the profile), 0.00 s sampled\n  100.0%  sqliteTransaction  better-sqlite3/lib/methods/transaction.js:52',
    );
  });
});
