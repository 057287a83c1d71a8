// Phone-number facts as plain values (no zod): shared by the schemas, the simulated carrier and the
// CLI's flag choices. spec: Numbers; contract §5.
export const NUMBER_TYPES = ['local', 'tollfree'] as const;
export const NUMBER_STATUSES = ['live', 'idle', 'pending', 'released'] as const;
export const CAPABILITY_NAMES = ['sms', 'mms', 'voice'] as const;
/** contract §5: toll-free prefixes (the area-code digits after +1). */
export const TOLL_FREE_PREFIXES: readonly string[] = ['800', '833', '844', '855', '866', '877', '888'];
