/**
 * The auth service's passkey routes: registration (a signed-in user, step-up) and the
 * passwordless sign-in (embedded provider only). Mixed into services/auth/auth.service.ts,
 * so the actions are auth.*; the ceremonies are lib/mfa/passkeys.ts's, through the
 * service's `mfa`. A passkey as the second factor goes through auth.mfaChallenge and
 * auth.mfaVerify (./mfa.ts).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { RequestOrigin } from "../../lib/audit";
import type { OriginMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import type { MfaCaller, SecondFactors } from "../../lib/mfa";
import { ref } from "../../lib/openapi/schemas";
import type { RuntimeMethods } from "../../mixins/runtime.mixin";

export interface RegisterPasskeyParams {
	response: object;
	name?: string;
}

export interface PasskeySignInOptionsParams {
	username?: string;
}

export interface PasskeySignInParams {
	challengeId: string;
	response: object;
}

interface PasskeyMethods extends RuntimeMethods {
	mfaCaller(ctx: Context): MfaCaller;
	origin(ctx: Context): RequestOrigin;
	signedIn(ctx: Context, tokens: TokenSet): Promise<TokenSet>;
}

interface PasskeyVars {
	mfa: SecondFactors;
	lifecycle: { admit(tokens: TokenSet): Promise<TokenSet> };
}

const factorName = { type: "string", trim: true, min: 1, max: 64, pattern: /^[^\u0000-\u001f\u007f]+$/, optional: true } as const;

/** What a browser's PublicKeyCredential.toJSON() gives; its fields are checked by lib/mfa/passkeys.ts. */
const EXAMPLE_ASSERTION = {
	id: "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
	rawId: "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
	type: "public-key",
	response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ", signature: "MEUCIQDx" },
	clientExtensionResults: {}
};

export const PasskeysMixin: ServiceSchema<ServiceSettingSchema, PasskeyMethods, PasskeyVars> = {
	name: "passkeys",
	actions: {
		passkeyRegistrationOptions: {
			visibility: "published",
			auth: ["user", "enrolment"],
			stepUp: true,
			openapi: {
				summary: "Start registering a passkey",
				description:
					"Step-up. Creation options for navigator.credentials.create(): a discoverable credential with user verification, none of the user's passkeys again. The challenge is single use and lives 5 minutes; a new request replaces it. Also takes the enrolment mfaToken of a 403 MFA_ENROLLMENT_REQUIRED as its Bearer token.",
				success: { status: 200, description: "PublicKeyCredentialCreationOptionsJSON.", schema: ref("PasskeyCreationOptions") },
				problems: ["STEP_UP_REQUIRED", "INVALID_MFA_TOKEN"]
			},
			params: { $$strict: true },
			handler(ctx: Context<Record<string, never>, OriginMeta>): Promise<object> {
				return this.mfa.passkeyRegistrationOptions(this.mfaCaller(ctx));
			}
		},
		registerPasskey: {
			visibility: "published",
			auth: ["user", "enrolment"],
			openapi: {
				summary: "Finish registering a passkey",
				description:
					"With the JSON of the credential navigator.credentials.create() made (PublicKeyCredential.toJSON()). The attestation must answer the pending challenge, from one of WEBAUTHN_ORIGINS, for WEBAUTHN_RP_ID, with user verification; the challenge is spent either way.",
				success: { status: 201, description: "The passkey is an active factor.", schema: ref("PasskeyRegistered") },
				problems: ["INVALID_WEBAUTHN_RESPONSE", "INVALID_MFA_TOKEN"],
				example: {
					name: "Laptop",
					response: {
						id: "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
						rawId: "o4Hx2Qk9b1Zq8Vw3Lr7Tn0Yc5Pf",
						type: "public-key",
						response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVg" },
						clientExtensionResults: {}
					}
				}
			},
			params: { response: { type: "object" }, name: factorName, $$strict: true },
			async handler(ctx: Context<RegisterPasskeyParams, OriginMeta>): Promise<{ factorId: string }> {
				const registered = await this.mfa.registerPasskey(this.mfaCaller(ctx), ctx.params.response, ctx.params.name, this.origin(ctx));
				ctx.meta.$statusCode = 201;
				return registered;
			}
		},
		passkeySignInOptions: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Start a passwordless sign-in with a passkey",
				description:
					"Request options for navigator.credentials.get() and the `challengeId` to answer with. A `username` binds the challenge to that account (whether it exists or has passkeys is not told). Embedded identity provider only: with Cognito, 501 NOT_SUPPORTED_BY_PROVIDER.",
				success: { status: 200, description: "PublicKeyCredentialRequestOptionsJSON with `challengeId`.", schema: ref("PasskeyRequestOptions") },
				problems: ["NOT_SUPPORTED_BY_PROVIDER"],
				example: { username: "ada@example.com" }
			},
			params: { username: { type: "string", min: 1, max: 254, optional: true }, $$strict: true },
			handler(ctx: Context<PasskeySignInOptionsParams>): Promise<object> {
				return this.mfa.passkeySignInOptions(ctx.params.username);
			}
		},
		passkeySignIn: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Sign in with a passkey",
				description:
					"With the `challengeId` of the options and the assertion's JSON. The passkey's user verification counts as two factors: the tokens' amr is `hwk` (a device-bound passkey) or `swk` (a synced one) with `mfa`. The challenge is spent either way; the signature counter must grow. Embedded identity provider only.",
				success: { status: 200, description: "Signed in.", schema: ref("TokenSet") },
				problems: ["INVALID_WEBAUTHN_RESPONSE", "EMAIL_NOT_VERIFIED", "NOT_SUPPORTED_BY_PROVIDER"],
				problemStatus: { INVALID_WEBAUTHN_RESPONSE: 401 },
				example: { challengeId: "0b9f1c4e-3a8d-4f7b-9e21-6c5d8a7f0e13", response: EXAMPLE_ASSERTION }
			},
			params: { challengeId: { type: "uuid" }, response: { type: "object" }, $$strict: true },
			async handler(ctx: Context<PasskeySignInParams, OriginMeta>): Promise<TokenSet> {
				const tokens = await this.mfa.passkeySignIn(ctx.params.challengeId, ctx.params.response, { ip: ctx.meta.clientIp, userAgent: ctx.meta.userAgent });
				return this.signedIn(ctx, await this.lifecycle.admit(tokens));
			}
		}
	}
};
