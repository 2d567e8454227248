#!/usr/bin/env node
import 'reflect-metadata';
import { forwardToRunningServer } from './cli/admin-channel-client';
import { type AppConfig, ConfigError, loadConfig } from './config/app-config';

// Entry point of `npx glossa` (package.json "bin") and `npm run cli -- <command>`. When a server already has the
// embedded database open, the command runs inside that server (src/cli/admin-channel.ts); the rest of the CLI,
// which loads the whole application, is imported only when the command runs here.
const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };

async function main(argv: string[]): Promise<number> {
  let config: AppConfig | undefined;
  try {
    config = loadConfig();
  } catch (error) {
    // Reported by the command that needs the configuration (exit code 2); `--help` works without one.
    if (!(error instanceof ConfigError)) throw error;
  }
  if (config) {
    const forwarded = await forwardToRunningServer(config, argv, io);
    if (forwarded !== undefined) return forwarded;
  }
  const { runCli } = await import('./cli/run-cli.js');
  return runCli(argv, () => config ?? loadConfig(), io);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    io.err(String(error instanceof Error ? (error.stack ?? error.message) : error));
    process.exit(1);
  },
);
