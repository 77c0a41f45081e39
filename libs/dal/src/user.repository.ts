/**
 * Users of the user API. Every method takes the tenant except the two that
 * authentication needs before it knows one: finding a user by email (login, forgot-password)
 * and by the id of a verified session or account token.
 *
 * Emails are unique across organizations: login has only the email to go on.
 */
import { emailKey, newUserId, type Role, type TenantContext, type User } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';
import { toDocument, toRecord, type Stored } from './collections';

export const USERS_COLLECTION = 'users';

export interface CreateUserInput {
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  status: User['status'];
  password_hash: string | null;
}

export type UserUpdate = Partial<
  Pick<User, 'first_name' | 'last_name' | 'role' | 'status' | 'password_hash' | 'password_changed_at' | 'last_login_at'>
>;

type UserDocument = Stored<User>;

export class UserRepository {
  private readonly collection: Collection<UserDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<UserDocument>(USERS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    const users = store.collection(USERS_COLLECTION);
    await users.createIndex({ keys: { email_key: 1 }, name: 'email_key_unique', unique: true });
    await users.createIndex({ keys: { organization_id: 1, created_at: 1 }, name: 'organization_created_at' });
  }

  /** Raises DuplicateKeyError (index `email_key_unique`) when the email is taken. */
  async create(tenant: TenantContext, input: CreateUserInput, now = new Date()): Promise<User> {
    const user: User = {
      id: newUserId(),
      organization_id: tenant.organizationId,
      email: input.email.trim(),
      email_key: emailKey(input.email),
      first_name: input.first_name,
      last_name: input.last_name,
      role: input.role,
      status: input.status,
      password_hash: input.password_hash,
      password_changed_at: input.password_hash === null ? null : now,
      session_generation: 0,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.collection.insertOne(toDocument(user));
    return user;
  }

  /** Login and forgot-password: the account of an email, in whatever organization. */
  async findByEmail(email: string): Promise<User | null> {
    const doc = await this.collection.findOne({ email_key: emailKey(email) });
    return doc ? toRecord<User>(doc) : null;
  }

  async findById(tenant: TenantContext, id: string): Promise<User | null> {
    const doc = await this.collection.findOne({ _id: id, organization_id: tenant.organizationId });
    return doc ? toRecord<User>(doc) : null;
  }

  /** The organization's users, oldest first. */
  async list(tenant: TenantContext): Promise<User[]> {
    const docs = await this.collection.find({ organization_id: tenant.organizationId }, { sort: { created_at: 1 } });
    return docs.map((doc) => toRecord<User>(doc));
  }

  async countByRole(tenant: TenantContext, role: Role): Promise<number> {
    return this.collection.countDocuments({ organization_id: tenant.organizationId, role, status: 'active' });
  }

  /** Returns the user after the change, or null when the organization has no such user. */
  async update(tenant: TenantContext, id: string, update: UserUpdate, now = new Date()): Promise<User | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId },
      { $set: { ...(update as Record<string, never>), updated_at: now } },
    );
    return doc ? toRecord<User>(doc) : null;
  }

  /**
   * A password reset: the new hash, and the next session generation in the same write, which ends
   * every session token issued before it. Null when the organization has no such user.
   */
  async resetPassword(tenant: TenantContext, id: string, passwordHash: string, now = new Date()): Promise<User | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId },
      {
        $set: { password_hash: passwordHash, password_changed_at: now, updated_at: now },
        $inc: { session_generation: 1 },
      },
    );
    return doc ? toRecord<User>(doc) : null;
  }

  async delete(tenant: TenantContext, id: string): Promise<boolean> {
    return (await this.collection.deleteOne({ _id: id, organization_id: tenant.organizationId })) === 1;
  }

  /** Every user of the organization (DELETE /organization). */
  async deleteAll(tenant: TenantContext): Promise<number> {
    return this.collection.deleteMany({ organization_id: tenant.organizationId });
  }
}
