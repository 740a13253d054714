/**
 * What recipients asked for: one-click unsubscribe (RFC 8058) from the links in
 * non-CRITICAL mail, actors' preferences per channel and category, and the operators'
 * view of the suppression and unsubscribe lists. It runs wherever notifications runs (same store).
 * EMAIL preferences speak for an address only once the actor has verified it (the
 * identity provider says so, asked through auth.verifiedHolder); those stored before
 * that rule are decided once at each start (lib/unsubscribe/records.ts settleLegacyPreferences).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { ClientError, notFound } from "../../lib/errors";
import type { HttpMeta } from "../../lib/http/meta";
import { type Channel, CHANNELS, listSuppressions, mayActFor, readSchedule, removeSuppression, writeSchedule, type ScheduleView, type SuppressionView } from "../../lib/notifications";
import {
	ALL_CATEGORIES,
	CATEGORY_PATTERN,
	listUnsubscribes,
	preferencesOf,
	recordUnsubscribe,
	removeUnsubscribe,
	replacePreferences,
	settleLegacyPreferences,
	type Preference,
	type PreferenceActor,
	type UnsubscribeView
} from "../../lib/unsubscribe/records";
import { MAX_TOKEN_LENGTH, verifyUnsubscribe, type UnsubscribeTarget } from "../../lib/unsubscribe/token";
import { principalOf } from "../../middlewares/auth.middleware";
import { ref } from "../../lib/openapi/schemas";
import { RuntimeMixin, type RuntimeMethods } from "../../mixins/runtime.mixin";
import { checkTimeZone, SCHEDULE_PARAMS, type PutPreferencesParams } from "./hold-params";

interface Meta extends HttpMeta {
	/** Set by the gateway when the client (a browser form) prefers HTML. */
	acceptsHtml?: boolean;
}

interface Actor {
	actorId: string;
	email: string;
}

interface PreferencesMethods extends RuntimeMethods {
	target(token: string): Promise<UnsubscribeTarget>;
	actorFor(ctx: Context, id: string): Promise<PreferenceActor>;
	/** Calls as the notifications service, whose part this service is. */
	callAsNotifications<R>(ctx: Context | null, action: string, params: object): Promise<R>;
	settleLegacyPreferences(): Promise<number>;
	settleWithRetries(delayMs: number): void;
}

interface PreferencesState {
	settleTimer: NodeJS.Timeout | null;
	stopping: boolean;
}

/** The longest wait between two tries of the start's check of older preferences. */
const SETTLE_MAX_DELAY_MS = 300_000;

const invalidToken = () => new ClientError(400, "INVALID_UNSUBSCRIBE_TOKEN", "This unsubscribe link is not valid.");

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);

/** A page with no script, no outside resource, and a form that can only post back here. */
function page(title: string, body: string): string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.25rem;background:#1d4ed8;color:#fff;cursor:pointer}button:focus{outline:3px solid #f59e0b}</style></head><body>${body}</body></html>`;
}

const PAGE_HEADERS = {
	"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"Cache-Control": "no-store",
	"Referrer-Policy": "no-referrer",
	"X-Content-Type-Options": "nosniff"
};

function describe(t: UnsubscribeTarget): string {
	const what = t.category === "*" ? "all messages" : `“${t.category}” messages`;
	return `${what} to ${t.address}${t.channel === "EMAIL" ? "" : ` (${t.channel})`}`;
}

