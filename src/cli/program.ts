import { Command, Option } from 'commander';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { syncLanguageCatalog } from '../modules/languages/language-catalog';
import { withDataSource } from './database';
import { importComponent, type ImportOptions } from './import-component';
import { createAdmin, createToken } from './users';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
  /** Import progress (0-100); without it `import` draws its own progress bar on stderr. */
  progress?(percent: number): void;
}

/**
 * Where the commands run. Standalone, each command opens the database itself; inside a running server (the
 * admin channel, src/cli/admin-channel.ts) they use the server's own connection and application, because the
 * embedded database has one session and one owner (stack-evaluation.md §5).
 */
export interface CliBackend {
  withDataSource<T>(work: (dataSource: DataSource) => Promise<T>, options?: { migrate?: boolean }): Promise<T>;
  importComponent(options: ImportOptions): Promise<{ translations: number; units: number }>;
}

/** Commands run in this process: a database connection (or the embedded database) of their own. */
export function standaloneBackend(config: () => AppConfig): CliBackend {
  return {
    withDataSource: (work, options) => withDataSource(config(), work, options),
    importComponent: (options) => importComponent(config(), options),
  };
}

/**
 * The admin CLI (`npx glossa <command>`, `npm run cli -- <command>`). The configuration comes from the same
 * environment variables as the server (README "Configuration"), so it acts on the server's database.
 */
export function buildProgram(config: () => AppConfig, io: CliOutput, backend: CliBackend = standaloneBackend(config)): Command {
  const program = new Command('glossa')
    .description('Glossa administration: users and tokens, component import, migrations, language table')
    .showHelpAfterError()
    // Errors become exceptions (CommanderError) instead of process.exit; src/cli.ts picks the exit code.
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  program
    .command('migrate')
    .description('apply pending database migrations (the server also applies them when it starts)')
    .action(async () => {
      const applied = await backend.withDataSource((dataSource) => dataSource.runMigrations({ transaction: 'each' }), { migrate: false });
      io.out(applied.length === 0 ? 'No pending migrations.' : applied.map((m) => `Applied ${m.name}`).join('\n'));
    });

  program
    .command('createadmin')
    .description('create a superuser (or promote an existing user) and print a new API token for it')
    .requiredOption('--username <name>', 'user name')
    .option('--email <address>', 'e-mail address of a new user', 'admin@localhost')
    .action(async (options: { username: string; email: string }) => {
      const { created, token } = await backend.withDataSource((dataSource) => createAdmin(dataSource, options.username, options.email));
      io.err(created ? `Created superuser "${options.username}".` : `User "${options.username}" is now an active superuser.`);
      io.out(token);
    });

  program
    .command('createtoken')
    .description('print a new API token for an existing user')
    .argument('<username>', 'user name')
    .action(async (username: string) => {
      io.out(await backend.withDataSource((dataSource) => createToken(dataSource, username)));
    });

  program
    .command('import')
    .description('create a component from a git repository in an existing project and import it, with progress')
    .argument('<project>', 'project slug')
    .argument('<component>', 'component slug')
    .requiredOption('--repo <url>', 'git repository URL')
    .requiredOption('--filemask <mask>', 'translation files, e.g. "locales/*.json"')
    .addOption(new Option('--file-format <format>', 'file format (weblate-api.md §8.9)').default('json'))
    .option('--name <name>', 'component name (default: the slug)')
    .option('--branch <branch>', 'repository branch')
    .option('--template <file>', 'monolingual base file')
    .option('--source-language <code>', 'source language code (default en)')
    .action(
      async (
        project: string,
        slug: string,
        options: { repo: string; filemask: string; fileFormat: string; name?: string; branch?: string; template?: string; sourceLanguage?: string },
      ) => {
        const result = await backend.importComponent({ project, slug, ...options, onProgress: io.progress?.bind(io) });
        io.out(`Imported ${project}/${slug}: ${result.translations} translations, ${result.units} strings.`);
      },
    );

  const languages = program.command('languages').description('the language table');
  languages
    .command('sync')
    .description('add or update languages from the built-in catalog (also done at every server start)')
    .action(async () => {
      const changed = await backend.withDataSource((dataSource) => syncLanguageCatalog(dataSource));
      io.out(`Language table: ${changed} languages added or updated.`);
    });

  return program;
}
