/** better-sqlite3's code for a UNIQUE (or partial unique index) violation: the engine's own term, translated here. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
