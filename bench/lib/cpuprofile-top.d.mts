// Types for cpuprofile-top.mjs (a plain-JS bench helper), for the test that pins it.
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface TopFrame {
  fn: string;
  where: string;
  us: number;
  percent: number;
}
export interface Top {
  frames: TopFrame[];
  totalUs: number;
  samples: number;
  allSamples: number;
}
export function topSelfFrames(profile: CpuProfile, options?: { limit?: number; fromUs?: number; toUs?: number }): Top;
export function formatTop(top: Top, title?: string): string;
