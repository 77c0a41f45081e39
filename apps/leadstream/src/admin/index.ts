import type { Command } from 'commander';
import { dlqCommand } from './dlq.command';
import { keyCommand } from './key.command';
import { orgCommand } from './org.command';
import { userCommand } from './user.command';
import { vendorCommand } from './vendor.command';

/** Adds `org`, `user`, `vendor`, `key` and `dlq` to the leadstream command. */
export function registerAdminCommands(program: Command): void {
  program.addCommand(orgCommand());
  program.addCommand(userCommand());
  program.addCommand(vendorCommand());
  program.addCommand(keyCommand());
  program.addCommand(dlqCommand());
}
