// commander, loaded with require(): it is CommonJS, and importing it as ESM runs Node's export scan
// of its CJS files (cjs-module-lexer), a measurable part of start-up (bench/startup). Every runtime
// use of commander in the CLI imports it from here; types may still come from 'commander'.
import { createRequire } from 'node:module';

const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Argument, Command, CommanderError, Option } = commander;
export type { Command as CommandType, Option as OptionType } from 'commander';
