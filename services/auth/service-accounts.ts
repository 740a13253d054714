/**
 * The auth service's machine-facing routes: service sign-in and the administrators'
 * service accounts, the embedded identity provider's discovery documents and public
 * keys, and signing key rotation. Mixed into services/auth/auth.service.ts, so the actions
 * are auth.*; the identity provider (lib/idp) does the work.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import type { TokenSet } from "../../lib/idp";
import { SERVICE_ID } from "../../lib/idp/service-accounts";
import type { ServiceAccount } from "../../lib/idp/types";
import { ref } from "../../lib/openapi/schemas";
import { KEYS_ROTATED_EVENT, type RuntimeMethods } from "../../mixins/runtime.mixin";

export interface ServiceLoginParams {
	username: string;
	password: string;
}

export interface PoolParams {
	pool: "actors" | "services";
}

export interface ServiceAccountParams {
	serviceId: string;
}

const secret = { type: "string", min: 1, max: 1024 } as const;
const serviceIdParam = { type: "string", pattern: SERVICE_ID } as const;
const issuerPool = { type: "enum", values: ["actors", "services"] } as const;

export const ServiceAccountsMixin: ServiceSchema<ServiceSettingSchema, RuntimeMethods> = {
	name: "service-accounts",
	actions: {
		serviceToken: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Sign in as a service account",
				description: "The answer's idToken is the service token (it carries custom:service_id).",
				success: { status: 200, description: "Signed in.", schema: ref("TokenSet") },
				problems: ["INVALID_CREDENTIALS"],
				example: { username: "svc-billing", password: "vT3kQ9xLm2Rz7Wc4Ns8Hb1Yd6Jg0Pf5" }
			},
			params: { username: { type: "string", min: 1, max: 128 }, password: secret, $$strict: true },
			async handler(ctx: Context<ServiceLoginParams>): Promise<TokenSet> {
				return (await this.runtime().idp()).serviceLogin(ctx.params.username, ctx.params.password);
			}
		},
		createServiceAccount: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Create a service account",
				success: { status: 201, description: "Created; the password is shown only here.", schema: ref("ServiceAccountCreated"), headers: { Location: "The account's URL." } },
				problems: ["SERVICE_EXISTS"],
				example: { serviceId: "billing" }
			},
			params: { serviceId: serviceIdParam, $$strict: true },
			async handler(ctx: Context<ServiceAccountParams, HttpMeta>): Promise<ServiceAccount & { password: string }> {
				const account = await (await this.runtime().idp()).createServiceAccount(ctx.params.serviceId);
				ctx.meta.$statusCode = 201;
				ctx.meta.$location = `/admin/service-accounts/${account.serviceId}`;
				return { serviceId: account.serviceId, username: account.username, password: account.password, createdAt: account.createdAt };
			}
		},
		listServiceAccounts: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List the service accounts",
				success: { status: 200, description: "Every service account (no passwords).", schema: ref("ServiceAccountList") }
			},
			params: { $$strict: true },
			async handler(): Promise<{ items: ServiceAccount[] }> {
				return { items: await (await this.runtime().idp()).listServiceAccounts() };
			}
		},
		deleteServiceAccount: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Delete a service account",
				description: "Its tokens stop working at their expiry.",
				success: { status: 204, description: "Deleted." },
				problems: ["NOT_FOUND"]
			},
			params: { serviceId: serviceIdParam, $$strict: true },
			async handler(ctx: Context<ServiceAccountParams, HttpMeta>): Promise<null> {
				if (!(await (await this.runtime().idp()).deleteServiceAccount(ctx.params.serviceId))) {
					throw new ClientError(404, "NOT_FOUND", "No service account has this serviceId.");
				}
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		openidConfiguration: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "OpenID discovery document of an embedded issuer",
				success: { status: 200, description: "The issuer's provider metadata.", schema: ref("OpenIdConfiguration"), headers: { "Cache-Control": "public, max-age=300" } },
				problems: ["NOT_FOUND"],
				storage: false
			},
			params: { pool: issuerPool, $$strict: true },
			async handler(ctx: Context<PoolParams, HttpMeta>): Promise<object> {
				const idp = await this.runtime().idp();
				if (idp.kind !== "embedded") throw new ClientError(404, "NOT_FOUND", "The identity provider publishes its own discovery documents.");
				const { issuer, algorithms } = idp.trust()[ctx.params.pool];
				ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
				return {
					issuer,
					jwks_uri: `${issuer}/.well-known/jwks.json`,
					id_token_signing_alg_values_supported: algorithms,
					subject_types_supported: ["public"],
					claims_supported:
						ctx.params.pool === "actors"
							? ["sub", "iss", "aud", "exp", "iat", "auth_time", "token_use", "email", "email_verified", "given_name", "family_name", "cognito:groups", "cognito:username"]
							: ["sub", "iss", "aud", "exp", "iat", "token_use", "custom:service_id", "cognito:username"]
				};
			}
		},
		issuerJwks: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "Public signing keys of an embedded issuer",
				success: { status: 200, description: "The JSON Web Key Set.", schema: ref("JWKS"), headers: { "Cache-Control": "public, max-age=300" } },
				problems: ["NOT_FOUND"]
			},
			params: { pool: issuerPool, $$strict: true },
			async handler(ctx: Context<PoolParams, HttpMeta>): Promise<object> {
				const jwks = await (await this.runtime().idp()).jwks();
				if (!jwks) throw new ClientError(404, "NOT_FOUND", "The identity provider publishes its own keys.");
				ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
				return jwks;
			}
		},
		rotateKeys: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Rotate the signing key",
				description: "The new key signs from now on; older public keys stay in the JWKS until every token they signed has expired.",
				success: { status: 201, description: "Rotated.", schema: ref("RotatedKey") }
			},
			params: { $$strict: true },
			async handler(ctx: Context<Record<string, never>, HttpMeta>): Promise<{ kid: string }> {
				const kid = await (await this.runtime().idp()).rotateSigningKey();
				this.logger.info("The signing key was rotated", { kid });
				// Verifying nodes look for the new key at once rather than after their unknown-kid cooldown.
				await this.broker.broadcast(KEYS_ROTATED_EVENT, { kid });
				ctx.meta.$statusCode = 201;
				return { kid };
			}
		},
		jwks: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "The public keys that verify access tokens",
				success: { status: 200, description: "JSON Web Key Set.", schema: ref("JWKS") },
				problems: ["NOT_FOUND"]
			},
			async handler(ctx: Context<unknown, HttpMeta>): Promise<object> {
				const jwks = await (await this.runtime().idp()).jwks();
				if (!jwks) throw new ClientError(404, "NOT_FOUND", "The identity provider publishes its own keys.");
				ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
				return jwks;
			}
		}
	}
};
