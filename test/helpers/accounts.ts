/**
 * The auth service's account creation and repair, reached inside an in-process
 * platform, and the store state a node leaves when it dies in the middle of a
 * creation (written through the same intent API the creation uses).
 */
import type { Context } from "moleculer";
import type { AccountCreator, ActorDirectory } from "../../lib/accounts/create";
import { ACCOUNT_INTENTS, type AccountIntent, type NewIntent } from "../../lib/accounts/intents";
import type { AccountRepair } from "../../lib/accounts/repair";
import type { CreatedUser } from "../../lib/idp/types";
import { runtime, type Platform } from "./platform";

export interface AuthInternals {
	accounts: AccountCreator;
	repair: AccountRepair;
	actorDirectory(ctx: Context | null): ActorDirectory;
}

export function authInternals(p: Platform): AuthInternals {
	const auth = p.broker.getLocalService("auth");
	if (!auth) throw new Error("The platform runs no auth service");
	return auth as unknown as AuthInternals;
}

/** An intent as a creation leaves it when its node dies: with the user once the identity provider made one. */
export async function cutOffCreation(p: Platform, intent: NewIntent, user?: CreatedUser): Promise<void> {
	const { accounts } = authInternals(p);
	if (!(await accounts.intents.open(intent))) throw new Error(`An intent for ${intent.id} exists already`);
	if (user) await accounts.intents.recordUser(intent.id, user);
}

/** Repairs every intent at once, as a node would a grace period later. */
export function repairNow(p: Platform): Promise<number> {
	const auth = authInternals(p);
	return auth.repair.sweep(auth.actorDirectory(null), 0);
}

export function intents(p: Platform) {
	return runtime(p).store().collection<AccountIntent>(ACCOUNT_INTENTS);
}
