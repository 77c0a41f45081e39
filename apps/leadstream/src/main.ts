#!/usr/bin/env node
/** The leadstream command. Run `leadstream --help`. */
import { Command } from 'commander';
import { registerAdminCommands } from './admin';
import { BackupError, backupDataDir, restoreDataDir } from './backup';
import { ConfigError, parseConfig } from './config';
import { DemoRefusedError, runDemo, type DemoOptions } from './demo/demo';
import { STAGES, UnknownStageError } from '@leadstream/worker';
import { runRole, type Role, type RoleOptions } from './roles';

const program = new Command()
  .name('leadstream')
  .description(
    'Lead management service for higher education. Configuration comes from environment variables (see README).',
  );

function action(role: Role) {
  return async (options: RoleOptions): Promise<void> => {
    try {
      await runRole(role, options, process.env);
    } catch (error) {
      if (error instanceof ConfigError) {
        process.stderr.write(`leadstream: configuration error: ${error.message}\n`);
        process.exit(2);
      }
      if (error instanceof UnknownStageError) {
        process.stderr.write(`leadstream ${role}: ${error.message}\n`);
        process.exit(2);
      }
      // An expected refusal gets one line, no stack trace (the pipeline thread reports it with its code).
      if ((error as { code?: unknown } | null)?.code === 'DATA_DIR_LOCKED') {
        process.stderr.write(`leadstream ${role}: DATA_DIR is locked: ${(error as Error).message}\n`);
        process.exit(1);
      }
      process.stderr.write(
        `leadstream ${role}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    }
  };
}

program
  .command('start')
  .description('run the API, every pipeline stage and the projector in one process')
  .action(action('start'));
program.command('api').description('run the HTTP API only').action(action('api'));
program
  .command('worker')
  .description('run pipeline stages as consumer-group members')
  .requiredOption(
    '--stages <names>',
    `comma-separated stage names: ${[...STAGES.keys()].join(', ')}`,
    (value: string) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
  )
  .addHelpText(
    'after',
    '\nEach stage is a consumer group; run as many workers of a stage as its topics have partitions.\nvalidate, dedup, enrich and route run as one chain (one group, one write per lead) unless PIPELINE_SPLIT\nnames where it breaks: naming any of them runs its whole chain.\nExample: leadstream worker --stages validate',
  )
  .action(action('worker'));
program
  .command('projector')
  .description('project leads.events into the analytics engine')
  .option('--drain', 'exit once every partition has been consumed to its end')
  .option(
    '--rebuild',
    'replay leads.events from the beginning into a fresh table, swap it in for lead_events, and exit (stop the running projectors first)',
  )
  .action(action('projector'));
program.command('migrate').description('apply analytics migrations and exit').action(action('migrate'));
registerAdminCommands(program);

/** Runs a backup or restore: one line for a refusal or a configuration error, the stack for anything else. */
function dataDirCommand<O>(name: string, run: (options: O, dataDir: string) => string) {
  return (options: O): void => {
    try {
      const config = parseConfig(process.env);
      if (config.mongodb)
        throw new BackupError(
          "MONGODB_URI is set: the documents are in MongoDB, not in DATA_DIR; back them up with MongoDB's tools (mongodump)",
        );
      process.stdout.write(`${run(options, config.dataDir)}\n`);
    } catch (error) {
      if (error instanceof ConfigError || error instanceof BackupError) {
        process.stderr.write(`leadstream ${name}: ${error.message}\n`);
        process.exit(error instanceof ConfigError ? 2 : 1);
      }
      process.stderr.write(
        `leadstream ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    }
  };
}

const COVERAGE_HELP = `
Covered: the embedded store (every document, and the embedded event log with the consumer groups'
offsets, which live in the same database), DATA_DIR/jwt-secret, DATA_DIR/crm-credentials-key and
the finished export files in DATA_DIR/exports.
Not covered: DATA_DIR/analytics (chDB: rebuild it after a restore with \`leadstream projector
--rebuild\`, service stopped, from the events the log still holds, LOG_RETENTION_HOURS),
DATA_DIR/outbox (mails written without SMTP_URL) and DATA_DIR/log (the lock).
With MONGODB_URI set the documents are in MongoDB: back them up with MongoDB's tools.`;

program
  .command('backup')
  .description('copy the embedded data in DATA_DIR into one file, consistently, while the service runs')
  .requiredOption('--to <file>', 'the backup file to write (must not exist)')
  .option('--json', 'print the summary as JSON')
  .addHelpText(
    'after',
    `\nThe copy is one snapshot taken on a read-only connection: the running service keeps its DATA_DIR lock and goes on writing.${COVERAGE_HELP}`,
  )
  .action(
    dataDirCommand<{ to: string; json?: boolean }>('backup', (options, dataDir) => {
      const summary = backupDataDir(dataDir, options.to);
      return options.json
        ? JSON.stringify(summary)
        : `backup of ${dataDir} written to ${summary.file} (${summary.bytes} bytes, ${summary.leads} leads, ${summary.logRecords} log records, ${summary.files.length} other files) in ${summary.ms} ms`;
    }),
  );
program
  .command('restore')
  .description('bring a backup made by `leadstream backup` back into an empty DATA_DIR')
  .requiredOption('--from <file>', 'the backup file to read')
  .option('--json', 'print the summary as JSON')
  .addHelpText(
    'after',
    `\nDATA_DIR must be empty or missing; a non-empty one is refused. Start the service on it afterwards.${COVERAGE_HELP}`,
  )
  .action(
    dataDirCommand<{ from: string; json?: boolean }>('restore', (options, dataDir) => {
      const summary = restoreDataDir(options.from, dataDir);
      return options.json
        ? JSON.stringify(summary)
        : `restored the backup of ${summary.createdAt} into ${summary.dataDir} (${summary.leads} leads, ${summary.logRecords} log records, ${summary.files.length} other files); the analytics projection is not in it: run \`leadstream projector --rebuild\` before starting to rebuild it from the log`;
    }),
  );
program
  .command('demo')
  .description('seed an organization, vendors and keys, start the service and stream synthetic leads to it')
  .option('--leads <n>', 'how many leads to send (12-1000)', '60')
  .option('--keep-running', 'leave the service running after the demo')
  .action(async (options: DemoOptions) => {
    try {
      await runDemo(options, process.env);
    } catch (error) {
      const text =
        error instanceof DemoRefusedError
          ? error.message
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
      process.stderr.write(`leadstream demo: ${text}\n`);
      process.exit(error instanceof ConfigError ? 2 : 1);
    }
  });

await program.parseAsync(process.argv);
