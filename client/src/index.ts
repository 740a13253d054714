/**
 * @auth-notify/client: the platform's client for browsers and Node, with no runtime
 * dependencies. It keeps the session (storage is pluggable: memory by default,
 * localStorage in browsers), refreshes the access token once when it has expired or a
 * call answers 401, and never twice at once: refresh tokens rotate, and the platform
 * treats a second use of an old one as reuse. Within a page one refresh is shared by
 * every call; across tabs the Web Locks API serializes them, and a tab that waited
 * takes the tokens the other tab stored instead of refreshing again.
 *
 * Types come from the OpenAPI document (api-types.ts, generated).
 */
import { inboxApi, type InboxApi } from "./inbox.js";
import { actorsApi, notificationsApi, preferencesApi, pushSubscriptionsApi, resumesApi, templatesApi, webhookEndpointsApi } from "./namespaces.js";
import type { ActorsApi, NotificationsApi, PreferencesApi, PushSubscriptionsApi, ResumesApi, TemplatesApi, WebhookEndpointsApi } from "./namespaces.js";
import { adminApi, type AdminApi } from "./admin.js";
import { mfaApi, type MfaApi } from "./mfa.js";
import { passkeysApi, type PasskeysApi } from "./passkeys.js";
import { otpApi, type OtpApi } from "./otp.js";
import { auditApi, securityApi, type AuditApi, type SecurityApi } from "./security.js";
import { accountApi, type AccountApi } from "./account.js";
import { meApi, sessionsApi, type SessionsApi } from "./sessions.js";
import { ApiError, requester, type Problem, type Request, type Transport } from "./request.js";
import { memoryStorage, type TokenStorage } from "./storage.js";
import type { EmailVerified, Me, RegisterInput, RegisterResult, TokenSet } from "./types.js";

export type { ActorsApi, NotificationsApi, PreferencesApi, PushSubscriptionsApi, ResumesApi, TemplatesApi, WebhookEndpointsApi } from "./namespaces.js";
export type { AdminApi } from "./admin.js";
export type { EnrolmentOptions, MfaApi } from "./mfa.js";
export type { PasskeysApi, WebAuthnBrowser } from "./passkeys.js";
export type { OtpApi } from "./otp.js";
export type { AuditApi, SecurityApi } from "./security.js";
export type { AccountApi } from "./account.js";
export type { SessionsApi } from "./sessions.js";
export { ApiError, type ErrorCode, type Method, type PathOf, type Problem, type Request, type RequestOptions } from "./request.js";
export { memoryStorage, webStorage, type TokenStorage, type WebStorageLike } from "./storage.js";
export type * from "./types.js";
export type { TimelineEvent, WatchHandle, WatchOptions } from "./watch.js";
export type { InboxApi, InboxStreamHandlers } from "./inbox.js";

