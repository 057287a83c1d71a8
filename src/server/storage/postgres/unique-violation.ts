/** PostgreSQL's SQLSTATE for a UNIQUE (or partial unique index) violation: the engine's own term, translated in sql.ts. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === '23505';
