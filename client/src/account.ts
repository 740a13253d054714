/**
 * client.account: the signed-in user's own account data. Each method is a step-up
 * route: the sign-in must be recent (STEP_UP_MAX_AGE_SECONDS), else 401
 * STEP_UP_REQUIRED (sign in again and retry).
 */
import type { Request } from "./request.js";
import type { AccountExport } from "./types.js";

export interface AccountApi {
	/** GET /auth/account/export: everything the platform holds about the user (no secrets). */
	export(): Promise<AccountExport>;
	/**
	 * DELETE /auth/account: sessions end, notification data and documents go, the user is
	 * deleted; the local session is dropped too. 410 ACCOUNT_DELETED when it is already.
	 */
	delete(): Promise<void>;
	/**
	 * POST /auth/email/change: mails a link to the new address; the address changes when
	 * it is used (client.auth.verifyEmail with its `#token=` value), which ends every
	 * session. 409 USER_EXISTS when the address is taken.
	 */
	changeEmail(newEmail: string): Promise<void>;
}

export function accountApi(request: Request, signedOut: () => Promise<void>): AccountApi {
	return {
		export: () => request("get", "/auth/account/export"),
		delete: async () => {
			await request("delete", "/auth/account");
			await signedOut();
		},
		changeEmail: async newEmail => {
			await request("post", "/auth/email/change", { body: { newEmail } });
		}
	};
}
