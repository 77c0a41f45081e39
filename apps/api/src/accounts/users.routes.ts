/**
 * Users of the organization (operations tagged Users; payloads are ours, docs/decisions.md):
 *   GET    /api/users          200 {data:[user]}
 *   POST   /api/users          201 user; body {email, password, first_name, last_name, role}
 *   POST   /api/users/invite   201 user (status invited) + invitation_expires_at; mails
 *                              `${APP_URL}/accept-invite?token=…` (accepted at POST /api/auth/accept-invite)
 *   GET    /api/users/:id      200 user
 *   PATCH  /api/users/:id      200 user; body {first_name?, last_name?, role?}
 *   DELETE /api/users/:id      204
 *
 * Role rules: nobody grants a role above their own; only owners make, change or delete owners;
 * nobody changes their own role or deletes themselves (so an organization always keeps an owner).
 */
import { DuplicateKeyError } from '@leadstream/ports';
import {
  canAssignRole,
  canManageUser,
  DomainError,
  hashPassword,
  readInvitation,
  readNewUser,
  readUserPatch,
  toUserResource,
  type Role,
  type User,
} from '@leadstream/domain';
import { defineRoute, UserRouter } from '../auth/route-definition';
import { accountLink, type AccountsContext } from './accounts.context';

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'User not found');
const emailTaken = (): DomainError => new DomainError('EMAIL_ALREADY_REGISTERED', 'An account with this email already exists');

function assertCanAssign(actor: User, role: Role, currentRole?: Role): void {
  if (!canAssignRole(actor.role, role, currentRole)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `Your role (${actor.role}) cannot grant the role '${role}'`);
  }
}

function assertCanManage(actor: User, target: User): void {
  if (!canManageUser(actor.role, target.role)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `Your role (${actor.role}) cannot manage a user with the role '${target.role}'`);
  }
}

export function usersRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { users, clock } = context;

  const create = async (...args: Parameters<typeof users.create>): Promise<User> => {
    try {
      return await users.create(...args);
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw emailTaken();
      throw error;
    }
  };

  defineRoute(router, { method: 'GET', path: '/api/users', permission: 'users:read' }, async (ctx) => {
    ctx.body = { data: (await users.list(ctx.state.tenant)).map(toUserResource) };
  });

  defineRoute(router, { method: 'POST', path: '/api/users', permission: 'users:write' }, async (ctx) => {
    const input = readNewUser(ctx.request.body);
    assertCanAssign(ctx.state.user, input.role);
    if (await users.findByEmail(input.email)) throw emailTaken();
    const user = await create(
      ctx.state.tenant,
      { email: input.email, first_name: input.first_name, last_name: input.last_name, role: input.role, status: 'active', password_hash: await hashPassword(input.password) },
      clock(),
    );
    ctx.status = 201;
    ctx.body = { data: toUserResource(user) };
  });

  defineRoute(router, { method: 'POST', path: '/api/users/invite', permission: 'users:write' }, async (ctx) => {
    const input = readInvitation(ctx.request.body);
    const actor = ctx.state.user;
    assertCanAssign(actor, input.role);
    if (await users.findByEmail(input.email)) throw emailTaken();
    const now = clock();
    const user = await create(ctx.state.tenant, { email: input.email, first_name: input.first_name ?? '', last_name: input.last_name ?? '', role: input.role, status: 'invited', password_hash: null }, now);
    const { token, expiresAt } = await context.accountTokens.issue('invitation', user, now);
    const organization = await context.dal.organizations.get(ctx.state.tenant);
    try {
      await context.mailer.send({
        to: user.email,
        subject: `You are invited to ${organization?.name ?? 'an organization'} on LeadStream`,
        text: [
          `${actor.first_name} ${actor.last_name} invited you to join ${organization?.name ?? 'their organization'} on LeadStream as ${input.role}.`,
          '',
          'Open this link to choose your password and sign in:',
          '',
          accountLink(context, 'accept-invite', token),
          '',
          `The link works once and expires at ${expiresAt.toISOString()}.`,
        ].join('\n'),
      });
    } catch (error) {
      // Without the mail the invitation is unusable; undo it so it can be sent again.
      await users.delete(ctx.state.tenant, user.id);
      context.logger.error({ err: error }, 'could not send an invitation mail');
      throw new DomainError('SERVICE_UNAVAILABLE', 'The invitation mail could not be sent; try again later');
    }
    ctx.status = 201;
    ctx.body = { data: { ...toUserResource(user), invitation_expires_at: expiresAt.toISOString() } };
  });

  defineRoute(router, { method: 'GET', path: '/api/users/:id', permission: 'users:read' }, async (ctx) => {
    const user = await users.findById(ctx.state.tenant, ctx.params['id'] ?? '');
    if (!user) throw notFound();
    ctx.body = { data: toUserResource(user) };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/users/:id', permission: 'users:write' }, async (ctx) => {
    const actor = ctx.state.user;
    const target = await users.findById(ctx.state.tenant, ctx.params['id'] ?? '');
    if (!target) throw notFound();
    const patch = readUserPatch(ctx.request.body);
    assertCanManage(actor, target);
    if (patch.role !== undefined && patch.role !== target.role) {
      if (target.id === actor.id) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'You cannot change your own role');
      assertCanAssign(actor, patch.role, target.role);
    }
    const updated = await users.update(ctx.state.tenant, target.id, patch, clock());
    if (!updated) throw notFound();
    ctx.body = { data: toUserResource(updated) };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/users/:id', permission: 'users:write' }, async (ctx) => {
    const actor = ctx.state.user;
    const target = await users.findById(ctx.state.tenant, ctx.params['id'] ?? '');
    if (!target) throw notFound();
    if (target.id === actor.id) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'You cannot delete yourself');
    assertCanManage(actor, target);
    await users.delete(ctx.state.tenant, target.id);
    ctx.status = 204;
  });

  return router;
}
