// spec: Global conventions 3 — phone numbers are E.164. Zod-free, so the CLI checks a number flag
// without loading zod (bench/startup: zod's import is 140-370 ms on this machine, more than node).
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
