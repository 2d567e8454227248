#!/usr/bin/env node
import 'reflect-metadata';
import { CommanderError } from 'commander';
import { buildProgram } from './cli/program';
import { CliError } from './cli/users';
import { ConfigError, loadConfig } from './config/app-config';

// Entry point of `npx glossa` (package.json "bin") and `npm run cli -- <command>`.
const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };

buildProgram(() => loadConfig(), io)
  .exitOverride()
  .parseAsync(process.argv)
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof ConfigError) {
      io.err(error.message);
      process.exit(2);
    }
    io.err(error instanceof CliError ? `error: ${error.message}` : String(error instanceof Error ? (error.stack ?? error.message) : error));
    process.exit(1);
  });
