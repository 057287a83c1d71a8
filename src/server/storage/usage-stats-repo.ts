
/** Per-account counts for the agency summary (contract §3), over the numbers and messages tables (spend: the ledger). */
export interface UsageStatsRepo {
  ownedNumbers(accountId: string): Promise<number>;
  messagesSince(accountId: string, since: number): Promise<number>;
}

