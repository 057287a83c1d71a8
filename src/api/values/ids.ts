// What an id looks like (contract §2), read by the service that makes them and by the checks on
// the ids the CLI's help shows.

// contract §2: a type prefix and a random part; where the spec says uuid, a UUID.
export const ID_PREFIXES = [
  'msg', 'num', 'dst', 'rte', 'call', 'rec', 'vm', 'port', 'dev', 'dom', 'eml', 'we',
  'whd', 'evt', 'key', 'job', 'chg', 'lead',
  // Decision (contract §2 lists no prefix for it): a port's document (loa, bill).
  'pdoc',
  // Decision (contract §8 lists no prefix for it): a message in the mail sandbox.
  'mbx',
  // Decision (contract §11 lists no prefix for them): a ledger row and a hold on a wallet.
  'led', 'hold',
  // Decision (contract §4 lists no prefix for it): a consumer's opt-out of a number.
  'opt',
  // Decision (contract §10 lists no prefix for them): a sink and a request it kept.
  'snk', 'sreq',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** The random part's length: what a real id looks like, and what help examples must look like. */
export const ID_RANDOM_LENGTH = 20;
