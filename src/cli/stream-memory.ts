// Streaming lists: peak memory flat (within 1.2x) from 10k to 1M rows. Nothing is kept
// (pages are written and dropped), yet a long stream allocates fast, and V8 widens the young
// generation each time enough has survived scavenges since it last grew (objects merely in flight
// count), step by step up to 16 MB a half: `messages list --all` grew from 56.9 to 75.9 MiB between
// 10k and 300k rows. The growth factor is read at each widening, so setting it to 1 once a stream
// starts keeps the young generation at the size it has; `--max-semi-space-size` would do the same
// but only as a node flag, and any V8 flag on the command line costs every command ~15 ms of start-up
// (node's built-in code cache is refused when the flags differ: svc --version 1.11x → 1.25x of bare
// node). Called only by commands that stream without end (`--all`, `--paginate`, `follow`), after
// their modules are loaded, so no other command is touched. Measured in bench:messages (list half).
import { setFlagsFromString } from 'node:v8';

let held = false;

/** From now on, V8 keeps the young generation at its present size. Idempotent. */
export function holdYoungGeneration(): void {
  if (held) return;
  held = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}
