import { UsageError } from '../../errors.js';
import { durationFlag } from '../../duration.js';
import { splitAddresses } from './recipients.js';

// `svc emails send`: the flags as commander gives them, and the options its run function works with.
// The one conversion, imported by the run module (and the flag tests).

export const DEFAULT_SEND_EMAIL_TIMEOUT = '60s';

export interface SendEmailFlags {
  from: string;
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text?: string;
  textFile?: string;
  htmlFile?: string;
  tag?: string[];
  metadata?: string[];
  externalRef?: string;
  idempotencyKey?: string;
  wait?: boolean;
  /** `--timeout` (`--wait-timeout`, its old name, fills it too). */
  timeout?: string;
}

export interface SendEmailOptions {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text?: string;
  /** `--text-file FILE`, `-` for stdin. */
  textFile?: string;
  /** `--html-file FILE`, `-` for stdin. */
  htmlFile?: string;
  tags: string[];
  /** `--metadata K=V`, in the order given. */
  metadata: Array<[string, string]>;
  externalRef?: string;
  idempotencyKey?: string;
  wait: boolean;
  /** `--timeout`, in seconds. */
  waitTimeoutSecs: number;
}

/** A repeatable address flag that also takes comma lists (recipients.ts). */
const addresses = (values: string[] | undefined): string[] => (values ?? []).flatMap(splitAddresses);

function pair(value: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq < 1) throw new UsageError(`--metadata: "${value}" is not KEY=VALUE`, '--metadata');
  return [value.slice(0, eq), value.slice(eq + 1)];
}

export const sendEmailOptionsOf = (o: SendEmailFlags): SendEmailOptions => ({
  from: o.from,
  to: addresses(o.to),
  cc: addresses(o.cc),
  bcc: addresses(o.bcc),
  subject: o.subject,
  text: o.text,
  textFile: o.textFile,
  htmlFile: o.htmlFile,
  tags: o.tag ?? [],
  metadata: (o.metadata ?? []).map(pair),
  externalRef: o.externalRef,
  idempotencyKey: o.idempotencyKey,
  wait: Boolean(o.wait),
  waitTimeoutSecs: durationFlag(o.timeout ?? DEFAULT_SEND_EMAIL_TIMEOUT, '--timeout'),
});
