/**
 * Actor profiles. The auth service creates them at registration (and removes one
 * when a registration has to be rolled back); users and services read them.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { badRequest, ClientError, forbidden, notFound } from "../lib/errors";
import { canonicalLocale } from "../lib/notifications";
import { principalOf } from "../middlewares/auth.middleware";
import { DuplicateKeyError } from "../lib/store";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import { normalizeEmail } from "../lib/email-address";
import { BoundedCache } from "../lib/cache";
import { immutable } from "../lib/http/json-text";
import { ref } from "../lib/openapi/schemas";

export interface Actor {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
	/** BCP 47: the language notifications to this actor are rendered in (templates with translations). */
	locale?: string;
	/** Set by lib/accounts/deliverability.ts once a bounce, complaint, delivery or verification spoke: absent means true. */
	emailDeliverable?: boolean;
	createdAt: string;
	updatedAt: string;
}

interface ActorDoc extends Omit<Actor, "actorId"> {
	id: string;
}

export interface RegisterParams {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
}

export interface UpdateParams {
	id: string;
	firstName?: string;
	lastName?: string;
	/** null removes it. */
	locale?: string | null;
}

const toActor = ({ id, ...rest }: ActorDoc): Actor => ({ actorId: id, ...rest });

/**
 * Profiles are read on most requests and change rarely (a removal, a PATCH), so each
 * node keeps recent ones in memory; changes are broadcast to every actors node.
 * Moleculer's own action cache is not used: it sits outside the auth middleware
 * and would answer callers before their token is checked.
 */
const CACHE_MAX = 10000;
const CACHE_TTL_MS = 60_000;

/**
 * A profile's place in the cache: the last 12 characters of its id (a UUID's random
 * part, 48 bits); a hit is checked against the whole id. Hashing the whole id, taken
 * from the request's path, costs three times as much (lib/auth/verifier.ts says why 12).
 * Two ids with one key only ever cost a read of the store (removing one drops the
 * other's entry too, which is read again when next asked for).
 */
const profileKey = (id: string): string => id.slice(-12);

interface ActorsVars {
	profiles: BoundedCache<string, Actor>;
}

const ActorsService: ServiceSchema<ServiceSettingSchema, RuntimeMethods, ActorsVars> = {
	name: "actors",
	mixins: [RuntimeMixin],
	actions: {
		register: {
			visibility: "public",
			auth: ["service:auth"],
			params: {
				actorId: { type: "uuid" },
				email: { type: "email", max: 254 },
				firstName: { type: "string", trim: true, min: 1, max: 100 },
				lastName: { type: "string", trim: true, min: 1, max: 100 },
				$$strict: true
			},
			async handler(ctx: Context<RegisterParams>): Promise<Actor> {
				const now = new Date().toISOString();
				const doc: ActorDoc = {
					id: ctx.params.actorId,
					email: normalizeEmail(ctx.params.email),
					firstName: ctx.params.firstName,
					lastName: ctx.params.lastName,
					createdAt: now,
					updatedAt: now
				};
				try {
					await this.runtime().store().collection<ActorDoc>("actors").insert(doc);
				} catch (err) {
					if (err instanceof DuplicateKeyError) throw new ClientError(409, "ACTOR_EXISTS", "This actor already exists.");
					throw err;
				}
				return toActor(doc);
			}
		},
		remove: {
			visibility: "public",
			auth: ["service:auth"],
			params: { actorId: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ actorId: string }>): Promise<{ removed: boolean }> {
				const n = await this.runtime().store().collection<ActorDoc>("actors").deleteMany({ id: ctx.params.actorId });
				this.profiles.delete(profileKey(ctx.params.actorId));
				if (n > 0) ctx.broadcast("actors.removed", { actorId: ctx.params.actorId });
				return { removed: n > 0 };
			}
		},
		get: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Read an actor",
				success: { status: 200, description: "The actor.", schema: ref("Actor") },
				problems: ["ACTOR_NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<Actor> {
				const hit = this.profiles.get(profileKey(ctx.params.id));
				if (hit?.actorId === ctx.params.id) return hit;
				const doc = await this.runtime().store().collection<ActorDoc>("actors").get(ctx.params.id);
				if (!doc) throw notFound("ACTOR_NOT_FOUND", "No actor has this id.");
				// Every later read answers with this same object: frozen, its JSON text made once (lib/http/json-text.ts).
				const actor = immutable(toActor(doc));
				this.profiles.set(profileKey(actor.actorId), actor, Date.now() + CACHE_TTL_MS);
				return actor;
			}
		},
		update: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Change an actor's profile",
				description: "The actor itself, an administrator or a service. `locale` (BCP 47, null removes it) picks the translation of templates that have one.",
				success: { status: 200, description: "The actor as changed.", schema: ref("Actor") },
				problems: ["ACTOR_NOT_FOUND", "FORBIDDEN"],
				example: { locale: "de-AT" }
			},
			params: {
				id: { type: "uuid" },
				firstName: { type: "string", trim: true, min: 1, max: 100, optional: true },
				lastName: { type: "string", trim: true, min: 1, max: 100, optional: true },
				locale: { type: "string", min: 2, max: 35, optional: true, nullable: true },
				$$strict: true
			},
			async handler(ctx: Context<UpdateParams>): Promise<Actor> {
				const { id, firstName, lastName, locale } = ctx.params;
				const caller = principalOf(ctx)!;
				if (caller.kind !== "service" && !caller.isAdmin && caller.sub !== id) throw forbidden("FORBIDDEN", "Only the actor itself or an administrator may change its profile.");
				const set: Partial<ActorDoc> = { updatedAt: new Date().toISOString() };
				if (firstName !== undefined) set.firstName = firstName;
				if (lastName !== undefined) set.lastName = lastName;
				if (locale != null) {
					const tag = canonicalLocale(locale);
					if (!tag) throw badRequest("The 'locale' field must be a BCP 47 language tag, such as de or de-AT.", [{ field: "locale", message: "must be a BCP 47 language tag" }]);
					set.locale = tag;
				}
				const doc = await this.runtime().store().collection<ActorDoc>("actors").findOneAndUpdate({ id }, { $set: set, ...(locale === null ? { $unset: ["locale"] } : {}) });
				if (!doc) throw notFound("ACTOR_NOT_FOUND", "No actor has this id.");
				this.profiles.delete(profileKey(id));
				ctx.broadcast("actors.changed", { actorId: id });
				return toActor(doc);
			}
		},
		find: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Find an actor by id",
				success: { status: 200, description: "The actors found (at most one).", schema: { type: "object", required: ["items"], properties: { items: { type: "array", items: ref("Actor") } } } }
			},
			params: { actorId: { type: "string", min: 1, max: 64 }, $$strict: true },
			async handler(ctx: Context<{ actorId: string }>): Promise<{ items: Actor[] }> {
				const docs = await this.runtime().store().collection<ActorDoc>("actors").find({ id: ctx.params.actorId }, { limit: 1 });
				return { items: docs.map(toActor) };
			}
		}
	},
	events: {
		"actors.removed": {
			params: { actorId: "string" },
			handler(ctx: Context<{ actorId: string }>) {
				this.profiles.delete(profileKey(ctx.params.actorId));
			}
		},
		"actors.changed": {
			params: { actorId: "string" },
			handler(ctx: Context<{ actorId: string }>) {
				this.profiles.delete(profileKey(ctx.params.actorId));
			}
		}
	},
	created() {
		this.profiles = new BoundedCache(CACHE_MAX);
	}
};

export default ActorsService;
