/**
 * Every collection and its indexes, declared once for all backends.
 */
export interface IndexSpec {
	fields: Record<string, 1 | -1>;
	unique?: boolean;
}

export interface CollectionSpec {
	indexes: IndexSpec[];
}

export const SCHEMA: Record<string, CollectionSpec> = {
	/** Embedded identity provider: users and service accounts. */
	idp_users: { indexes: [{ fields: { pool: 1, username: 1 }, unique: true }] },
	/** Embedded identity provider: refresh tokens, stored under their SHA-256. */
	idp_refresh_tokens: { indexes: [{ fields: { familyId: 1 } }, { fields: { expiresAt: 1 } }] },
	actors: { indexes: [{ fields: { email: 1 }, unique: true }] },
	/** Social sign-in: one link per provider user, with the provider's sealed refresh token. */
	social_identities: { indexes: [{ fields: { provider: 1, subject: 1 }, unique: true }, { fields: { userSub: 1 } }] }
};

export function specOf(name: string): CollectionSpec {
	const spec = SCHEMA[name];
	if (!spec) throw new Error(`Unknown collection "${name}": declare it in lib/store/schema.ts`);
	return spec;
}
