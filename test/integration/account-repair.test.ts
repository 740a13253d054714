/**
 * Account creation and its repair on the platform in one process (SQLite, the
 * embedded identity provider, the real actor service): what a failing rollback
 * leaves, what a node that died in the middle of a creation leaves (written as the
 * creation writes it), and what the repair and a later sign-in make of it.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { AccountCreator } from "../../lib/accounts/create";
import { AccountIntents, type NewIntent } from "../../lib/accounts/intents";
import type { IdentityProvider } from "../../lib/idp/types";
import { SOCIAL_IDENTITIES, SOCIAL_LINK_STEP, socialLinkRepair, type SocialIdentity } from "../../lib/social/accounts";
import { authInternals, cutOffCreation, intents, repairNow } from "../helpers/accounts";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";

const PASSWORD = "Correct-Horse-9";

describe("account creation and its repair", () => {
	let p: Platform;
	let idp: IdentityProvider;

	beforeAll(async () => {
		// A long grace period: only repairNow repairs here, never a sweep of the service's own.
		p = await startPlatform({ ACCOUNT_REPAIR_GRACE_SECONDS: "3600", BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" });
		idp = await runtime(p).idp();
	});
	afterAll(() => p.stop());
	afterEach(async () => {
		await expect(intents(p).count({})).resolves.toBe(0);
	});

	const email = () => `repair-${randomUUID()}@example.com`;
	const actors = () => authInternals(p).actorDirectory(null);
	const actorCount = (sub: string) => runtime(p).store().collection("actors").count({ id: sub });
	const passwordIntent = (id: string): NewIntent => ({ id, method: "password", firstName: "Ada", lastName: "Lovelace" });
	const socialIntent = (id: string): NewIntent => ({ id, method: "federated", firstName: "Ada", lastName: "Lovelace", step: SOCIAL_LINK_STEP });

	async function socialUserWithActor(address: string) {
		const user = await idp.createFederatedUser({ email: address, firstName: "Ada", lastName: "Lovelace" });
		await actors().register({ actorId: user.sub, email: address, firstName: "Ada", lastName: "Lovelace" });
		return user;
	}

	async function expectComplete(address: string, names = { firstName: "Ada", lastName: "Lovelace" }) {
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: address, password: PASSWORD } });
		expect(login.status).toBe(200);
		const sub = decodeJwt(login.body.accessToken).sub!;
		const actor = await http(p.baseUrl, "GET", `/actors/${sub}`, { token: login.body.accessToken });
		expect(actor.status).toBe(200);
		expect(actor.body).toMatchObject({ actorId: sub, email: address, ...names });
	}

	async function expectAbsent(address: string) {
		await expect(idp.findUserByEmail(address)).resolves.toBeNull();
		await expect(runtime(p).store().collection("actors").count({ email: address })).resolves.toBe(0);
		const again = await http(p.baseUrl, "POST", "/auth/register", { json: newUser({ email: address }) });
		expect(again.status).toBe(201);
	}

	describe("creation", () => {
		it("should answer 409 USER_EXISTS and make no user when another creation for the email is under way", async () => {
			const address = email();
			await cutOffCreation(p, passwordIntent(address));

			const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser({ email: address }) });

			expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: "USER_EXISTS" });
			await expect(idp.findUserByEmail(address)).resolves.toBeNull();
			await expect(repairNow(p)).resolves.toBe(1);
		});

		it("should throw the original error, log the failed rollback beside it and leave an undo the repair finishes", async () => {
			const logged: unknown[][] = [];
			const deleteFails = Object.assign(Object.create(idp) as IdentityProvider, { deleteUser: () => Promise.reject(new Error("identity provider down")) });
			const creator = new AccountCreator({
				store: () => runtime(p).store(),
				idp: async () => deleteFails,
				logger: { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => logged.push(args) },
				steps: {},
				owner: { nodeId: "another-node", instanceId: "one" }
			});
			const address = email();

			await expect(
				creator.create({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" }, { ...actors(), register: () => Promise.reject(new Error("disk full")) })
			).rejects.toThrow("disk full");

			const user = await idp.findUserByEmail(address);
			expect(logged).toEqual([[expect.stringContaining("rollback failed"), { sub: user!.sub, error: "identity provider down" }]]);
			await expect(intents(p).get(address)).resolves.toMatchObject({ phase: "undo", sub: user!.sub });
			await expect(repairNow(p)).resolves.toBe(1);
			await expectAbsent(address);
		});
	});

	describe("repair of a creation cut off by a dying node", () => {
		it("should complete a registration whose identity-provider user was recorded", async () => {
			const address = email();
			const user = await idp.createUser({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
			await cutOffCreation(p, passwordIntent(address), user);

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(actorCount(user.sub)).resolves.toBe(1);
			await expectComplete(address);
		});

		it("should undo a social sign-in cut off before its link, since nobody can sign in as its user", async () => {
			const address = email();
			const user = await socialUserWithActor(address);
			await cutOffCreation(p, socialIntent(address), user);

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(actorCount(user.sub)).resolves.toBe(0);
			await expectAbsent(address);
		});

		it("should keep a social account cut off after its link was written", async () => {
			const address = email();
			const user = await socialUserWithActor(address);
			const links = runtime(p).store().collection<SocialIdentity>(SOCIAL_IDENTITIES);
			const now = new Date().toISOString();
			await links.insert({
				id: randomUUID(),
				provider: "https://provider.example",
				subject: randomUUID(),
				userSub: user.sub,
				username: user.username,
				email: address,
				refreshToken: null,
				createdAt: now,
				updatedAt: now,
				lastSignInAt: now
			});
			await cutOffCreation(p, socialIntent(address), user);

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(idp.findUserByEmail(address)).resolves.toEqual(user);
			await expect(actorCount(user.sub)).resolves.toBe(1);
			await expect(links.count({ userSub: user.sub })).resolves.toBe(1);
			await expect(socialLinkRepair(() => runtime(p).store()).done(user)).resolves.toBe(true);
		});

		it("should finish an undo that was cut off, whatever it had removed", async () => {
			const address = email();
			const user = await idp.createUser({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
			await actors().register({ actorId: user.sub, email: address, firstName: "Ada", lastName: "Lovelace" });
			await authInternals(p).accounts.intents.beginUndo(passwordIntent(address), user);

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(actorCount(user.sub)).resolves.toBe(0);
			await expectAbsent(address);
		});

		it("should drop an intent whose creation never reached the identity provider", async () => {
			const address = email();
			await cutOffCreation(p, passwordIntent(address));

			await expect(repairNow(p)).resolves.toBe(1);

			await expectAbsent(address);
		});

		it("should leave a user it cannot tell apart from an earlier one alone, and the first login completes it", async () => {
			const address = email();
			const user = await idp.createUser({ email: address, password: PASSWORD, firstName: "Grace", lastName: "Hopper" });
			await cutOffCreation(p, passwordIntent(address));

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(idp.findUserByEmail(address)).resolves.toEqual(user);
			await expect(actorCount(user.sub)).resolves.toBe(0);
			await expectComplete(address, { firstName: "Grace", lastName: "Hopper" });
		});

		it("should remove the recorded user's actor but no other user when the recorded user is gone", async () => {
			const address = email();
			const gone = await idp.createUser({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
			await actors().register({ actorId: gone.sub, email: address, firstName: "Ada", lastName: "Lovelace" });
			await cutOffCreation(p, passwordIntent(address), gone);
			await idp.deleteUser(gone.username);
			const other = await idp.createUser({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });

			await expect(repairNow(p)).resolves.toBe(1);

			await expect(actorCount(gone.sub)).resolves.toBe(0);
			await expect(idp.findUserByEmail(address)).resolves.toEqual(other);
			await idp.deleteUser(other.username);
		});

		it("should leave an intent younger than the grace period to its creation", async () => {
			const address = email();
			await cutOffCreation(p, passwordIntent(address));

			await expect(authInternals(p).repair.sweep(actors(), 3_600_000)).resolves.toBe(0);

			await expect(intents(p).count({ id: address })).resolves.toBe(1);
			await expect(repairNow(p)).resolves.toBe(1);
		});

		it("should take at once, whatever their age, the intents of an earlier process of its node and no other node's", async () => {
			const auth = authInternals(p);
			const cutOffBy = (nodeId: string) => new AccountIntents(() => runtime(p).store(), Date.now, { nodeId, instanceId: "an-earlier-process" });
			const earlier = email();
			const other = email();
			const user = await idp.createUser({ email: earlier, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
			await cutOffBy(p.broker.nodeID).open(passwordIntent(earlier));
			await cutOffBy(p.broker.nodeID).recordUser(earlier, user);
			await cutOffBy("another-node").open(passwordIntent(other));

			await expect(auth.repair.sweep(actors(), 3_600_000)).resolves.toBe(1);

			await expectComplete(earlier);
			await expect(intents(p).count({ id: other })).resolves.toBe(1);
			await expect(repairNow(p)).resolves.toBe(1);
		});
	});

	describe("a sign-in of a user without an actor profile", () => {
		it("should complete the profile from the identity provider's attributes at login", async () => {
			const address = email();
			await idp.createUser({ email: address, password: PASSWORD, firstName: "Grace", lastName: "Hopper" });

			await expectComplete(address, { firstName: "Grace", lastName: "Hopper" });
		});

		it("should complete the profile at refresh", async () => {
			const address = email();
			const user = await idp.createUser({ email: address, password: PASSWORD, firstName: "Grace", lastName: "Hopper" });
			const tokens = await idp.login(address, PASSWORD);

			const refreshed = await http(p.baseUrl, "POST", "/auth/tokens/refresh", { json: { refreshToken: tokens.refreshToken } });

			expect(refreshed.status).toBe(200);
			const actor = await http(p.baseUrl, "GET", `/actors/${user.sub}`, { token: refreshed.body.accessToken });
			expect({ status: actor.status, firstName: actor.body.firstName }).toEqual({ status: 200, firstName: "Grace" });
		});

		it("should leave the profile to the repair while an intent for the email exists", async () => {
			const address = email();
			const user = await idp.createUser({ email: address, password: PASSWORD, firstName: "Ada", lastName: "Lovelace" });
			await cutOffCreation(p, passwordIntent(address), user);

			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: address, password: PASSWORD } });

			expect(login.status).toBe(200);
			await expect(actorCount(user.sub)).resolves.toBe(0);
			await expect(repairNow(p)).resolves.toBe(1);
			await expect(actorCount(user.sub)).resolves.toBe(1);
		});

		it("should give the bootstrap administrator no profile", async () => {
			const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "root@example.com", password: "Root-Passw0rd" } });

			expect(login.status).toBe(200);
			await expect(actorCount(decodeJwt(login.body.accessToken).sub!)).resolves.toBe(0);
		});
	});
});
