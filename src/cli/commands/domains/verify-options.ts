import { durationFlag } from '../../duration.js';

// `svc domains verify`: the flags as given, and the options its run function works with.

export const DEFAULT_VERIFY_TIMEOUT = '5m';

export interface VerifyDomainFlags {
  domain: string;
  wait?: boolean;
  timeout?: string;
}

export interface VerifyDomainOptions {
  domain: string;
  wait: boolean;
  /** `--timeout`, in seconds. */
  timeoutSecs: number;
}

export const verifyDomainOptionsOf = (f: VerifyDomainFlags): VerifyDomainOptions => ({
  domain: f.domain,
  wait: Boolean(f.wait),
  timeoutSecs: durationFlag(f.timeout ?? DEFAULT_VERIFY_TIMEOUT, '--timeout'),
});
