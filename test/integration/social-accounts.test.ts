/**
 * Links between provider users and platform users, on a real SQLite store with the
 * embedded identity provider: creation through lib/accounts/create.ts and its undo,
 * and the sealed provider refresh token across a key rotation.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { EmbeddedIdentityProvider } from "../../lib/idp/embedded";
import { loadSigningKey } from "../../lib/idp/keys";
import { SecretBox } from "../../lib/crypto/secretbox";
import { AccountCreator, type ActorDirectory, type ActorProfile } from "../../lib/accounts/create";
import { ACCOUNT_INTENTS } from "../../lib/accounts/intents";
import { SOCIAL_IDENTITIES, SOCIAL_LINK_STEP, SocialAccounts, refreshTokenAad, socialLinkRepair, type SocialIdentity } from "../../lib/social/accounts";
import type { ProviderSignIn } from "../../lib/social/provider";
import { SqliteStore } from "../../lib/store/sqlite";
import { testConfig } from "../helpers/platform";

const PROVIDER = "https://accounts.google.com";

/** Stands in for the actor service, which other suites run for real; here it records what it is asked. */
class Actors implements ActorDirectory {
	readonly profiles = new Map<string, ActorProfile>();
	async register(actor: ActorProfile): Promise<void> {
		this.profiles.set(actor.actorId, actor);
	}
	async remove(actorId: string): Promise<void> {
		this.profiles.delete(actorId);
	}
	async exists(actorId: string): Promise<boolean> {
		return this.profiles.has(actorId);
	}
}

function signIn(overrides: Partial<ProviderSignIn["profile"]> = {}, refreshToken?: string): ProviderSignIn {
	const id = randomUUID();
	const profile = { subject: id, email: `${id}@example.com`, emailVerified: true, firstName: "Ada", lastName: "Lovelace", ...overrides };
	return refreshToken ? { profile, refreshToken } : { profile };
}

