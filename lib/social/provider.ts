/**
 * The social provider, spoken to with the platform's own HTTP calls rather than an
 * OIDC client library's flow: discovery, the authorization URL, the code exchange
 * (client authentication and the PKCE code_verifier), the ID token's checks, the
 * userinfo call, and the mapping of its claims to the platform's user model.
 *
 * With discovery (SOCIAL_OAUTH2_ISSUER) the provider is an OpenID Provider: a nonce
 * goes with the request, the token response must carry an ID token signed with a key
 * from the provider's JWKS (asymmetric algorithms only), for our client, with our
 * nonce, and userinfo must describe the same subject. With all three endpoint URLs
 * set explicitly there is no JWKS: any ID token is ignored and the user is who the
 * userinfo endpoint says, over TLS.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { SocialConfig } from "../config";
import { safeEqual, sha256 } from "../crypto";
import { UpstreamError } from "../errors";
import { SocialFailure } from "./failure";
import type { PendingSignIn } from "./state";
import { EMAIL_ADDRESS, normalizeEmail } from "../email-address";

const SCOPE = "openid email profile";

const HTTP_TIMEOUT_MS = 10000;
const MAX_RESPONSE_BYTES = 256 * 1024;
/** An unsigned ID token, or one MACed with the client secret, is refused. */
const ID_TOKEN_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];
const CLOCK_TOLERANCE_SEC = 30;
const NAME_MAX = 100;

export interface Endpoints {
	authorization: string;
	token: string;
	userinfo: string;
	/** Set for an OpenID Provider found by discovery. */
	idTokens?: { issuer: string; keys: JWTVerifyGetKey; algorithms: string[] };
}

/** The internal user model a provider's userinfo maps to. */
export interface ProviderProfile {
	subject: string;
	email: string;
	emailVerified: boolean;
	firstName: string;
	lastName: string;
}

export interface ProviderSignIn {
	profile: ProviderProfile;
	/** Only when the provider issues one (Google: with access_type=offline). */
	refreshToken?: string;
}

interface TokenResponse {
	accessToken: string;
	idToken?: string;
	refreshToken?: string;
}

interface JsonResponse {
	status: number;
	body: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/** The provider's OAuth error code, or a placeholder: its texts never reach logs or the UI verbatim. */
export function safeErrorCode(v: unknown): string {
	return typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : "unrecognised";
}

/** Redirects are not followed, and at most MAX_RESPONSE_BYTES are read. */
async function requestJson(url: string, init: RequestInit): Promise<JsonResponse> {
	const res = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of res.body ?? []) {
		size += chunk.byteLength;
		if (size > MAX_RESPONSE_BYTES) throw new Error("The response is too large");
		chunks.push(chunk);
	}
	const text = Buffer.concat(chunks).toString("utf8");
	try {
		return { status: res.status, body: text ? JSON.parse(text) : undefined };
	} catch {
		return { status: res.status, body: undefined };
	}
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded before the Basic encoding. */
function formEncode(value: string): string {
	return new URLSearchParams([["", value]]).toString().slice(1);
}

function cleanName(v: unknown): string | undefined {
	if (typeof v !== "string") return undefined;
	const s = v.replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim();
	return s ? s.slice(0, NAME_MAX) : undefined;
}

/**
 * Maps OIDC standard claims to the user model. Names fall back to the full name, then
 * to the email's local part and "-", because actor profiles require both.
 */
export function toProfile(claims: Record<string, unknown>): ProviderProfile {
	const subject = nonEmpty(claims.sub);
	if (!subject || subject.length > 255) throw new SocialFailure("USERINFO_FAILED", "userinfo has no usable sub");
	const email = typeof claims.email === "string" ? normalizeEmail(claims.email) : "";
	if (email.length > 254 || !EMAIL_ADDRESS.test(email)) throw new SocialFailure("USERINFO_FAILED", "userinfo has no usable email");
	const [first, ...rest] = (cleanName(claims.name) ?? "").split(" ").filter(Boolean);
	return {
		subject,
		email,
		// Some providers send the boolean as a string.
		emailVerified: claims.email_verified === true || claims.email_verified === "true",
		firstName: cleanName(claims.given_name) ?? first ?? email.split("@")[0].slice(0, NAME_MAX),
		lastName: cleanName(claims.family_name) ?? (rest.join(" ").slice(0, NAME_MAX) || "-")
	};
}

export class SocialProvider {
	private endpointsPromise: Promise<Endpoints> | null = null;

