/**
 * Changing a user's email address (POST /auth/email/change): a link is mailed to the new
 * address (a lifecycle token of purpose `change-email`, minted at send time like every
 * lifecycle link, lifecycle-mail.ts), and the address changes only when it is used, at
 * POST /auth/email/verify, the same route and page as an ordinary verification. Until
 * then the account keeps its old address, which still signs in.
 *
 * Using the link moves the address in the identity provider (the embedded user's
 * username with it; Cognito by AdminUpdateUserAttributes), then the actor profile,
 * marks it verified and deliverable, ends every session (tokens name the old address)
 * and records `auth.email_changed` with `{ oldEmail }` (the alerts mail the old address
 * from it).
 */
import type { AuditLog, RequestOrigin } from "../audit";
import { normalizeEmail } from "../email-address";
import { badRequest, ClientError } from "../errors";
import type { IdentityProvider } from "../idp/types";
import type { NotificationIntake } from "../notifications";
import { DuplicateKeyError, type Store } from "../store";
import { userExists } from "./create";
import { ACCOUNT_INTENTS } from "./intents";
import { queueLifecycleMail } from "./lifecycle-mail";
import { LifecycleTokens } from "./lifecycle-tokens";

export interface EmailChangeDeps {
	store: () => Store;
	idp: () => Promise<IdentityProvider>;
	intake: () => NotificationIntake;
	audit: AuditLog;
	/** Ends every session of the user: the one place the account-data routes revoke sessions (lib/accounts/account-data.ts). */
	revokeSessions: (user: { sub: string; username: string }) => Promise<void>;
	/** Tells every node's profile cache that the actor changed. */
	actorChanged: (actorId: string) => void;
	warn(message: string, fields?: Record<string, unknown>): void;
}

interface ActorEmailDoc {
	id: string;
	email: string;
	emailDeliverable?: boolean;
	updatedAt: string;
}

export class EmailChange {
	constructor(private readonly deps: EmailChangeDeps) {}

	/** Whether anyone holds the address or is being registered with it. */
	private async taken(email: string): Promise<boolean> {
		const store = this.deps.store();
		if (await (await this.deps.idp()).findUserByEmail(email)) return true;
		if (await store.collection<ActorEmailDoc>("actors").findOne({ email })) return true;
		return (await store.collection(ACCOUNT_INTENTS).get(email)) !== null;
	}

	/** 409 USER_EXISTS when the address is taken; 400 when it is the account's own already. */
	async request(caller: { sub: string; username: string }, newEmail: string): Promise<void> {
		const email = normalizeEmail(newEmail);
		const profile = await (await this.deps.idp()).getProfile(caller.username);
		if (!profile || profile.sub !== caller.sub) throw new ClientError(401, "UNAUTHORIZED", "The user no longer exists.");
		if (profile.email === email) throw badRequest("This is the account's address already.", [{ field: "newEmail", message: "is the current address" }]);
		if (await this.taken(email)) throw userExists();
		await queueLifecycleMail(
			{ store: this.deps.store(), intake: this.deps.intake(), warn: (m, f) => this.deps.warn(m, f) },
			{ purpose: "change-email", sub: profile.sub, username: profile.username, email },
			{ firstName: profile.firstName, lastName: profile.lastName }
		);
	}

	/**
	 * Applies the change when `token` is a live change-email link; null when it is not
	 * one (the caller tries it as an ordinary verification). A link whose address was
	 * taken meanwhile is spent and answers 409 USER_EXISTS.
	 */
	async confirm(token: string, origin: RequestOrigin): Promise<{ emailVerified: true } | null> {
		const store = this.deps.store();
		const rec = await new LifecycleTokens(store).redeem("change-email", token);
		if (!rec) return null;
		const idp = await this.deps.idp();
		const profile = await idp.getProfile(rec.username);
		if (!profile || profile.sub !== rec.sub) throw new ClientError(401, "INVALID_VERIFICATION_TOKEN", "The verification link is invalid, expired or already used.");
		const oldEmail = profile.email;
		if (oldEmail !== rec.email) {
			if (await this.taken(rec.email)) throw userExists();
			const actors = store.collection<ActorEmailDoc>("actors");
			// The profile first: its unique email index refuses an address another actor took meanwhile.
			try {
				await actors.updateMany({ id: rec.sub }, { $set: { email: rec.email, emailDeliverable: true, updatedAt: new Date().toISOString() } });
			} catch (err) {
				if (err instanceof DuplicateKeyError) throw userExists();
				throw err;
			}
			try {
				await idp.changeEmail(rec.username, rec.email);
			} catch (err) {
				await actors.updateMany({ id: rec.sub }, { $set: { email: oldEmail, updatedAt: new Date().toISOString() } }).catch(() => undefined);
				throw err;
			}
			this.deps.actorChanged(rec.sub);
			await new LifecycleTokens(store).spendAll("change-email", rec.sub);
			await new LifecycleTokens(store).spendAll("verify-email", rec.sub);
			// Every token names the old address (the embedded provider's username): the user signs in again with the new one.
			const username = idp.kind === "embedded" ? rec.email : rec.username;
			await this.deps.revokeSessions({ sub: rec.sub, username });
			await this.deps.audit.record("auth.email_changed", rec.sub, origin, { oldEmail });
		}
		return { emailVerified: true };
	}
}