/** The Web Locks API's exclusive request, as navigator.locks has it. */
export interface LockManagerLike {
	request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** What a browser has and Node has not; typed here so the package needs no DOM typings. */
interface BrowserGlobals {
	location?: { href: string; assign(url: string): void };
	history?: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
	navigator?: { locks?: LockManagerLike };
}

const browser = globalThis as BrowserGlobals;

export interface ClientOptions {
	/** The gateway's address, e.g. https://api.example.com. */
	baseUrl: string;
	storage?: TokenStorage;
	/** Called when the session is gone (no tokens, or the refresh was refused): send the user to sign in. */
	onAuthRequired?: () => void;
	/** Defaults to globalThis.fetch. */
	fetch?: typeof fetch;
	/** The name the session is stored under; two clients of one origin that share it share the session. */
	storageKey?: string;
	/** Seconds before expiresAt at which the access token counts as expired. */
	expirySkewSeconds?: number;
	/** Defaults to navigator.locks where it exists; null turns cross-tab locking off. */
	locks?: LockManagerLike | null;
	/** Seconds since the epoch; tests freeze it. */
	now?: () => number;
	/**
	 * A backend service's account (from admin.serviceAccounts.create): the client signs in
	 * with it on first use and again whenever the service token has expired or is refused,
	 * and sends the service token (the ID token, which names the service) as the Bearer token.
	 */
	serviceAccount?: { username: string; password: string };
}

interface Session {
	accessToken: string;
	refreshToken: string;
	expiresAt: number;
}

/** A refresh's outcome: the session now stored, and the token set when this refresh got one. */
interface Refreshed {
	session: Session;
	tokens?: TokenSet;
}

/** Signing in and out, the session's tokens, and the account's lifecycle (verification, passwords). */
export interface AuthApi {
	/** POST /auth/register: creates the account and keeps its session. */
	register(input: RegisterInput): Promise<RegisterResult>;
	/**
	 * POST /auth/login (the username is the email) and keeps the session. A user with a
	 * second factor gets ApiError MFA_REQUIRED, whose `mfaToken` client.mfa.verify takes;
	 * one who must enrol a factor first, MFA_ENROLLMENT_REQUIRED (see client.mfa).
	 */
	login(username: string, password: string): Promise<TokenSet>;
	/**
	 * Ends the session at the platform (POST /auth/logout revokes the refresh token's
	 * family), then forgets it in this client's storage (every tab that shares it), even
	 * when the platform could not be reached.
	 */
	logout(): Promise<void>;
	/** POST /auth/logout/all: ends every session of the user, on every device, then forgets this one. */
	logoutAll(): Promise<void>;
	/** Rotates the session's tokens now (e.g. after verifying the email, so the new ID token says so); shares a refresh already under way. */
	refresh(): Promise<TokenSet>;
	/** POST /auth/tokens/exchange: a one-time token (from the social sign-in callback) for a session, which is kept. */
	exchangeToken(token: string): Promise<TokenSet>;
	/** In a browser, navigates to the platform's social sign-in; returns its address either way. */
	startSocialLogin(returnTo?: string): string;
	/**
	 * On the UI's callback page: reads the one-time token from the address, removes it
	 * from the address bar, and exchanges it by POST. Null when the address has none.
	 */
	completeSocialLogin(url?: string): Promise<TokenSet | null>;
	/**
	 * The token of a mail link (`#token=...` in the address of the verify-email and
	 * reset-password pages), removed from the address bar and history. Null when there is none.
	 */
	linkToken(url?: string): string | null;
	/** POST /auth/email/verification: mails the signed-in user a new verification link. 409 EMAIL_ALREADY_VERIFIED. */
	requestEmailVerification(): Promise<void>;
	/** POST /auth/email/verify with the link's token. 401 INVALID_VERIFICATION_TOKEN. */
	verifyEmail(token: string): Promise<EmailVerified>;
	/** POST /auth/password/forgot: answers alike whether or not the account exists; mails a reset link when it does. */
	forgotPassword(email: string): Promise<void>;
	/** POST /auth/password/reset with the link's token; signs the user out everywhere. 401 INVALID_RESET_TOKEN, 422 INVALID_PASSWORD. */
	resetPassword(token: string, password: string): Promise<void>;
	/** POST /auth/password/change (step-up); every other session of the user ends. 401 INVALID_CREDENTIALS, 401 STEP_UP_REQUIRED, 422 INVALID_PASSWORD. */
	changePassword(currentPassword: string, newPassword: string): Promise<void>;
}

export interface Client {
	register(input: RegisterInput): Promise<RegisterResult>;
	login(username: string, password: string): Promise<TokenSet>;
	/** As auth.logout. */
	logout(): Promise<void>;
	/** As auth.startSocialLogin. */
	startSocialLogin(returnTo?: string): string;
	/** As auth.completeSocialLogin. */
	completeSocialLogin(url?: string): Promise<TokenSet | null>;
	/** fetch with the Bearer token, refreshing once (single-flight) when it has expired or the call answers 401. */
	fetch(path: string, init?: RequestInit): Promise<Response>;
	/** The current session's access token, refreshed first when expired; null when signed out. */
	accessToken(): Promise<string | null>;
	/** Any operation of the API, typed from its OpenAPI document, for routes without a method here. */
	request: Request;
	auth: AuthApi;
	mfa: MfaApi;
	/** Passkeys: register one, sign in with one (browser). */
	passkeys: PasskeysApi;
	/** Passwordless sign-in with a one-time code or magic link. */
	otp: OtpApi;
	/** The signed-in user's security events. */
	audit: AuditApi;
	/** A security alert's "not me" link. */
	security: SecurityApi;
	/** The signed-in user's own account data: export, delete, change the email address (step-up). */
	account: AccountApi;
	/** The signed-in user's sessions: list them, end one (another device). */
	sessions: SessionsApi;
	/** GET /auth/me: the signed-in user's account. */
	me(): Promise<Me>;
	actors: ActorsApi;
	preferences: PreferencesApi;
	pushSubscriptions: PushSubscriptionsApi;
	inbox: InboxApi;
	notifications: NotificationsApi;
	templates: TemplatesApi;
	webhookEndpoints: WebhookEndpointsApi;
	resumes: ResumesApi;
	admin: AdminApi;
}

const LOCK_NAME = "auth-notify-refresh";
/** What a service account's client holds before its first sign-in: a refresh of it is shared like any other. */
const NO_SESSION: Session = { accessToken: "", refreshToken: "", expiresAt: 0 };

export function createClient(options: ClientOptions): Client {
	const baseUrl = options.baseUrl.replace(/\/+$/, "");
	const storage = options.storage ?? memoryStorage();
	const key = options.storageKey ?? "auth-notify.session";
	const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	const skew = options.expirySkewSeconds ?? 30;
	const now = options.now ?? (() => Date.now() / 1000);
	const locks = options.locks === undefined ? browser.navigator?.locks ?? null : options.locks;
	let refreshing: Promise<Refreshed | null> | null = null;

	async function readSession(): Promise<Session | null> {
		const raw = await storage.get(key);
		if (!raw) return null;
		try {
			const s = JSON.parse(raw) as Session;
			return typeof s.accessToken === "string" && typeof s.refreshToken === "string" ? s : null;
		} catch {
			return null;
		}
	}

	async function keep<T extends TokenSet>(tokens: T): Promise<T> {
		const s: Session = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt };
		await storage.set(key, JSON.stringify(s));
		return tokens;
	}

