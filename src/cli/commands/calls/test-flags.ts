// `svc calls test`'s reporters (cli.md "Calls as tests"): the verb's definition offers them, its run
// module prints them.
export const REPORTERS = ['pretty', 'json', 'junit'] as const;
export type Reporter = (typeof REPORTERS)[number];
