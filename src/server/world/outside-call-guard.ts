
/**
 * Nothing outside the process is called while a transaction is open (a payment, DNS, the
 * carrier, the mail server, a webhook): a slow or failing outside world must never hold the
 * database, and a transaction that rolls back must not have charged a card. `impl`'s methods ask the
 * store first; with `guardOutsideCalls` (tests) a call from inside a transaction throws, naming it.
 */
export function outsideWorld<T extends object>(impl: T, name: string, store: { assertNoTransaction(what: string): void }): T {
  const guarded = Object.create(impl) as T;
  let proto: object | null = Object.getPrototypeOf(impl);
  const names = new Set<string>(Object.keys(impl));
  while (proto && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) names.add(key);
    proto = Object.getPrototypeOf(proto);
  }
  for (const key of names) {
    const value = (impl as Record<string, unknown>)[key];
    if (key === 'constructor' || typeof value !== 'function') continue;
    (guarded as Record<string, unknown>)[key] = (...args: unknown[]) => {
      store.assertNoTransaction(`${name}.${key}`);
      return (value as (...a: unknown[]) => unknown).apply(impl, args);
    };
  }
  return guarded;
}
