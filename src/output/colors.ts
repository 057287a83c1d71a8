// Named colour roles so commands say what a string means, not which colour it is.
// A private Chalk instance with an explicit level: chalk's own detection would colour based on its
// reading of the environment, but the spec says NO_COLOR/--no-color are honoured by OUR code.
// chalk costs ~15 ms to import, so load this module with loadColors() (load-colors.ts) on hot paths.
import { Chalk } from 'chalk';

export interface Colors {
  readonly enabled: boolean;
  success(text: string): string;
  error(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  id(text: string): string;
  /** Green for good end states, red for bad ones, yellow for in-flight ones; anything else as is. */
  status(value: string): string;
}

// A call `completed` is its good end; `bounced`, `missed`, `blocked` and `complained` its family's bad ones.
const GOOD_STATUSES = new Set(['delivered', 'active', 'succeeded', 'verified', 'approved', 'completed']);
const BAD_STATUSES = new Set(['failed', 'undelivered', 'abandoned', 'rejected', 'suspended', 'bounced', 'missed', 'blocked', 'complained', 'degraded', 'past_due']);
const PENDING_STATUSES = new Set(['queued', 'pending', 'sending', 'submitted']);

export function createColors(enabled: boolean): Colors {
  // Level 1 (16 colours) is enough for these roles and works on every colour terminal.
  const chalk = new Chalk({ level: enabled ? 1 : 0 });
  return {
    enabled,
    success: (text) => chalk.green(text),
    error: (text) => chalk.red(text),
    warn: (text) => chalk.yellow(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
    id: (text) => chalk.cyan(text),
    status: (value) => {
      const key = value.toLowerCase();
      if (GOOD_STATUSES.has(key)) return chalk.green(value);
      if (BAD_STATUSES.has(key)) return chalk.red(value);
      if (PENDING_STATUSES.has(key)) return chalk.yellow(value);
      return value;
    },
  };
}
