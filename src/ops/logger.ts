import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { redactRepositoryUrlsInText } from '../vcs/repository-url-policy';

/** LOG_LEVEL (Nest's names) → pino's levels. */
const PINO_LEVELS: Record<AppConfig['logLevel'], pino.Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' };

/**
 * The process's structured logger: one JSON object per line on stdout (or `destination`), with pino's
 * standard fields (level, time, msg) so log shippers need no parsing rules. `silent` turns it off (tests).
 */
export function createRootLogger(config: AppConfig, options: { destination?: DestinationStream; silent?: boolean } = {}): Logger {
  const settings: pino.LoggerOptions = {
    level: options.silent ? 'silent' : PINO_LEVELS[config.logLevel],
    base: { service: 'glossa', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

// Log lines quote repository URLs and git's output; credentials in them (`https://user:token@`,
// `?private_token=`, `user:password@host:path`) never reach the log (issue 10 item 10).
function asText(message: unknown): string {
  const text = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
  return redactRepositoryUrlsInText(text ?? String(message));
}

/** Nest's LoggerService on top of pino, so framework and application messages are JSON lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, asText(message));
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest calls error(message, stack?, context?); an Error object carries its own stack.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = message instanceof Error ? message.stack : typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
    this.logger.error({ context, stack: stack === undefined ? undefined : redactRepositoryUrlsInText(stack) }, asText(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, asText(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, asText(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, asText(message));
  }

  fatal(message: unknown, context?: string): void {
    this.logger.fatal({ context }, asText(message));
  }
}