describe("SocialAccounts", () => {
	const config = testConfig();
	let store: SqliteStore;
	let idp: EmbeddedIdentityProvider;
	const failures: unknown[] = [];
	const logger = { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => failures.push(args) };
	const creator = () => new AccountCreator({ store: () => store, idp: async () => idp, logger, steps: { [SOCIAL_LINK_STEP]: socialLinkRepair(() => store) }, owner: { nodeId: "social-accounts", instanceId: "one" } });
	const accounts = (box: SecretBox) => new SocialAccounts(() => store, creator(), box, PROVIDER);
	const linkOf = async (subject: string) => (await store.collection<SocialIdentity>(SOCIAL_IDENTITIES).findOne({ subject }))!;

	beforeAll(async () => {
		store = new SqliteStore(path.join(config.dataDir, "store.sqlite"));
		idp = new EmbeddedIdentityProvider({ config: config.idp, publicUrl: config.publicUrl, store, key: await loadSigningKey(store) });
	});
	afterAll(async () => {
		await store.close();
		fs.rmSync(config.dataDir, { recursive: true, force: true });
	});

	it("should remove the link, the actor and the user when a created account is undone", async () => {
		const actors = new Actors();
		const first = signIn();
		const account = await accounts(new SecretBox(randomBytes(32))).signIn(first, actors);
		expect(actors.profiles.get(account.user.sub)).toMatchObject({ email: first.profile.email, firstName: "Ada", lastName: "Lovelace" });

		await account.undo();

		expect(actors.profiles.size).toBe(0);
		await expect(idp.findUserByEmail(first.profile.email)).resolves.toBeNull();
		await expect(store.collection(SOCIAL_IDENTITIES).count({ subject: first.profile.subject })).resolves.toBe(0);
		await expect(store.collection(ACCOUNT_INTENTS).count({ id: first.profile.email })).resolves.toBe(0);
	});

	it("should remove the user again and pass the error on when the actor cannot be registered", async () => {
		const failing: ActorDirectory = { register: () => Promise.reject(new Error("actor store down")), remove: async () => undefined, exists: async () => false };
		const first = signIn();

		await expect(accounts(new SecretBox(randomBytes(32))).signIn(first, failing)).rejects.toThrow("actor store down");

		await expect(idp.findUserByEmail(first.profile.email)).resolves.toBeNull();
		await expect(store.collection(ACCOUNT_INTENTS).count({ id: first.profile.email })).resolves.toBe(0);
		expect(failures).toEqual([]);
	});

	it("should link the provider identity to an existing user only when the platform has verified its email too", async () => {
		const registered = await idp.createUser({ email: `${randomUUID()}@example.com`, password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		await idp.markEmailVerified(registered.username);
		const attempt = signIn({ email: registered.username });
		const social = accounts(new SecretBox(randomBytes(32)));
		const actors = new Actors();
		const account = await social.signIn(attempt, actors);
		expect(account.user).toEqual(registered);
		await expect(linkOf(attempt.profile.subject)).resolves.toMatchObject({ userSub: registered.sub, username: registered.username });
		// No second user and no new actor profile: the existing account is the one signed in.
		expect(actors.profiles.size).toBe(0);
		await expect(idp.findUserByEmail(registered.username)).resolves.toEqual(registered);
		// The next sign-in finds the link.
		await expect(social.signIn({ profile: attempt.profile }, actors)).resolves.toMatchObject({ user: registered });
		// The provider must vouch for the email too, even when the platform has verified it.
		const unvouched = signIn({ email: registered.username, emailVerified: false });
		await expect(social.signIn(unvouched, actors)).rejects.toMatchObject({ code: "EMAIL_NOT_VERIFIED" });
		await expect(linkOf(unvouched.profile.subject)).resolves.toBeNull();
	});

	it("should refuse with ACCOUNT_EXISTS, linking nothing, when a user with the email exists whose email the platform has not verified", async () => {
		const registered = await idp.createUser({ email: `${randomUUID()}@example.com`, password: "Passw0rd-ok", firstName: "A", lastName: "B" });
		const attempt = signIn({ email: registered.username });
		await expect(accounts(new SecretBox(randomBytes(32))).signIn(attempt, new Actors())).rejects.toMatchObject({ code: "ACCOUNT_EXISTS" });
		await expect(linkOf(attempt.profile.subject)).resolves.toBeNull();
		await expect(idp.findUserByEmail(registered.username)).resolves.toEqual(registered);
	});

	it("should seal the stored refresh token again under the new key at the next sign-in after a rotation", async () => {
		const oldKey = randomBytes(32);
		const newBox = new SecretBox(randomBytes(32), [oldKey]);
		const first = signIn({}, "provider-refresh-1");
		await accounts(new SecretBox(oldKey)).signIn(first, new Actors());
		const before = await linkOf(first.profile.subject);

		await accounts(newBox).signIn({ profile: first.profile }, new Actors());

		const after = await linkOf(first.profile.subject);
		expect(new SecretBox(oldKey).isStale(before.refreshToken!)).toBe(false);
		expect(newBox.isStale(after.refreshToken!)).toBe(false);
		expect(newBox.open(after.refreshToken!, refreshTokenAad(after))).toBe("provider-refresh-1");
	});

	it("should replace the stored refresh token when the provider issues a new one, and drop one no key opens", async () => {
		const box = new SecretBox(randomBytes(32));
		const first = signIn({}, "provider-refresh-1");
		await accounts(box).signIn(first, new Actors());

		await accounts(box).signIn({ ...first, refreshToken: "provider-refresh-2" }, new Actors());
		const replaced = await linkOf(first.profile.subject);
		expect(box.open(replaced.refreshToken!, refreshTokenAad(replaced))).toBe("provider-refresh-2");

		await accounts(new SecretBox(randomBytes(32))).signIn({ profile: first.profile }, new Actors());
		expect((await linkOf(first.profile.subject)).refreshToken).toBeNull();
	});
});
