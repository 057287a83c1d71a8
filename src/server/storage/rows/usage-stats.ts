// The usage-stats family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.


/** Per-account counts for the agency summary (contract §3), over the numbers and messages tables (spend: the ledger). */
