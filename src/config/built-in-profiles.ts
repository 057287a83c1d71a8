// The built-in profiles' names and the key each one uses, as plain values: the CLI's error report
// names them (main.ts, start-up path), so they live apart from the profile store.

/** The built-in profile: the local service, keyed from its bootstrap.json (contract §1). */
export const LOCAL_PROFILE = 'local';
/**
 * The local service with bootstrap.json's test key: a test key needs no 10DLC campaign to send and
 * moves no money (contract §2), so a new user can text from a number just bought.
 */
export const LOCAL_TEST_PROFILE = 'local-test';
export const BUILT_IN_PROFILES: readonly string[] = [LOCAL_PROFILE, LOCAL_TEST_PROFILE];
export const isBuiltInProfile = (name: string): boolean => BUILT_IN_PROFILES.includes(name);
/** The built-in profile whose key has this mode (bootstrap.json's live key or its test key). */
export const BUILT_IN_PROFILE_OF_MODE = { live: LOCAL_PROFILE, test: LOCAL_TEST_PROFILE } as const;