	constructor(private readonly config: SocialConfig) {}

	/** The provider's name in linked accounts. */
	get name(): string {
		return this.config.issuer;
	}

	/** Discovered once per process; a failed discovery is tried again on the next sign-in. */
	endpoints(): Promise<Endpoints> {
		if (!this.endpointsPromise) {
			const p = this.resolve();
			this.endpointsPromise = p;
			p.catch(() => {
				if (this.endpointsPromise === p) this.endpointsPromise = null;
			});
		}
		return this.endpointsPromise;
	}

	async authorizationUrl(state: string, pending: PendingSignIn): Promise<string> {
		const endpoints = await this.endpoints();
		const u = new URL(endpoints.authorization);
		for (const [k, v] of Object.entries(this.config.authorizationParams)) u.searchParams.set(k, v);
		u.searchParams.set("response_type", "code");
		u.searchParams.set("client_id", this.config.clientId!);
		u.searchParams.set("redirect_uri", this.config.redirectUri);
		u.searchParams.set("scope", SCOPE);
		u.searchParams.set("state", state);
		u.searchParams.set("code_challenge", sha256(pending.codeVerifier));
		u.searchParams.set("code_challenge_method", "S256");
		if (endpoints.idTokens) u.searchParams.set("nonce", pending.nonce);
		return u.href;
	}

	/** Code → tokens → (ID token checks) → userinfo → profile. SocialFailure for the provider's failures. */
	async signIn(code: string, pending: PendingSignIn): Promise<ProviderSignIn> {
		const endpoints = await this.endpoints();
		const tokens = await this.exchangeCode(endpoints, code, pending.codeVerifier);
		const idSubject = endpoints.idTokens ? await this.checkIdToken(endpoints.idTokens, tokens.idToken, pending.nonce) : undefined;
		const profile = toProfile(await this.userinfo(endpoints, tokens.accessToken));
		// OpenID Connect Core §5.3.2: userinfo must describe the user the ID token is about.
		if (idSubject !== undefined && profile.subject !== idSubject) {
			throw new SocialFailure("USERINFO_FAILED", "userinfo describes another subject than the ID token");
		}
		return tokens.refreshToken ? { profile, refreshToken: tokens.refreshToken } : { profile };
	}

	private async resolve(): Promise<Endpoints> {
		const { authorizationUrl, tokenUrl, userinfoUrl, issuer } = this.config;
		if (authorizationUrl && tokenUrl && userinfoUrl) return { authorization: authorizationUrl, token: tokenUrl, userinfo: userinfoUrl };
		let res: JsonResponse;
		try {
			res = await requestJson(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, { headers: { accept: "application/json" } });
		} catch {
			throw new UpstreamError("The social provider's discovery document could not be fetched.");
		}
		const doc = res.body;
		if (res.status !== 200 || !isRecord(doc)) throw new UpstreamError(`The social provider's discovery answered ${res.status}.`);
		// OpenID Connect Discovery §4.3: the document must be the issuer's own.
		if (doc.issuer !== issuer) throw new UpstreamError("The social provider's discovery document names another issuer.");
		const endpoint = (field: string, explicit?: string): string => {
			if (explicit) return explicit;
			const value = doc[field];
			let u: URL | undefined;
			try {
				u = typeof value === "string" ? new URL(value) : undefined;
			} catch {
				u = undefined;
			}
			// An HTTPS issuer never sends us to plain HTTP.
			const protocols = issuer.startsWith("https:") ? ["https:"] : ["https:", "http:"];
			if (!u || !protocols.includes(u.protocol)) throw new UpstreamError(`The social provider's discovery has no usable ${field}.`);
			return u.href;
		};
		const offered = Array.isArray(doc.id_token_signing_alg_values_supported) ? doc.id_token_signing_alg_values_supported : ["RS256"];
		const algorithms = ID_TOKEN_ALGORITHMS.filter(a => offered.includes(a));
		if (algorithms.length === 0) throw new UpstreamError("The social provider signs ID tokens with no algorithm the platform accepts.");
		return {
			authorization: endpoint("authorization_endpoint", authorizationUrl),
			token: endpoint("token_endpoint", tokenUrl),
			userinfo: endpoint("userinfo_endpoint", userinfoUrl),
			idTokens: { issuer, keys: createRemoteJWKSet(new URL(endpoint("jwks_uri"))), algorithms }
		};
	}

