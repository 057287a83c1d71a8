// `--to a@x.com,b@y.com` as well as `--to a@x.com --to b@y.com` (decision: cli.md shows `--to ADDR…`;
// a comma list is what people paste from a mail client). Commas inside a quoted display name or
// inside <…> do not split: `"Doe, Jane" <jane@x.com>` is one address. Pure; loaded at start-up by
// send.ts, so no imports.

/** Splits one flag value at commas outside quotes and angle brackets; empty parts are dropped. */
export function splitAddresses(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (quoted && ch === '\\' && i + 1 < value.length) {
      current += ch + value[++i];
      continue;
    }
    if (ch === '"' && !angle) quoted = !quoted;
    else if (ch === '<' && !quoted) angle = true;
    else if (ch === '>' && !quoted) angle = false;
    if (ch === ',' && !quoted && !angle) {
      out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((a) => a.trim()).filter((a) => a !== '');
}

/** commander's collector for a repeatable address flag that also takes comma lists. */
export const collectAddresses = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), ...splitAddresses(value)];
