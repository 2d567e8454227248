import { CommanderError } from 'commander';
import { ConfigError, type AppConfig } from '../config/app-config';
import { EmbeddedDatabaseInUseError } from '../database/embedded-lock';
import { buildProgram, type CliBackend, type CliOutput } from './program';
import { CliError } from './users';

/**
 * Runs one command line (`argv` without node and the script) and answers its exit code: 0, commander's code
 * for usage errors and `--help`, 2 for a bad configuration, 1 for a failed command. Shared by `npx glossa`
 * and the admin channel of a running server, so both print the same messages.
 */
export async function runCli(argv: readonly string[], config: () => AppConfig, io: CliOutput, backend?: CliBackend): Promise<number> {
  try {
    await buildProgram(config, io, backend).parseAsync(['node', 'glossa', ...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    // Refusals meant for the operator print their message; anything else is a bug and keeps its stack.
    const forOperator = error instanceof CliError || error instanceof EmbeddedDatabaseInUseError;
    io.err(forOperator ? `error: ${error.message}` : String(error instanceof Error ? (error.stack ?? error.message) : error));
    return 1;
  }
}
