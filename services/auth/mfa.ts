/**
 * The auth service's second-factor routes: the sign-in's second step, TOTP enrolment,
 * the factor list, removal, recovery codes, and the administrators' reset. Mixed into
 * services/auth/auth.service.ts, so the actions are auth.*; the work is lib/mfa's,
 * through the service's `mfa`. Step-up routes declare `stepUp` (checked by
 * middlewares/auth.middleware.ts); the enrolment routes also admit the holder of an
 * enrolment mfaToken (MFA_ENFORCE) as their Bearer token.
 */
import type { SignInMethod } from "../../lib/audit/sign-ins";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { RequestOrigin } from "../../lib/audit";
import { ClientError } from "../../lib/errors";
import type { OriginMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import type { FactorView, MfaCaller, SecondFactors, VerifyInput } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";
import { principalOf } from "../../middlewares/auth.middleware";

export interface MfaVerifyParams {
	mfaToken: string;
	type: VerifyInput["type"];
	code?: string;
	response?: object;
}

export interface MfaChallengeParams {
	mfaToken: string;
	type: "webauthn" | "sms";
}

export interface EnrolTotpParams {
	name?: string;
}

export interface ConfirmTotpParams {
	factorId: string;
	code: string;
}

export interface FactorParams {
	factorId: string;
}

interface MfaMethods extends RuntimeMethods {
	mfaCaller(ctx: Context): MfaCaller;
	origin(ctx: Context): RequestOrigin;
	signedIn(ctx: Context, tokens: TokenSet, method?: SignInMethod): Promise<TokenSet>;
}

interface MfaVars {
	mfa: SecondFactors;
	lifecycle: { admit(tokens: TokenSet): Promise<TokenSet> };
}

/** Malformed tokens are one more invalid token (401), not a 400 that tells them apart. */
const mfaToken = { type: "string", min: 1, max: 256 } as const;
const code = { type: "string", min: 1, max: 64 } as const;
const factorName = { type: "string", trim: true, min: 1, max: 64, pattern: /^[^\u0000-\u001f\u007f]+$/, optional: true } as const;

export const MfaMixin: ServiceSchema<ServiceSettingSchema, MfaMethods, MfaVars> = {
	name: "mfa",
	actions: {
		mfaVerify: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Finish a sign-in with a second factor",
				description:
					"With the mfaToken of a 403 MFA_REQUIRED answer: a `code` (totp, recovery), or a passkey's assertion JSON as `response` (webauthn, after POST /auth/mfa/challenge; amr then names `hwk` or `swk`). Five wrong codes or assertions end the mfaToken; each code, and each challenge, is accepted once. `sms`: the code of POST /auth/mfa/challenge type sms, for a user with a verified phone (amr then names `sms`).",
				success: { status: 200, description: "Signed in; the tokens' amr names both factors.", schema: ref("TokenSet") },
				problems: ["INVALID_MFA_CODE", "INVALID_MFA_TOKEN", "EMAIL_NOT_VERIFIED"],
				example: { mfaToken: "Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9", type: "totp", code: "123456" }
			},
			params: {
				mfaToken,
				type: { type: "enum", values: ["totp", "recovery", "sms", "webauthn"] },
				code: { ...code, optional: true },
				response: { type: "object", optional: true },
				$$strict: true
			},
			async handler(ctx: Context<MfaVerifyParams, OriginMeta>): Promise<TokenSet> {
				const { type } = ctx.params;
				if ((type === "totp" || type === "recovery" || type === "sms") && ctx.params.code === undefined) {
					throw new ClientError(400, "VALIDATION_ERROR", "The 'code' field is required.", { errors: [{ field: "code", message: "is required" }] });
				}
				if (type === "webauthn" && ctx.params.response === undefined) {
					throw new ClientError(400, "VALIDATION_ERROR", "The 'response' field is required.", { errors: [{ field: "response", message: "is required" }] });
				}
				const tokens = await this.mfa.verify({ mfaToken: ctx.params.mfaToken, type, code: ctx.params.code, response: ctx.params.response }, this.origin(ctx));
				return this.signedIn(ctx, await this.lifecycle.admit(tokens), "mfa");
			}
		},
		mfaChallenge: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Ask for a challenge of a second factor (WebAuthn options, SMS code)",
				description:
					"`webauthn`: request options for navigator.credentials.get() naming the user's passkeys; the challenge is single use, lives 5 minutes and belongs to this mfaToken (a new request replaces it). An account without a factor of the type gets 400. `sms`: 202, a code (6 digits, 10 minutes) goes to the account's verified phone as a CRITICAL SMS notification (a new request replaces it; when it fails or is not SENT within OTP_FALLBACK_AFTER_SECONDS it also goes to the verified email).",
				success: { status: 200, description: "PublicKeyCredentialRequestOptionsJSON.", schema: ref("PasskeyRequestOptions") },
				problems: ["INVALID_MFA_TOKEN"],
				example: { mfaToken: "Tb3Nw6Lr1Xz8Vd4qZt6Ro1Gi8Ue4Ja0Yc5Pf7Hm2Ks9", type: "webauthn" }
			},
			params: { mfaToken, type: { type: "enum", values: ["webauthn", "sms"] }, $$strict: true },
			async handler(ctx: Context<MfaChallengeParams, OriginMeta>): Promise<object | null> {
				const options = await this.mfa.challenge(ctx.params.mfaToken, ctx.params.type);
				if (options === null) ctx.meta.$statusCode = 202;
				return options;
			}
		},
		mfaFactors: {
			visibility: "published",
			auth: ["user"],
			openapi: {
				summary: "List the signed-in user's second factors",
				success: { status: 200, description: "Active factors (pending enrolments are not listed) and the recovery codes left.", schema: ref("MfaFactors") }
			},
			params: { $$strict: true },
			handler(ctx: Context): Promise<{ items: FactorView[]; recoveryCodesLeft: number }> {
				return this.mfa.list(this.mfaCaller(ctx));
			}
		},
		enrolTotp: {
			visibility: "published",
			auth: ["user", "enrolment"],
			stepUp: true,
			openapi: {
				summary: "Start enrolling an authenticator app (TOTP)",
				description:
					"Step-up. The factor stays pending until POST /auth/mfa/totp/{factorId}/confirm; a new enrolment replaces a pending one. Also takes the enrolment mfaToken of a 403 MFA_ENROLLMENT_REQUIRED as its Bearer token.",
				success: { status: 201, description: "The seed, once: show `otpauthUri` as a QR code.", schema: ref("TotpEnrolment") },
				problems: ["STEP_UP_REQUIRED", "INVALID_MFA_TOKEN"],
				example: { name: "Phone" }
			},
			params: { name: factorName, $$strict: true },
			async handler(ctx: Context<EnrolTotpParams, OriginMeta>) {
				const enrolment = await this.mfa.enrolTotp(this.mfaCaller(ctx), ctx.params.name);
				ctx.meta.$statusCode = 201;
				return enrolment;
			}
		},
		confirmTotp: {
			visibility: "published",
			auth: ["user", "enrolment"],
			openapi: {
				summary: "Confirm an authenticator app with its first code",
				description: "The first factor comes with 10 recovery codes, shown only here. With an enrolment mfaToken, the mfaToken is spent: sign in again.",
				success: { status: 200, description: "The factor is active.", schema: ref("TotpConfirmed") },
				problems: ["INVALID_MFA_CODE", "INVALID_MFA_TOKEN", "NOT_FOUND"],
				example: { code: "123456" }
			},
			params: { factorId: { type: "uuid" }, code, $$strict: true },
			handler(ctx: Context<ConfirmTotpParams, OriginMeta>) {
				return this.mfa.confirmTotp(this.mfaCaller(ctx), ctx.params.factorId, ctx.params.code, this.origin(ctx));
			}
		},
		removeFactor: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Remove one of the signed-in user's factors",
				description: "Step-up. With the last factor, the recovery codes go too.",
				success: { status: 204, description: "Removed." },
				problems: ["STEP_UP_REQUIRED", "NOT_FOUND"]
			},
			params: { factorId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<FactorParams, OriginMeta>): Promise<null> {
				await this.mfa.remove(this.mfaCaller(ctx), ctx.params.factorId, this.origin(ctx));
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		regenerateRecoveryCodes: {
			visibility: "published",
			auth: ["user"],
			stepUp: true,
			openapi: {
				summary: "Replace the signed-in user's recovery codes",
				description: "Step-up. Ten new codes, shown only here; the old ones stop working.",
				success: { status: 201, description: "The new codes.", schema: ref("RecoveryCodes") },
				problems: ["STEP_UP_REQUIRED", "NOT_FOUND"]
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, OriginMeta>) {
				const codes = await this.mfa.regenerateRecoveryCodes(this.mfaCaller(ctx));
				ctx.meta.$statusCode = 201;
				return codes;
			}
		},
		adminRemoveMfa: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Remove every second factor of a user (administrators)",
				description: "The user signs in with the password alone until enrolling again (unless MFA_ENFORCE asks for a factor). Audited.",
				success: { status: 204, description: "Every factor and recovery code of the user is gone." }
			},
			params: { actorId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ actorId: string }, OriginMeta>): Promise<null> {
				const admin = principalOf(ctx);
				await this.mfa.removeAll(ctx.params.actorId, this.origin(ctx), admin?.sub ?? "");
				ctx.meta.$statusCode = 204;
				return null;
			}
		}
	},
	methods: {
		mfaCaller(ctx: Context): MfaCaller {
			const p = principalOf(ctx);
			if (!p || p.kind !== "user") throw new ClientError(403, "FORBIDDEN", "Only users have factors here.");
			const token = (ctx.meta as { authToken?: string }).authToken;
			return { sub: p.sub, username: p.username, sid: p.sid, ...(p.enrolmentOnly ? { enrolmentToken: token } : {}) };
		},
		origin(ctx: Context): RequestOrigin {
			const meta = ctx.meta as OriginMeta;
			const p = principalOf(ctx);
			return { ip: meta.clientIp, userAgent: meta.userAgent, sessionId: p?.kind === "user" ? p.sid : undefined };
		}
	}
};