	async function signedOut(): Promise<null> {
		await storage.remove(key);
		options.onAuthRequired?.();
		return null;
	}

	/** A service signs in again rather than refreshing: its credentials stay valid, and so it works with either identity provider. */
	async function serviceLogin(account: { username: string; password: string }): Promise<Refreshed> {
		const tokens = await request("post", "/auth/services/token", { body: account, auth: false });
		await keep({ ...tokens, accessToken: tokens.idToken });
		return { session: (await readSession())!, tokens };
	}

	/**
	 * One refresh. Under the cross-tab lock the storage is read again: when another tab
	 * already rotated the tokens `stale` holds, its tokens are used as they are, unless
	 * the caller asked for new ones (`stale` null).
	 */
	async function refreshFrom(stale: Session | null): Promise<Refreshed | null> {
		const run = async (): Promise<Refreshed | null> => {
			const current = await readSession();
			if (current && stale && current.refreshToken !== stale.refreshToken) return { session: current };
			if (options.serviceAccount) return serviceLogin(options.serviceAccount);
			if (!current) return signedOut();
			try {
				const tokens = await keep(await request("post", "/auth/tokens/refresh", { body: { refreshToken: current.refreshToken }, auth: false }));
				return { session: (await readSession())!, tokens };
			} catch (err) {
				if (err instanceof ApiError && err.status === 401) return signedOut();
				throw err;
			}
		};
		return locks ? locks.request(LOCK_NAME, run) : run();
	}

	/** Every caller in this page that needs a refresh at once shares one; a forced one (stale null) runs after it. */
	function refresh(stale: Session | null): Promise<Refreshed | null> {
		if (refreshing && stale) return refreshing;
		const mine: Promise<Refreshed | null> = (refreshing ?? Promise.resolve(null))
			.catch(() => null)
			.then(() => refreshFrom(stale))
			.finally(() => {
				if (refreshing === mine) refreshing = null;
			});
		refreshing = mine;
		return mine;
	}

	async function validSession(): Promise<Session | null> {
		if (refreshing) return (await refreshing)?.session ?? null;
		const s = await readSession();
		if (!s) return options.serviceAccount ? ((await refresh(NO_SESSION))?.session ?? null) : null;
		return s.expiresAt - skew > now() ? s : ((await refresh(s))?.session ?? null);
	}

