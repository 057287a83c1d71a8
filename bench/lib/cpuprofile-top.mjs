// The top self-time frames of a V8 .cpuprofile (what `node --cpu-prof` writes), as text: each
// frame's function, file:line and share of the sampled time. A sample's time is the gap to the next
// sample (the way DevTools weighs them), so an uneven sampling rate does not skew the shares. A
// window [fromUs, toUs] (the profile's clock is the monotonic one of process.hrtime, in µs) keeps
// only the samples taken inside it: a phase of load without the process's startup and setup.
// Frames of one function reached by different call paths are summed into one line.
//
//   node bench/lib/cpuprofile-top.mjs FILE.cpuprofile [N=15]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where a frame's code is, shortened: `dist/server/x.js:12`, `fastify/lib/route.js:3`, `node:internal/…`. */
const location = ({ url, lineNumber }) => {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  const shortened = path.includes('/node_modules/') ? path.slice(path.lastIndexOf('/node_modules/') + '/node_modules/'.length) : path.replace(/^.*?\/(dist|bench|src)\//, '$1/');
  return lineNumber >= 0 ? `${shortened}:${lineNumber + 1}` : shortened;
};

/**
 * The part of the program a frame belongs to, for `by: 'area'`: a package (`fastify`, `zod`), a
 * folder of ours (`dist/server/storage`), Node's own code (`node`), or V8's pseudo-frames
 * (`(garbage collector)`, `(idle)`, `(program)`). A native call (a SQLite statement) counts in the
 * area of the JavaScript that made it.
 */
const area = (frame, where) => {
  if (!where) return frame.functionName || '(native)';
  if (where.startsWith('node:')) return 'node';
  const pkg = where.match(/^((?:@[^/]+\/)?[^/]+)\//);
  if (!where.startsWith('dist/') && !where.startsWith('src/') && !where.startsWith('bench/') && pkg) return pkg[1];
  const ours = where.match(/^((?:dist|src)\/[^/]+(?:\/[^/.]+)?)\//);
  return ours ? ours[1] : where.replace(/:\d+$/, '');
};

/**
 * The `limit` frames with the most self time in `profile` (its nodes, samples and timeDeltas),
 * optionally only between `fromUs` and `toUs`. Returns the frames (function, where, µs, percent of
 * the kept time) and the totals they are shares of.
 */
export function topSelfFrames(profile, { limit = 15, fromUs = -Infinity, toUs = Infinity, by = 'frame' } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const { samples, timeDeltas } = profile;
  const byFrame = new Map();
  let totalUs = 0;
  let kept = 0;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i];
    // The sample lasts until the next one; the last one until the profile's end.
    const next = i + 1 < samples.length ? at + timeDeltas[i + 1] : profile.endTime;
    if (at < fromUs || at > toUs) continue;
    const us = Math.max(0, next - at);
    const frame = nodes.get(samples[i]);
    const where = location(frame);
    const group = by === 'area' ? area(frame, where) : undefined;
    const key = group ?? `${frame.functionName}\u0000${where}`;
    const entry = byFrame.get(key) ?? { fn: group ?? (frame.functionName || '(anonymous)'), where: group ? '' : where, us: 0 };
    entry.us += us;
    byFrame.set(key, entry);
    totalUs += us;
    kept++;
  }
  const frames = [...byFrame.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, limit)
    .map((f) => ({ ...f, percent: totalUs ? (100 * f.us) / totalUs : 0 }));
  return { frames, totalUs, samples: kept, allSamples: samples.length };
}

/** The frames as a table, one per line, after a line saying what they are shares of. */
export function formatTop({ frames, totalUs, samples, allSamples }, title = 'top self time') {
  const width = Math.max(8, ...frames.map((f) => f.fn.length));
  return [
    `${title}: ${samples} samples (${allSamples} in the profile), ${(totalUs / 1e6).toFixed(2)} s sampled`,
    ...frames.map((f) => `  ${f.percent.toFixed(1).padStart(5)}%  ${f.fn.padEnd(width)}  ${f.where}`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, n = '15'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/lib/cpuprofile-top.mjs FILE.cpuprofile [N]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  console.log(formatTop(topSelfFrames(profile, { limit: Number(n) }), file));
  console.log(formatTop(topSelfFrames(profile, { limit: Number(n), by: 'area' }), 'by area'));
}
