import { afterAll } from 'vitest';
import { describeStorageContract } from './contract.js';
import { postgresEngine, stopPostgresEngine } from './engine.js';

// Issue 26: the storage contract on the PostgreSQL engine, against a throwaway server
// (test/helpers/postgres.ts) that this file starts on first use and stops at its end.
describeStorageContract(postgresEngine);

afterAll(stopPostgresEngine);
