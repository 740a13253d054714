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
import type { components, paths } from "./api-types";
import { watchStream, type TimelineEvent, type WatchHandle, type WatchOptions } from "./watch.js";

import { memoryStorage, type TokenStorage } from "./storage.js";

export type { TimelineEvent, WatchHandle, WatchOptions } from "./watch.js";
export { memoryStorage, webStorage, type TokenStorage, type WebStorageLike } from "./storage.js";

type Schemas = components["schemas"];
type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

export type TokenSet = Schemas["TokenSet"];
export type RegisterResult = Schemas["RegisterResult"];
export type Problem = Schemas["Problem"];
export type Actor = Schemas["Actor"];
export type Notification = Schemas["Notification"];
export type NotificationAccepted = Schemas["NotificationAccepted"];
export type RegisterInput = JsonBody<"/auth/register", "post">;
export type NotificationInput = JsonBody<"/notifications", "post">;

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

/** A failed call: the platform's problem document, its status and stable code. */
export class ApiError extends Error {
	readonly status: number;
	readonly code: string;
	readonly problem?: Problem;
	/** Seconds the server asked to wait (Retry-After on 429 and 503). */
	readonly retryAfter?: number;
	constructor(status: number, problem?: Problem, retryAfter?: number) {
		super(problem?.detail || `HTTP ${status}`);
		this.name = "ApiError";
		this.status = status;
		this.code = problem?.code ?? "HTTP_ERROR";
		this.problem = problem;
		this.retryAfter = retryAfter;
	}
}

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
}

interface Session {
	accessToken: string;
	refreshToken: string;
	expiresAt: number;
}

export interface Client {
	register(input: RegisterInput): Promise<RegisterResult>;
	login(username: string, password: string): Promise<TokenSet>;
	/**
	 * Ends the session at the platform (POST /auth/logout revokes the refresh token's
	 * family), then forgets it in this client's storage (every tab that shares it), even
	 * when the platform could not be reached.
	 */
	logout(): Promise<void>;
	/** In a browser, navigates to the platform's social sign-in; returns its address either way. */
	startSocialLogin(returnTo?: string): string;
	/**
	 * On the UI's callback page: reads the one-time token from the address, removes it
	 * from the address bar, and exchanges it by POST. Null when the address has none.
	 */
	completeSocialLogin(url?: string): Promise<TokenSet | null>;
	/** fetch with the Bearer token, refreshing once (single-flight) when it has expired or the call answers 401. */
	fetch(path: string, init?: RequestInit): Promise<Response>;
	/** The current session's access token, refreshed first when expired; null when signed out. */
	accessToken(): Promise<string | null>;
	notifications: {
		send(input: NotificationInput, options?: { idempotencyKey?: string }): Promise<NotificationAccepted>;
		get(notificationId: string): Promise<Notification>;
		/**
		 * Follows the notification's status events live (server-sent events over fetch, the
		 * token in the Authorization header). Reconnects after a cut with Last-Event-ID, so
		 * each event arrives once; refreshes the token as fetch() does. Runs until stop()
		 * or the signal aborts; `done` rejects with ApiError when it cannot go on (404, the
		 * session ended).
		 */
		watch(notificationId: string, onEvent: (event: TimelineEvent) => void, options?: WatchOptions): WatchHandle;
	};
}

const LOCK_NAME = "auth-notify-refresh";