	private async exchangeCode(endpoints: Endpoints, code: string, codeVerifier: string): Promise<TokenResponse> {
		const { clientId, clientSecret, clientAuthMethod, redirectUri } = this.config;
		const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: codeVerifier });
		const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
		if (clientAuthMethod === "client_secret_basic") {
			headers.authorization = `Basic ${Buffer.from(`${formEncode(clientId!)}:${formEncode(clientSecret!)}`).toString("base64")}`;
		} else {
			form.set("client_id", clientId!);
			form.set("client_secret", clientSecret!);
		}
		let res: JsonResponse;
		try {
			res = await requestJson(endpoints.token, { method: "POST", headers, body: form.toString() });
		} catch (err) {
			throw new SocialFailure("TOKEN_EXCHANGE_FAILED", `the token endpoint could not be reached (${(err as Error).name})`);
		}
		const body = res.body;
		if (res.status !== 200 || !isRecord(body)) {
			throw new SocialFailure("TOKEN_EXCHANGE_FAILED", `the token endpoint answered ${res.status} ${isRecord(body) ? safeErrorCode(body.error) : ""}`.trim());
		}
		const accessToken = nonEmpty(body.access_token);
		if (!accessToken || typeof body.token_type !== "string" || body.token_type.toLowerCase() !== "bearer") {
			throw new SocialFailure("TOKEN_EXCHANGE_FAILED", "the token response has no Bearer access token");
		}
		return { accessToken, idToken: nonEmpty(body.id_token), refreshToken: nonEmpty(body.refresh_token) };
	}

	private async checkIdToken(trust: NonNullable<Endpoints["idTokens"]>, idToken: string | undefined, nonce: string): Promise<string> {
		if (!idToken) throw new SocialFailure("INVALID_ID_TOKEN", "the token response has no ID token");
		let payload: JWTPayload;
		try {
			({ payload } = await jwtVerify(idToken, trust.keys, {
				issuer: trust.issuer,
				audience: this.config.clientId,
				algorithms: trust.algorithms,
				clockTolerance: CLOCK_TOLERANCE_SEC,
				requiredClaims: ["sub", "exp", "iat"]
			}));
		} catch (err) {
			throw new SocialFailure("INVALID_ID_TOKEN", `the ID token failed verification (${safeErrorCode((err as { code?: unknown }).code)})`);
		}
		// OpenID Connect Core §3.1.3.7: with several audiences, we must be the authorized party.
		if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.config.clientId) {
			throw new SocialFailure("INVALID_ID_TOKEN", "the ID token was issued to another party");
		}
		if (typeof payload.nonce !== "string" || !safeEqual(payload.nonce, nonce)) {
			throw new SocialFailure("INVALID_ID_TOKEN", "the ID token's nonce is not this sign-in's");
		}
		return payload.sub!;
	}

	private async userinfo(endpoints: Endpoints, accessToken: string): Promise<Record<string, unknown>> {
		let res: JsonResponse;
		try {
			res = await requestJson(endpoints.userinfo, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } });
		} catch (err) {
			throw new SocialFailure("USERINFO_FAILED", `the userinfo endpoint could not be reached (${(err as Error).name})`);
		}
		if (res.status !== 200 || !isRecord(res.body)) throw new SocialFailure("USERINFO_FAILED", `the userinfo endpoint answered ${res.status}`);
		return res.body;
	}
}
