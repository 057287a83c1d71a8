import { describeStorageContract } from './contract.js';
import { sqliteEngine } from './engine.js';

describeStorageContract(sqliteEngine);