export function createClient(options: ClientOptions): Client {
	const baseUrl = options.baseUrl.replace(/\/+$/, "");
	const storage = options.storage ?? memoryStorage();
	const key = options.storageKey ?? "auth-notify.session";
	const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	const skew = options.expirySkewSeconds ?? 30;
	const now = options.now ?? (() => Date.now() / 1000);
	const locks = options.locks === undefined ? browser.navigator?.locks ?? null : options.locks;
	let refreshing: Promise<Session | null> | null = null;

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

	async function keep(tokens: TokenSet): Promise<void> {
		const s: Session = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt };
		await storage.set(key, JSON.stringify(s));
	}

	async function signedOut(): Promise<null> {
		await storage.remove(key);
		options.onAuthRequired?.();
		return null;
	}

	async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
		const res = await doFetch(baseUrl + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
		return answer<T>(res);
	}

	/**
	 * One refresh for the tokens `stale` holds. Under the cross-tab lock the storage is
	 * read again: when another tab already rotated them, its tokens are used as they are.
	 */
	async function refreshFrom(stale: Session): Promise<Session | null> {
		const run = async (): Promise<Session | null> => {
			const current = await readSession();
			if (!current) return signedOut();
			if (current.refreshToken !== stale.refreshToken) return current;
			try {
				await keep(await post<TokenSet>("/auth/tokens/refresh", { refreshToken: current.refreshToken }));
				return readSession();
			} catch (err) {
				if (err instanceof ApiError && err.status === 401) return signedOut();
				throw err;
			}
		};
		return locks ? locks.request(LOCK_NAME, run) : run();
	}

	/** Every caller in this page that needs a refresh at once shares one. */
	function refresh(stale: Session): Promise<Session | null> {
		refreshing ??= refreshFrom(stale).finally(() => {
			refreshing = null;
		});
		return refreshing;
	}

	async function validSession(): Promise<Session | null> {
		if (refreshing) return refreshing;
		const s = await readSession();
		if (!s) return null;
		return s.expiresAt - skew > now() ? s : refresh(s);
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
		return renewed ? send(renewed) : res;
	}

	async function getJson<T>(path: string): Promise<T> {
		return answer<T>(await authorizedFetch(path));
	}

	return {
		async register(input) {
			const result = await post<RegisterResult>("/auth/register", input);
			await keep(result);
			return result;
		},
		async login(username, password) {
			const tokens = await post<TokenSet>("/auth/login", { username, password });
			await keep(tokens);
			return tokens;
		},
		async logout() {
			const session = await readSession();
			try {
				if (session) await post<null>("/auth/logout", { refreshToken: session.refreshToken });
			} finally {
				await storage.remove(key);
			}
		},
		startSocialLogin(returnTo) {
			const url = `${baseUrl}/auth/social/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`;
			browser.location?.assign(url);
			return url;
		},
		async completeSocialLogin(url = browser.location?.href) {
			if (!url) return null;
			const address = new URL(url);
			const token = address.searchParams.get("token");
			const error = address.searchParams.get("error");
			if (!token && !error) return null;
			// The one-time token leaves the address bar (and so the history) before anything else happens.
			address.searchParams.delete("token");
			address.searchParams.delete("error");
			if (browser.history && browser.location?.href === url) browser.history.replaceState(browser.history.state, "", address.toString());
			if (error) throw new ApiError(401, { type: "", title: "Unauthorized", status: 401, detail: "Social sign-in failed.", code: error as Problem["code"], requestId: "" });
			const tokens = await post<TokenSet>("/auth/tokens/exchange", { token });
			await keep(tokens);
			return tokens;
		},
		fetch: authorizedFetch,
		async accessToken() {
			return (await validSession())?.accessToken ?? null;
		},
		notifications: {
			async send(input, opts = {}) {
				const headers: Record<string, string> = { "content-type": "application/json" };
				if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
				return answer<NotificationAccepted>(await authorizedFetch("/notifications", { method: "POST", headers, body: JSON.stringify(input) }));
			},
			get(notificationId) {
				return getJson<Notification>(`/notifications/${encodeURIComponent(notificationId)}`);
			},
			watch(notificationId, onEvent, watchOptions) {
				const path = `/notifications/${encodeURIComponent(notificationId)}/events`;
				const open = async (lastEventId: string | undefined, signal: AbortSignal) => {
					const headers: Record<string, string> = { accept: "text/event-stream" };
					if (lastEventId) headers["last-event-id"] = lastEventId;
					const res = await authorizedFetch(path, { headers, signal });
					if (!res.ok) await answer(res);
					return res;
				};
				return watchStream(open, watchFailure, onEvent, watchOptions);
			}
		}
	};
}

async function answer<T>(res: Response): Promise<T> {
	const text = await res.text();
	const body = text ? (JSON.parse(text) as unknown) : null;
	if (!res.ok) {
		const wait = Number(res.headers.get("retry-after") ?? NaN);
		throw new ApiError(res.status, (body ?? undefined) as Problem | undefined, Number.isFinite(wait) ? wait : undefined);
	}
	return body as T;
}

/** A watch gives up on refusals a retry cannot change; it waits out 429 and retries 5xx and network failures. */
function watchFailure(err: unknown): "final" | number {
	if (!(err instanceof ApiError)) return 0;
	if (err.status === 429 || err.status >= 500) return (err.retryAfter ?? 0) * 1000;
	return "final";
}
