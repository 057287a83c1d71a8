import { iso, type Clock } from '../clock.js';
import type { ClockState } from '../../api/schemas/sandbox.js';

// The service clock as the API shows it (contract §1). Rules for reads: views/README.md.

export const clockView = (clock: Clock): ClockState => ({ now: iso(clock.nowMs()), mode: clock.mode });
