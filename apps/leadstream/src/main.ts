#!/usr/bin/env node
/** The leadstream command. Run `leadstream --help`. */
import { Command } from 'commander';
import { registerAdminCommands } from './admin';
import { ConfigError } from './config';
import { DemoRefusedError, runDemo, type DemoOptions } from './demo/demo';
import { STAGES, UnknownStageError } from '@leadstream/worker';
import { runRole, type Role, type RoleOptions } from './roles';

const program = new Command()
  .name('leadstream')
  .description('Lead management service for higher education. Configuration comes from environment variables (see README).');

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
      process.stderr.write(`leadstream ${role}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    }
  };
}

program.command('start').description('run the API, every pipeline stage and the projector in one process').action(action('start'));
program.command('api').description('run the HTTP API only').action(action('api'));
program
  .command('worker')
  .description('run pipeline stages as consumer-group members')
  .requiredOption('--stages <names>', `comma-separated stage names: ${[...STAGES.keys()].join(', ')}`, (value: string) => value.split(',').map((name) => name.trim()).filter(Boolean))
  .addHelpText('after', '\nEach stage is a consumer group; run as many workers of a stage as its topics have partitions.\nvalidate, dedup, enrich and route run as one chain (one group, one write per lead) unless PIPELINE_SPLIT\nnames where it breaks: naming any of them runs its whole chain.\nExample: leadstream worker --stages validate')
  .action(action('worker'));
program
  .command('projector')
  .description('project leads.events into the analytics engine')
  .option('--drain', 'exit once every partition has been consumed to its end')
  .option('--rebuild', 'replay leads.events from the beginning into a fresh table, swap it in for lead_events, and exit (stop the running projectors first)')
  .action(action('projector'));
program.command('migrate').description('apply analytics migrations and exit').action(action('migrate'));
registerAdminCommands(program);
program
  .command('demo')
  .description('seed an organization, vendors and keys, start the service and stream synthetic leads to it')
  .option('--leads <n>', 'how many leads to send (12-1000)', '60')
  .option('--keep-running', 'leave the service running after the demo')
  .action(async (options: DemoOptions) => {
    try {
      await runDemo(options, process.env);
    } catch (error) {
      const text = error instanceof DemoRefusedError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`leadstream demo: ${text}\n`);
      process.exit(error instanceof ConfigError ? 2 : 1);
    }
  });

await program.parseAsync(process.argv);
