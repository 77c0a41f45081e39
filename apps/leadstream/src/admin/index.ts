import type { Command } from 'commander';
import { keyCommand } from './key.command';
import { orgCommand } from './org.command';
import { vendorCommand } from './vendor.command';

/** Adds `org`, `vendor` and `key` to the leadstream command. */
export function registerAdminCommands(program: Command): void {
  program.addCommand(orgCommand());
  program.addCommand(vendorCommand());
  program.addCommand(keyCommand());
}
