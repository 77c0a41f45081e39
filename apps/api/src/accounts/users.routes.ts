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
import { readInvitation, readNewUser, toUserResource } from '@leadstream/domain';
import { defineRoute, UserRouter } from '../auth/route-definition';
import { accountLink, type AccountsContext } from './accounts.context';
import { createUser, deleteUser, getUser, inviteUser, listUsers, updateUser } from './use-cases';

export function usersRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const useCaseDeps = {
    users: context.users,
    accountTokens: context.accountTokens,
    organizations: context.dal.organizations,
    mailer: context.mailer,
    inviteLink: (token: string) => accountLink(context, 'accept-invite', token),
    logger: context.logger,
    clock: context.clock,
  };

  defineRoute(router, { method: 'GET', path: '/api/users', permission: 'users:read' }, async (ctx) => {
    ctx.body = { data: (await listUsers(useCaseDeps, { tenant: ctx.state.tenant })).map(toUserResource) };
  });

  defineRoute(router, { method: 'POST', path: '/api/users', permission: 'users:write' }, async (ctx) => {
    const user = await createUser(useCaseDeps, {
      tenant: ctx.state.tenant,
      actor: ctx.state.user,
      user: readNewUser(ctx.request.body),
    });
    ctx.status = 201;
    ctx.body = { data: toUserResource(user) };
  });

  defineRoute(router, { method: 'POST', path: '/api/users/invite', permission: 'users:write' }, async (ctx) => {
    const invitation = readInvitation(ctx.request.body);
    const { user, invitationExpiresAt } = await inviteUser(useCaseDeps, {
      tenant: ctx.state.tenant,
      actor: ctx.state.user,
      invitation,
    });
    ctx.status = 201;
    ctx.body = { data: { ...toUserResource(user), invitation_expires_at: invitationExpiresAt.toISOString() } };
  });

  defineRoute(router, { method: 'GET', path: '/api/users/:id', permission: 'users:read' }, async (ctx) => {
    ctx.body = {
      data: toUserResource(await getUser(useCaseDeps, { tenant: ctx.state.tenant, userId: ctx.params['id'] ?? '' })),
    };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/users/:id', permission: 'users:write' }, async (ctx) => {
    const updated = await updateUser(useCaseDeps, {
      tenant: ctx.state.tenant,
      actor: ctx.state.user,
      userId: ctx.params['id'] ?? '',
      body: ctx.request.body,
    });
    ctx.body = { data: toUserResource(updated) };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/users/:id', permission: 'users:write' }, async (ctx) => {
    await deleteUser(useCaseDeps, { tenant: ctx.state.tenant, actor: ctx.state.user, userId: ctx.params['id'] ?? '' });
    ctx.status = 204;
  });

  return router;
}