	async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
		const send = (s: Session | null) => {
			const headers = new Headers(init.headers);
			if (s) headers.set("authorization", `Bearer ${s.accessToken}`);
			return doFetch(baseUrl + path, { ...init, headers });
		};
		const session = await validSession();
		if (!session) {
			options.onAuthRequired?.();
			throw new ApiError(401, undefined);
		}
		const res = await send(session);
		if (res.status !== 401) return res;
		const renewed = await refresh(session);
		return renewed ? send(renewed.session) : res;
	}

	const transport: Transport = { authorized: authorizedFetch, anonymous: (path, init) => doFetch(baseUrl + path, init) };
	const request = requester(transport);

	/** Reads `token` and `error` from the address's query or fragment, taking them out of the address bar first. */
	function takeFromAddress(url: string, part: "search" | "hash"): { token: string | null; error: string | null } {
		const address = new URL(url);
		const params = new URLSearchParams(address[part].slice(1));
		const found = { token: params.get("token"), error: params.get("error") };
		if (!found.token && !found.error) return found;
		params.delete("token");
		params.delete("error");
		const rest = params.toString();
		address[part] = rest ? `${part === "search" ? "?" : "#"}${rest}` : "";
		// The one-time token leaves the address bar (and so the history) before anything else happens.
		if (browser.history && browser.location?.href === url) browser.history.replaceState(browser.history.state, "", address.toString());
		return found;
	}

	const auth: AuthApi = {
		register: async body => keep(await request("post", "/auth/register", { body, auth: false })),
		login: async (username, password) => keep(await request("post", "/auth/login", { body: { username, password }, auth: false })),
		async logout() {
			const session = await readSession();
			try {
				if (session) await request("post", "/auth/logout", { body: { refreshToken: session.refreshToken }, auth: false });
			} finally {
				await storage.remove(key);
			}
		},
		async logoutAll() {
			await request("post", "/auth/logout/all");
			await storage.remove(key);
		},
		async refresh() {
			const refreshed = await refresh(null);
			if (!refreshed?.tokens) throw new ApiError(401, undefined);
			return refreshed.tokens;
		},
		exchangeToken: async token => keep(await request("post", "/auth/tokens/exchange", { body: { token }, auth: false })),
		startSocialLogin(returnTo) {
			const url = `${baseUrl}/auth/social/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`;
			browser.location?.assign(url);
			return url;
		},
		async completeSocialLogin(url = browser.location?.href) {
			if (!url) return null;
			const { token, error } = takeFromAddress(url, "search");
			if (error) throw new ApiError(401, { type: "", title: "Unauthorized", status: 401, detail: "Social sign-in failed.", code: error as Problem["code"], requestId: "" });
			return token ? auth.exchangeToken(token) : null;
		},
		linkToken: (url = browser.location?.href) => (url ? takeFromAddress(url, "hash").token : null),
		requestEmailVerification: () => request("post", "/auth/email/verification"),
		verifyEmail: token => request("post", "/auth/email/verify", { body: { token }, auth: false }),
		forgotPassword: email => request("post", "/auth/password/forgot", { body: { email }, auth: false }),
		resetPassword: (token, password) => request("post", "/auth/password/reset", { body: { token, password }, auth: false }),
		changePassword: (currentPassword, newPassword) => request("post", "/auth/password/change", { body: { currentPassword, newPassword } })
	};

	return {
		register: auth.register,
		login: auth.login,
		logout: auth.logout,
		startSocialLogin: auth.startSocialLogin,
		completeSocialLogin: auth.completeSocialLogin,
		fetch: authorizedFetch,
		async accessToken() {
			return (await validSession())?.accessToken ?? null;
		},
		request,
		auth,
		mfa: mfaApi(request, keep),
		passkeys: passkeysApi(request, keep),
		otp: otpApi(request, keep),
		audit: auditApi(request),
		security: securityApi(request),
		account: accountApi(request, async () => {
			await storage.remove(key);
		}),
		sessions: sessionsApi(request),
		me: meApi(request),
		actors: actorsApi(request),
		preferences: preferencesApi(request),
		pushSubscriptions: pushSubscriptionsApi(request),
		inbox: inboxApi(request, transport),
		notifications: notificationsApi(request, transport),
		templates: templatesApi(request),
		webhookEndpoints: webhookEndpointsApi(request),
		resumes: resumesApi(request, transport),
		admin: adminApi(request)
	};
}
