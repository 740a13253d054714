/**
 * How the route table (routes.ts) becomes moleculer-web's routes[]: the declaration
 * types, each body kind's parser options, and the aliases grouped in runs that need the
 * hooks (hooks.ts) or not, in their declared order.
 */
import type { ApiRouteSchema } from "moleculer-web";
import { afterCall, beforeCall, JSON_LIMIT, needsHooks, ONE_CLICK_LIMIT, verifyFlagJson, verifyJson } from "./hooks";
import type { AliasPolicy, AppliedPolicy, BodyKind } from "./types";

export interface AliasDeclaration extends AliasPolicy {
	action: string;
}

export interface RouteDeclaration {
	path: string;
	body: BodyKind;
	/** A valid Bearer token is required before anything is called (the service's authenticate method). */
	authentication: boolean;
	/** What every alias of the route has unless it declares otherwise. */
	policy?: AliasPolicy;
	/** "METHOD path" to the action alone, or to the action with its own policy. */
	aliases: Record<string, string | AliasDeclaration>;
	/** moleculer-web route options the body kind does not decide. */
	options?: { busboyConfig?: BusboyConfig; callOptions?: ApiRouteSchema["callOptions"] };
}

/** moleculer-web reads `empty` itself (call the action when no file came); its typings leave it out. */
export type BusboyConfig = NonNullable<ApiRouteSchema["busboyConfig"]> & { empty?: boolean };

type BodyOptions = Pick<ApiRouteSchema, "bodyParsers" | "mergeParams">;

/** moleculer-web parses bodies per route, so the body kind is the route's. */
const BODY_OPTIONS: Record<BodyKind, BodyOptions> = {
	none: { bodyParsers: false },
	json: { mergeParams: true, bodyParsers: { json: { limit: JSON_LIMIT, strict: true, verify: verifyJson } } },
	// Both types are read as they are; the service parses.
	sns: {
		mergeParams: false,
		bodyParsers: {
			json: { limit: JSON_LIMIT, strict: false, verify: verifyJson },
			text: { limit: JSON_LIMIT, type: "text/plain", verify: verifyJson }
		}
	},
	// The file streams to the action as it arrives; no body parser runs.
	multipart: { mergeParams: true, bodyParsers: false },
	flag: { mergeParams: false, bodyParsers: { json: { limit: JSON_LIMIT, strict: false, verify: verifyFlagJson } } },
	"one-click": { mergeParams: false, bodyParsers: { urlencoded: { extended: false, limit: ONE_CLICK_LIMIT, parameterLimit: 4 } } }
};

/** An alias in moleculer-web's object form: what it is given besides type and action stays on req.$alias. */
interface BuiltAlias {
	type?: "multipart";
	action: string;
	policy: AppliedPolicy;
}

function buildAlias(route: RouteDeclaration, declared: string | AliasDeclaration): BuiltAlias {
	const { action, ...own } = typeof declared === "string" ? { action: declared } : declared;
	const policy: AppliedPolicy = { body: route.body, ...route.policy, ...own };
	return route.body === "multipart" ? { type: "multipart", action, policy } : { action, policy };
}

/**
 * A declared route's aliases in runs of the same need for the hooks (hooks.ts
 * needsHooks), in their declared order: moleculer-web tries aliases route by route,
 * so the order in which they match stays the declared one.
 */
function aliasRuns(route: RouteDeclaration): { hooks: boolean; aliases: Record<string, BuiltAlias> }[] {
	const runs: { hooks: boolean; aliases: Record<string, BuiltAlias> }[] = [];
	for (const [match, declared] of Object.entries(route.aliases)) {
		const alias = buildAlias(route, declared);
		const hooks = needsHooks(alias.policy);
		if (runs.at(-1)?.hooks !== hooks) runs.push({ hooks, aliases: {} });
		runs.at(-1)!.aliases[match] = alias;
	}
	return runs;
}

export type GatewayRoute = Pick<ApiRouteSchema, "name" | "path" | "logging" | "mappingPolicy" | "authentication"> &
	BodyOptions &
	RouteDeclaration["options"] & { aliases: Record<string, BuiltAlias>; onBeforeCall?: typeof beforeCall; onAfterCall?: typeof afterCall };

export function buildRoutes(declared: readonly RouteDeclaration[]): GatewayRoute[] {
	return declared.flatMap(route =>
		aliasRuns(route).map((run, i) => ({
			// moleculer-web keeps one route per name, else per path: routes sharing a path differ by body kind, then by run.
			name: `${route.path || "/"} (${route.body})${i > 0 ? ` #${i + 1}` : ""}`,
			path: route.path,
			// moleculer-web formats its per-request lines whenever route logging is on,
			// whatever the log level, which costs more than the rest of a cached request.
			// Failures are logged by the error handler.
			logging: false,
			mappingPolicy: "restrict" as const,
			authentication: route.authentication,
			...BODY_OPTIONS[route.body],
			...route.options,
			aliases: run.aliases,
			...(run.hooks ? { onBeforeCall: beforeCall, onAfterCall: afterCall } : {})
		}))
	);
}
