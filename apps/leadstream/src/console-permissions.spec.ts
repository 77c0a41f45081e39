/**
 * The console hides what a role may not do with its own copy of the permission matrix (it imports
 * only the API client, README.md "Layout"); this keeps that copy equal to the domain's table.
 */
import { PERMISSIONS, ROLE_PERMISSIONS, ROLES } from '@leadstream/domain';
import { describe, expect, it } from 'vitest';
// The console is not a library: its copy is read by path, for this comparison only.
// eslint-disable-next-line @nx/enforce-module-boundaries
import * as consoleMatrix from '../../console/src/api/permissions';

describe("the console's permission matrix", () => {
  it('is the domain matrix (libs/domain/src/accounts/permissions.ts)', () => {
    expect([...consoleMatrix.ROLES]).toEqual([...ROLES]);
    expect([...consoleMatrix.PERMISSIONS].sort()).toEqual([...PERMISSIONS].sort());
    for (const role of ROLES) expect([...consoleMatrix.ROLE_PERMISSIONS[role]].sort(), role).toEqual([...ROLE_PERMISSIONS[role]].sort());
  });
});
