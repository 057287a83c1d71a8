import type { Db } from './database.js';
import type { Repositories } from '../store.js';
import { sqliteDialect } from './dialect.js';
import { sqlRepositories } from '../shared/repositories.js';

/** The SQLite engine's repositories, over its one connection (prepared statements are built once): all written once. */
export const sqliteRepositories = (db: Db): Repositories => sqlRepositories(db, sqliteDialect);