const PreferencesService: ServiceSchema<ServiceSettingSchema, PreferencesMethods, PreferencesState> = {
	name: "preferences",
	mixins: [RuntimeMixin],
	actions: {
		/** GET /unsubscribe/{token}: a confirmation page. It never unsubscribes (mail scanners follow links). */
		unsubscribePage: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "The unsubscribe page of a mail's List-Unsubscribe link",
				description: "An HTML page with a confirm button; a GET never unsubscribes (mail scanners follow links).",
				success: { status: 200, description: "The page.", schema: { type: "string" }, contentType: "text/html" },
				problems: ["INVALID_UNSUBSCRIBE_TOKEN"],
				storage: false
			},
			params: { token: { type: "string", min: 1, max: MAX_TOKEN_LENGTH }, $$strict: true },
			async handler(ctx: Context<{ token: string }, Meta>): Promise<string> {
				const t = await this.target(ctx.params.token);
				ctx.meta.$responseType = "text/html; charset=utf-8";
				ctx.meta.$responseHeaders = PAGE_HEADERS;
				return page(
					"Unsubscribe",
					`<main><h1>Unsubscribe</h1><p>Stop ${escapeHtml(describe(t))}?</p><form method="post" action="/unsubscribe/${escapeHtml(ctx.params.token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form></main>`
				);
			}
		},
		/** POST /unsubscribe/{token}: RFC 8058 one-click (body List-Unsubscribe=One-Click, or none). */
		unsubscribe: {
			visibility: "published",
			auth: "public",
			openapi: {
				summary: "RFC 8058 one-click unsubscribe",
				description: "No Bearer token: the signed token in the path names the channel, address and category. With `Accept: text/html` the answer is a page.",
				success: { status: 200, description: "Unsubscribed.", schema: ref("UnsubscribeResult"), contentType: ["application/json", "text/html"] },
				problems: ["INVALID_UNSUBSCRIBE_TOKEN"]
			},
			params: { token: { type: "string", min: 1, max: MAX_TOKEN_LENGTH }, $$strict: true },
			async handler(ctx: Context<{ token: string }, Meta>) {
				const t = await this.target(ctx.params.token);
				const doc = await recordUnsubscribe(this.runtime().store(), t, "one-click");
				const result = { unsubscribed: true, channel: doc.channel, address: doc.address, category: doc.category, createdAt: doc.createdAt };
				if (!ctx.meta.acceptsHtml) return result;
				ctx.meta.$responseType = "text/html; charset=utf-8";
				ctx.meta.$responseHeaders = PAGE_HEADERS;
				return page("Unsubscribed", `<main><h1>Unsubscribed</h1><p>You will no longer get ${escapeHtml(describe(t))}.</p></main>`);
			}
		},
		getPreferences: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "An actor's notification preferences",
				success: { status: 200, description: "The preferences.", schema: ref("Preferences") },
				problems: ["FORBIDDEN", "ACTOR_NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<{ items: Preference[] } & ScheduleView> {
				const actor = await this.actorFor(ctx, ctx.params.id);
				return { items: await preferencesOf(this.runtime().store(), actor), ...(await readSchedule(this.runtime().store(), actor.id)) };
			}
		},
		putPreferences: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Replace an actor's notification preferences",
				description:
					"EMAIL items need the actor's address verified (until then it may be someone else's): 403 EMAIL_NOT_VERIFIED. A set without EMAIL items leaves the address's records alone. `timeZone` (IANA) and `quietHours` (local HH:MM, may wrap midnight) are set when given, removed when null, left when absent; without `items` the items are left too.",
				success: { status: 200, description: "The preferences now in force.", schema: ref("Preferences") },
				problems: ["FORBIDDEN", "ACTOR_NOT_FOUND", "EMAIL_NOT_VERIFIED"],
				example: {
					items: [
						{ channel: "EMAIL", category: "marketing", enabled: false },
						{ channel: "PUSH", category: "*", enabled: false }
					],
					timeZone: "Europe/Vienna",
					quietHours: { start: "22:00", end: "07:00" }
				}
			},
			params: {
				id: { type: "uuid" },
				items: {
					type: "array",
					optional: true,
					max: 200,
					items: {
						type: "object",
						strict: true,
						props: {
							channel: { type: "enum", values: [...CHANNELS] },
							category: { type: "string", pattern: new RegExp(`^(${CATEGORY_PATTERN.source.slice(1, -1)}|\\*)$`) },
							enabled: { type: "boolean" }
						}
					}
				},
				...SCHEDULE_PARAMS,
				$$strict: true
			},
			async handler(ctx: Context<PutPreferencesParams>): Promise<{ items: Preference[] } & ScheduleView> {
				const { timeZone, quietHours } = ctx.params;
				checkTimeZone(timeZone);
				const store = this.runtime().store();
				const actor = await this.actorFor(ctx, ctx.params.id);
				const items = ctx.params.items ? await replacePreferences(store, actor, ctx.params.items) : await preferencesOf(store, actor);
				const schedule = timeZone === undefined && quietHours === undefined ? await readSchedule(store, actor.id) : await writeSchedule(store, { id: actor.id, email: actor.email }, { timeZone, quietHours });
				return { items, ...schedule };
			}
		},
		listSuppressions: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List suppressed addresses",
				success: { status: 200, description: "The suppressions (of one address when given).", schema: ref("SuppressionList") }
			},
			params: { address: { type: "string", min: 1, max: 254, optional: true }, $$strict: true },
			async handler(ctx: Context<{ address?: string }>): Promise<{ items: SuppressionView[] }> {
				return { items: await listSuppressions(this.runtime().store(), ctx.params.address) };
			}
		},
		removeSuppression: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Remove an address from a channel's suppression list",
				success: { status: 204, description: "Removed." },
				problems: ["NOT_FOUND"]
			},
			params: { channel: { type: "enum", values: [...CHANNELS] }, address: { type: "string", min: 1, max: 254 }, $$strict: true },
			async handler(ctx: Context<{ channel: Channel; address: string }, Meta>): Promise<null> {
				if (!(await removeSuppression(this.runtime().store(), ctx.params.channel, ctx.params.address))) throw notFound("NOT_FOUND", "This address is not suppressed on this channel.");
				ctx.meta.$statusCode = 204;
				return null;
			}
		},
		listUnsubscribes: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "List unsubscribes",
				success: { status: 200, description: "The unsubscribes (of one address when given).", schema: ref("UnsubscribeList") }
			},
			params: { address: { type: "string", min: 1, max: 254, optional: true }, $$strict: true },
			async handler(ctx: Context<{ address?: string }>): Promise<{ items: UnsubscribeView[] }> {
				return { items: await listUnsubscribes(this.runtime().store(), ctx.params.address) };
			}
		},
		removeUnsubscribe: {
			visibility: "published",
			auth: ["admin"],
			openapi: {
				summary: "Remove an unsubscribe: the address receives that category again",
				success: { status: 204, description: "Removed." },
				problems: ["NOT_FOUND"]
			},
			params: {
				channel: { type: "enum", values: [...CHANNELS] },
				address: { type: "string", min: 1, max: 254 },
				category: { type: "string", pattern: new RegExp(`^(${CATEGORY_PATTERN.source.slice(1, -1)}|\\${ALL_CATEGORIES})$`) },
				$$strict: true
			},
			async handler(ctx: Context<{ channel: Channel; address: string; category: string }, Meta>): Promise<null> {
				// An operator acting on the recipient's request; the record's removal is the whole of it.
				if (!(await removeUnsubscribe(this.runtime().store(), ctx.params.channel, ctx.params.address, ctx.params.category))) throw notFound("NOT_FOUND", "This address is not unsubscribed from this category on this channel.");
				ctx.meta.$statusCode = 204;
				return null;
			}
		}
	},
	methods: {
		async target(token: string): Promise<UnsubscribeTarget> {
			const t = await verifyUnsubscribe(this.runtime().unsubscribeKeys(), token);
			if (!t) throw invalidToken();
			return t;
		},
		async actorFor(ctx: Context, id: string): Promise<PreferenceActor> {
			if (!mayActFor(principalOf(ctx)!, id)) throw new ClientError(403, "FORBIDDEN", "Only the actor itself, a service or an administrator may manage its preferences.");
			const actor = await this.callAsNotifications<Actor>(ctx, "actors.get", { id });
			const { verified } = await this.callAsNotifications<{ verified: boolean }>(ctx, "auth.verifiedHolder", { actorId: actor.actorId, email: actor.email });
			return { id: actor.actorId, email: actor.email, emailVerified: verified };
		},
		async callAsNotifications<R>(ctx: Context | null, action: string, params: object): Promise<R> {
			// It runs as part of the notifications service (SERVICES=notifications) and calls with its identity.
			const authToken = await this.runtime().serviceTokens.get("notifications");
			return this.broker.call<R, object>(action, params, { ...(ctx ? { parentCtx: ctx } : {}), meta: { ...(ctx?.meta ?? {}), authToken } });
		},
		async settleLegacyPreferences(): Promise<number> {
			const removed = await settleLegacyPreferences(this.runtime().store(), async (actorId, email) => (await this.callAsNotifications<{ verified: boolean }>(null, "auth.verifiedHolder", { actorId, email })).verified);
			if (removed > 0) this.logger.warn("Removed EMAIL preferences stored for addresses their actors never verified", { removed });
			return removed;
		},
		/** Until it succeeds once (the auth service may start later), with a doubling wait. */
		settleWithRetries(delayMs: number) {
			this.settleTimer = null;
			this.settleLegacyPreferences().catch(err => {
				if (this.stopping) return;
				this.logger.warn("Checking older EMAIL preferences failed; trying again", { error: (err as Error).message, inMs: delayMs });
				this.settleTimer = setTimeout(() => this.settleWithRetries(Math.min(delayMs * 2, SETTLE_MAX_DELAY_MS)), delayMs);
				this.settleTimer.unref();
			});
		}
	},
	created() {
		this.settleTimer = null;
		this.stopping = false;
	},
	started() {
		this.settleWithRetries(1000);
	},
	stopped() {
		this.stopping = true;
		if (this.settleTimer) clearTimeout(this.settleTimer);
	}
};

export default PreferencesService;
